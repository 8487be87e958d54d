/**
 * What every mobile distribution request shares: a success answer can still be a failure
 * (`status: fail` with a code, whatever the HTTP status), and errors must not echo a secret.
 */
import { callSpec, type CallOptions } from '../core/values/call.ts';
import { redact, secretsOf, type Credentials } from '../core/values/credentials.ts';
import { ApiError, serviceErrorOf } from '../core/values/errors.ts';
import { paginatePages, type PageInfo } from '../core/resources/pagination.ts';
import { Resource, type Operation, type PathValue } from '../core/resources/resource.ts';
import type { ApiResponse, HttpTransport, QueryValue, RequestSpec } from '../core/transport/transport.ts';
import type { MobileIterateOptions, MobilePageParams } from './types.ts';

/** Reads `status: fail` out of an answer's body, for the transport's `failureOf` hook. */
export function mobileFailureOf(body: unknown): { code?: string | number; message?: string } | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  if ((body as Record<string, unknown>).status !== 'fail') return undefined;
  return serviceErrorOf(body);
}

/** An id in a path: the interface's ids are numbers, which callers may hold as text. */
export type Id = string | number;

type MobileRequest = Omit<RequestSpec, 'failureOf' | 'signal' | 'timeouts'>;

/**
 * Sends a mobile request with the failure hook; `extraSecrets` names secrets the transport does not
 * know about (the upload's `api_key` field), so that they are masked in the error as well.
 */
export async function sendMobile<T>(
  http: HttpTransport,
  spec: MobileRequest,
  options: CallOptions | undefined,
  extraSecrets: readonly string[] = [],
): Promise<ApiResponse<T>> {
  try {
    return await http.send<T>({ ...spec, ...callSpec(options), failureOf: mobileFailureOf });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const redacted = redactedApiError(error, [...extraSecrets, ...secretsOf(http.credentials)]);
    throw withRefusedToken(redacted, http.credentials);
  }
}

/**
 * A refusal of the credentials (401, or code 5 whatever the status) when they were an OIDC bearer
 * token says so, with the token's claims: the caller must not word it as a refused API key.
 */
function withRefusedToken(error: ApiError, credentials: Credentials | undefined): ApiError {
  if (credentials?.type !== 'bearer' || error.unusable !== undefined) return error;
  if (error.status !== 401 && String(error.code) !== '5') return error;
  return new ApiError({ ...error.details, refusedToken: { claims: credentials.claims() } });
}

/** The same error with every secret masked in its message and its recorded answer. */
function redactedApiError(error: ApiError, secrets: readonly string[]): ApiError {
  const serialised = error.body === undefined ? undefined : JSON.stringify(error.body);
  const leaks =
    secrets.some((secret) => secret.length >= 3 && error.message.includes(secret)) ||
    (serialised !== undefined && secrets.some((secret) => secret.length >= 3 && serialised.includes(secret)));
  if (!leaks) return error;
  // Every field carried over (attempts, why it was not retried, whether it may have been done).
  const { serviceMessage, body: _body, ...details } = error.details;
  return new ApiError({
    ...details,
    ...(serviceMessage !== undefined ? { serviceMessage: redact(serviceMessage, secrets) } : {}),
    ...(serialised !== undefined ? { body: JSON.parse(redact(serialised, secrets)) as unknown } : {}),
  });
}

/** A resource group of the mobile interface: its requests carry the failure hook and mask secrets. */
export abstract class MobileResource extends Resource {
  constructor(http: HttpTransport) {
    super({ http }, '');
  }

  protected override exchange<T>(
    spec: RequestSpec,
    options: CallOptions | undefined,
  ): Promise<ApiResponse<T>> {
    return sendMobile<T>(this.http, spec, options);
  }

  /** One page of a paginated list. */
  protected page<P>(
    listing: Listing<P, unknown>,
    path: Record<string, PathValue>,
    params: MobilePageParams | undefined,
    options: CallOptions | undefined,
  ): Promise<P> {
    return this.call(listing.operation, { path, query: pageQuery(params) }, options);
  }

  /**
   * Every item of a paginated list, page after page, never asking for more than its largest
   * page; `query` makes each page's query (by default its `page` and `per_page` alone).
   */
  protected everyItem<P extends { pagination?: unknown }, T>(
    listing: Listing<P, T>,
    path: Record<string, PathValue>,
    options: MobileIterateOptions | undefined,
    query: (page: MobilePageParams) => Record<string, QueryValue> = pageQuery,
  ): AsyncGenerator<T, void, undefined> {
    return iteratePages(
      (params, call) => this.call<P>(listing.operation, { path, query: query(params) }, call),
      listing.itemsOf,
      listing.maxPageSize,
      options,
    );
  }
}

/** A paginated list: its operation, its largest `per_page`, and where a page holds its items. */
export interface Listing<P, T> {
  readonly operation: Operation;
  readonly maxPageSize: number;
  readonly itemsOf: (page: P) => T[] | undefined;
}

/** Lists go to the service comma-separated. */
export function commaList(values: readonly (string | number)[] | undefined): string | undefined {
  return values === undefined ? undefined : values.map(String).join(',');
}

/** The service's on/off switches; left out when the caller did not say. */
export function onOff(value: boolean | undefined): 'on' | 'off' | undefined {
  return value === undefined ? undefined : value ? 'on' : 'off';
}

/** `page` and `per_page` of the paginated lists. */
export function pageQuery(params: MobilePageParams | undefined): Record<string, QueryValue> {
  return { page: params?.page, per_page: params?.perPage };
}

/** Walks a paginated list page by page, never asking for more than its maximum `per_page`. */
export function iteratePages<T, P extends { pagination?: unknown }>(
  fetchPage: (params: MobilePageParams, options: CallOptions) => Promise<P>,
  itemsOf: (page: P) => T[] | undefined,
  maxPageSize: number,
  options: MobileIterateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const call = callSpec(options);
  return paginatePages(
    async (page, perPage) => {
      const answer = await fetchPage({ page, perPage }, call);
      return { items: itemsOf(answer) ?? [], ...paginationOf(answer) };
    },
    {
      maxPageSize,
      ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
      ...(options.maxItems !== undefined ? { maxItems: options.maxItems } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
}

function paginationOf(answer: { pagination?: unknown }): { pagination?: PageInfo } {
  const value = answer.pagination;
  return value && typeof value === 'object' ? { pagination: value as PageInfo } : {};
}
