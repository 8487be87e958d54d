/** What every authoring resource group shares: the transport, the path prefix and reading `data`. */
import type { PageOptions } from '../core/pagination.ts';
import { checkAnswer, list, number, present, record, type Shape } from '../core/shape.ts';
import type { ApiResponse, HttpTransport, QueryValue, RequestSpec } from '../core/transport.ts';
import type { AuthoringDate, AuthoringListFilters } from './types.ts';

export interface AuthoringContext {
  readonly http: HttpTransport;
  readonly prefix: string;
}

/**
 * Sends a request whose answer is `{ data }` and returns `data`, after checking the fields of it
 * that `shape` names (the ones callers read).
 */
export async function sendForData<T>(
  context: AuthoringContext,
  spec: RequestSpec,
  shape: Shape = present,
): Promise<T> {
  const response: ApiResponse<unknown> = await context.http.send(spec);
  return checkAnswer<{ data: T }>(spec, response.body, record({ data: shape })).data;
}

/** A page of a list, its items each of `item`. */
export function pageOf(item: Shape): Shape {
  return record({ items: list(item), total: number });
}

/** Sends a request whose success answer is empty (204). */
export async function sendForNothing(context: AuthoringContext, spec: RequestSpec): Promise<void> {
  await context.http.send({ ...spec, responseType: 'none' });
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
 * Largest `limit` the iterators ask for. The interface names no maximum; the emulator serves at
 * most 100 a page (a larger `limit` is answered with 100 items and the total), and a service that
 * refused a larger one would stop an iteration, so the iterators never ask for more.
 */
const AUTHORING_MAX_LIMIT = 100;

/** Paging options of an iterator, the page size capped at `AUTHORING_MAX_LIMIT`. */
export function cappedPaging<T extends PageOptions>(options: T): T {
  return {
    ...options,
    maxPageSize: Math.min(options.maxPageSize ?? AUTHORING_MAX_LIMIT, AUTHORING_MAX_LIMIT),
  };
}
