import { describe, expect, it } from 'vitest';
import {
  collect,
  paginateOffset,
  paginatePages,
  paginateSkipLimit,
  type PageInfo,
} from '../../src/core/resources/pagination.ts';

const numbers = (count: number) => Array.from({ length: count }, (_, index) => index);

/** A service holding `total` items that serves at most `cap` per page, recording each request. */
function offsetService(total: number, cap = Infinity) {
  const calls: [number, number][] = [];
  const fetch = async (skip: number, limit: number) => {
    calls.push([skip, limit]);
    return numbers(total).slice(skip, skip + Math.min(limit, cap));
  };
  return { calls, fetch };
}

describe('paginateSkipLimit', () => {
  it('walks every page until the total is reached', async () => {
    const calls: [number, number][] = [];
    const items = await collect(
      paginateSkipLimit(
        async (skip, limit) => {
          calls.push([skip, limit]);
          return { items: numbers(7).slice(skip, skip + limit), total: 7 };
        },
        { pageSize: 3 },
      ),
    );
    expect(items).toEqual(numbers(7));
    expect(calls).toEqual([
      [0, 3],
      [3, 3],
      [6, 3],
    ]);
  });

  it('stops at maxItems without asking for more than it needs, and never asks for limit 0', async () => {
    const calls: [number, number][] = [];
    const fetch = async (skip: number, limit: number) => {
      calls.push([skip, limit]);
      return { items: numbers(100).slice(skip, skip + limit), total: 100 };
    };
    expect(await collect(paginateSkipLimit(fetch, { pageSize: 4, maxItems: 6 }))).toEqual(numbers(6));
    expect(calls).toEqual([
      [0, 4],
      [4, 2],
    ]);
    calls.length = 0;
    expect(await collect(paginateSkipLimit(fetch, { maxItems: 0 }))).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('caps the page at the maximum size and stops on an empty page', async () => {
    const calls: number[] = [];
    const items = await collect(
      paginateSkipLimit(
        async (skip, limit) => {
          calls.push(limit);
          // A total that overstates what is there must not loop forever.
          return { items: skip >= 5 ? [] : numbers(5).slice(skip, skip + limit), total: 50 };
        },
        { pageSize: 500, maxPageSize: 2 },
      ),
    );
    expect(items).toEqual(numbers(5));
    expect(calls).toEqual([2, 2, 2, 2]);
  });

  it('rejects a page size that is not a positive integer', async () => {
    await expect(
      collect(paginateSkipLimit(async () => ({ items: [], total: 0 }), { pageSize: 0 })),
    ).rejects.toThrow(RangeError);
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const run = (async () => {
      for await (const item of paginateSkipLimit(
        async (skip, limit) => ({ items: numbers(10).slice(skip, skip + limit), total: 10 }),
        { pageSize: 2, signal: controller.signal },
      )) {
        seen.push(item);
        if (item === 2) controller.abort();
      }
    })();
    await expect(run).rejects.toThrow();
    expect(seen).toEqual([0, 1, 2, 3]);
  });
});

describe('paginatePages', () => {
  function pageService(total: number) {
    const calls: [number, number][] = [];
    const fetch = async (page: number, perPage: number) => {
      calls.push([page, perPage]);
      const pagination: PageInfo = {
        page,
        per_page: perPage,
        total,
        total_pages: Math.ceil(total / perPage),
      };
      return { items: numbers(total).slice((page - 1) * perPage, page * perPage), pagination };
    };
    return { calls, fetch };
  }

  it('walks pages from 1 to total_pages at the maximum page size by default', async () => {
    const service = pageService(250);
    expect(await collect(paginatePages(service.fetch, { maxPageSize: 100 }))).toEqual(numbers(250));
    expect(service.calls).toEqual([
      [1, 100],
      [2, 100],
      [3, 100],
    ]);
  });

  it('never asks for more than the maximum page size', async () => {
    const service = pageService(30);
    await collect(paginatePages(service.fetch, { pageSize: 1000, maxPageSize: 25 }));
    expect(service.calls.map(([, perPage]) => perPage)).toEqual([25, 25]);
  });

  it('stops at maxItems', async () => {
    const service = pageService(500);
    expect(
      await collect(paginatePages(service.fetch, { pageSize: 10, maxPageSize: 100, maxItems: 15 })),
    ).toEqual(numbers(15));
    expect(service.calls).toEqual([
      [1, 10],
      [2, 10],
    ]);
    const small = pageService(500);
    expect(await collect(paginatePages(small.fetch, { maxPageSize: 100, maxItems: 3 }))).toEqual(numbers(3));
    expect(small.calls).toEqual([[1, 3]]);
  });

  it('ends on a short page when the answer has no pagination object', async () => {
    const calls: number[] = [];
    const items = await collect(
      paginatePages(
        async (page, perPage) => {
          calls.push(page);
          return { items: numbers(7).slice((page - 1) * perPage, page * perPage) };
        },
        { maxPageSize: 3 },
      ),
    );
    expect(items).toEqual(numbers(7));
    expect(calls).toEqual([1, 2, 3]);
  });
});

describe('paginateOffset', () => {
  it('walks until a short page', async () => {
    const service = offsetService(7);
    expect(await collect(paginateOffset(service.fetch, { pageSize: 3 }))).toEqual(numbers(7));
    expect(service.calls).toEqual([
      [0, 3],
      [3, 3],
      [6, 3],
    ]);
  });

  it('asks once more after an exactly full last page, and gets nothing', async () => {
    const service = offsetService(6);
    expect(await collect(paginateOffset(service.fetch, { pageSize: 3 }))).toEqual(numbers(6));
    expect(service.calls).toHaveLength(3);
  });

  it('does not take a page the service capped for the last one', async () => {
    // The service serves at most 100 a page; without maxPageSize a request for 500 ends after 100.
    const service = offsetService(250, 100);
    expect(await collect(paginateOffset(service.fetch, { pageSize: 500, maxPageSize: 100 }))).toEqual(
      numbers(250),
    );
    expect(service.calls.map(([skip]) => skip)).toEqual([0, 100, 200]);
  });

  it('stops at maxItems and shrinks the last request', async () => {
    const service = offsetService(1000);
    expect(await collect(paginateOffset(service.fetch, { pageSize: 100, maxItems: 150 }))).toHaveLength(150);
    expect(service.calls).toEqual([
      [0, 100],
      [100, 50],
    ]);
  });
});
