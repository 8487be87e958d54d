/** Async iterators over the three pagination styles of the interfaces. */

export interface PageOptions {
  /** Items per request. */
  pageSize?: number;
  /**
   * Largest page the service serves. A service that caps the page silently answers a short page,
   * which an offset paginator would take for the last one, so requests never ask for more.
   */
  maxPageSize?: number;
  /** Stop after this many items. */
  maxItems?: number;
  signal?: AbortSignal;
}

const DEFAULT_PAGE_SIZE = 100;

function pageSizeOf(options: PageOptions, fallback: number): number {
  const size = Math.min(options.pageSize ?? fallback, options.maxPageSize ?? Infinity);
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`page size must be a positive integer: ${size}`);
  return size;
}

/** How many more items may be yielded. */
function remainingOf(options: PageOptions, yielded: number): number {
  return options.maxItems === undefined ? Infinity : Math.max(0, options.maxItems - yielded);
}

/**
 * The loop both `skip`/`limit` styles share: pages from 0 on, each at most what is left to
 * yield, until a page is empty or `isLast` says it was the last.
 */
async function* byOffset<T, P extends { items: readonly T[] }>(
  fetchPage: (skip: number, limit: number) => Promise<P>,
  isLast: (page: P, skipAfter: number, limit: number) => boolean,
  options: PageOptions,
): AsyncGenerator<T, void, undefined> {
  const pageSize = pageSizeOf(options, DEFAULT_PAGE_SIZE);
  let skip = 0;
  let yielded = 0;
  for (;;) {
    const remaining = remainingOf(options, yielded);
    // Never ask for `limit` 0: the test case list answers only the total to that.
    if (remaining === 0) return;
    options.signal?.throwIfAborted();
    const limit = Math.min(pageSize, remaining);
    const page = await fetchPage(skip, limit);
    for (const item of page.items) {
      if (yielded >= (options.maxItems ?? Infinity)) return;
      yield item;
      yielded++;
    }
    skip += page.items.length;
    if (page.items.length === 0 || isLast(page, skip, limit)) return;
  }
}

/** AI authoring: `skip`/`limit`, each page answering `{ items, total }`. */
export function paginateSkipLimit<T>(
  fetchPage: (skip: number, limit: number) => Promise<{ items: T[]; total: number }>,
  options: PageOptions = {},
): AsyncGenerator<T, void, undefined> {
  return byOffset(fetchPage, (page, skipAfter) => skipAfter >= page.total, options);
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
  // Page numbers fix the offsets, so the page size cannot shrink on the way; only the first does.
  const perPage = Math.min(
    pageSizeOf(options, options.maxPageSize),
    Math.max(1, options.maxItems ?? Infinity),
  );
  let yielded = 0;
  for (let page = 1; ; page++) {
    if (remainingOf(options, yielded) === 0) return;
    options.signal?.throwIfAborted();
    const result = await fetchPage(page, perPage);
    for (const item of result.items) {
      if (yielded >= (options.maxItems ?? Infinity)) return;
      yield item;
      yielded++;
    }
    const totalPages = result.pagination?.total_pages;
    if (result.items.length === 0) return;
    if (totalPages !== undefined ? page >= totalPages : result.items.length < perPage) return;
  }
}

/** Automation jobs: `skip`/`limit` answering a bare array; the last page is a short one. */
export function paginateOffset<T>(
  fetchPage: (skip: number, limit: number) => Promise<T[]>,
  options: PageOptions = {},
): AsyncGenerator<T, void, undefined> {
  return byOffset(
    async (skip: number, limit: number) => ({ items: await fetchPage(skip, limit) }),
    (page, _skipAfter, limit) => page.items.length < limit,
    options,
  );
}

/** Collects an async iterator into an array. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}
