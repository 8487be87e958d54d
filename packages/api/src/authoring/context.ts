/** What every authoring resource group shares: the transport, the path prefix and reading `data`. */
import { ApiError } from '../core/values/errors.ts';
import type { PageOptions } from '../core/resources/pagination.ts';
import { Resource } from '../core/resources/resource.ts';
import { checkAnswer, list, number, present, record, type Shape } from '../core/resources/shape.ts';
import type { HttpTransport, QueryValue, RequestSpec } from '../core/transport/transport.ts';
import type { AuthoringDate, AuthoringListFilters } from './types.ts';

export interface AuthoringContext {
  readonly http: HttpTransport;
  readonly prefix: string;
}

/**
 * A resource group of the authoring interface: its paths below the prefix, its answers `{ data }`
 * whose `data` is returned after checking the fields of it that the row's shape names (the ones
 * callers read), or nothing (204) where the row expects no answer.
 */
export abstract class AuthoringResource extends Resource {
  constructor(context: AuthoringContext) {
    super(context, context.prefix);
  }

  protected override read<T>(spec: RequestSpec, body: unknown, shape: Shape | undefined): T {
    if (spec.responseType === 'none') return undefined as T;
    return checkAnswer<{ data: T }>(spec, body, record({ data: shape ?? present })).data;
  }
}

/** A page of a list, its items each of `item`. */
export function pageOf(item: Shape): Shape {
  return record({ items: list(item), total: number });
}

/** The filters every list takes, as the query sends them: dates in ISO 8601. */
export function filterQuery(filters: AuthoringListFilters): Record<string, QueryValue> {
  return {
    search: filters.search,
    startDate: isoDate(filters.startDate),
    endDate: isoDate(filters.endDate),
    userId: filters.userId,
    teamId: filters.teamId,
  };
}

function isoDate(value: AuthoringDate | undefined): string | undefined {
  if (value === undefined) return undefined;
  return value instanceof Date ? value.toISOString() : value;
}

/**
 * The `limit` the iterators ask for unless told. The interface names no maximum, and each page
 * costs a request of an account's shared budget (a matrix's every shard lists its suite), so they
 * ask for wide pages and page on by what each answer holds and its `total`: a service that serves
 * fewer (the emulator serves at most 1,000) costs more pages, never items. One that refuses a wide
 * `limit` (400) is asked for `AUTHORING_FALLBACK_LIMIT` instead (`widePages`).
 */
const AUTHORING_MAX_LIMIT = 1000;
const AUTHORING_FALLBACK_LIMIT = 100;

/** Paging options of an iterator: pages of `AUTHORING_MAX_LIMIT` unless told, and never more. */
export function cappedPaging<T extends PageOptions>(options: T): T {
  return {
    ...options,
    pageSize: options.pageSize ?? AUTHORING_MAX_LIMIT,
    maxPageSize: Math.min(options.maxPageSize ?? AUTHORING_MAX_LIMIT, AUTHORING_MAX_LIMIT),
  };
}

/**
 * A page fetcher that asks again at `AUTHORING_FALLBACK_LIMIT` when a service refuses a wider
 * `limit` with 400, and keeps to it for the rest of the iteration; a 400 the narrower page meets
 * too is the iteration's failure.
 */
export function widePages<P>(
  fetchPage: (skip: number, limit: number) => Promise<P>,
): (skip: number, limit: number) => Promise<P> {
  let narrow = false;
  return async (skip, limit) => {
    if (narrow) return fetchPage(skip, Math.min(limit, AUTHORING_FALLBACK_LIMIT));
    try {
      return await fetchPage(skip, limit);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 400) || limit <= AUTHORING_FALLBACK_LIMIT)
        throw error;
      const page = await fetchPage(skip, AUTHORING_FALLBACK_LIMIT);
      narrow = true;
      return page;
    }
  };
}
