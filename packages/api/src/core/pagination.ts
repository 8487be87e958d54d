/** Async iterators over the three pagination styles of the interfaces. */

export interface PageOptions {
  /** Items per request. */
  pageSize?: number;
  /** Stop after this many items. */
  maxItems?: number;
  signal?: AbortSignal;
}

/** AI authoring: `skip`/`limit`, each page answering `{ items, total }`. */
export async function* paginateSkipLimit<T>(
  fetchPage: (skip: number, limit: number) => Promise<{ items: T[]; total: number }>,
  options: PageOptions = {},
): AsyncGenerator<T, void, undefined> {
  const limit = options.pageSize ?? 100;
  let skip = 0;
  let yielded = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const page = await fetchPage(skip, limit);
    for (const item of page.items) {
      if (options.maxItems !== undefined && yielded >= options.maxItems) return;
      yield item;
      yielded++;
    }
    skip += page.items.length;
    if (page.items.length === 0 || skip >= page.total) return;
  }
}

export interface PageInfo {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
}

/** Mobile distribution v2: `page`/`per_page` from 1, each page answering its pagination object. */
export async function* paginatePages<T>(
  fetchPage: (page: number, perPage: number) => Promise<{ items: T[]; pagination?: PageInfo }>,
  options: PageOptions & { maxPageSize: number },
): AsyncGenerator<T, void, undefined> {
  const perPage = Math.min(options.pageSize ?? options.maxPageSize, options.maxPageSize);
  let yielded = 0;
  for (let page = 1; ; page++) {
    options.signal?.throwIfAborted();
    const result = await fetchPage(page, perPage);
    for (const item of result.items) {
      if (options.maxItems !== undefined && yielded >= options.maxItems) return;
      yield item;
      yielded++;
    }
    const totalPages = result.pagination?.total_pages;
    if (result.items.length === 0) return;
    if (totalPages !== undefined ? page >= totalPages : result.items.length < perPage) return;
  }
}

/** Automation jobs: `skip`/`limit` answering a bare array; the last page is a short one. */
export async function* paginateOffset<T>(
  fetchPage: (skip: number, limit: number) => Promise<T[]>,
  options: PageOptions = {},
): AsyncGenerator<T, void, undefined> {
  const limit = options.pageSize ?? 100;
  let skip = 0;
  let yielded = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const items = await fetchPage(skip, limit);
    for (const item of items) {
      if (options.maxItems !== undefined && yielded >= options.maxItems) return;
      yield item;
      yielded++;
    }
    skip += items.length;
    if (items.length < limit) return;
  }
}

/** Collects an async iterator into an array. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}
