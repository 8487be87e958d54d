/** What every authoring resource group shares: the transport, the path prefix and reading `data`. */
import { ApiError } from '../core/errors.ts';
import { queryString, type ApiResponse, type HttpTransport, type RequestSpec } from '../core/transport.ts';
import type { AuthoringDate } from './types.ts';

export interface AuthoringContext {
  readonly http: HttpTransport;
  readonly prefix: string;
}

/** Sends a request whose answer is `{ data }` and returns `data` as is. */
export async function sendForData<T>(context: AuthoringContext, spec: RequestSpec): Promise<T> {
  const response: ApiResponse<unknown> = await context.http.send(spec);
  const body = response.body;
  if (!body || typeof body !== 'object' || !('data' in body)) {
    throw new ApiError({
      operation: spec.operation,
      method: spec.method,
      url: spec.path + queryString(spec.query),
      status: response.status,
      serviceMessage: 'answer has no data member',
      body,
    });
  }
  return (body as { data: T }).data;
}

/** Sends a request whose success answer is empty (204). */
export async function sendForNothing(context: AuthoringContext, spec: RequestSpec): Promise<void> {
  await context.http.send({ ...spec, responseType: 'none' });
}

/** A query date as the service reads it: ISO 8601. */
export function isoDate(value: AuthoringDate | undefined): string | undefined {
  if (value === undefined) return undefined;
  return value instanceof Date ? value.toISOString() : value;
}
