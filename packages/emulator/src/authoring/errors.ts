/** Errors of the authoring interface, answered as `{ error: { code, detail } }`. */

type AuthoringErrorCode =
  'BAD_REQUEST' | 'UNAUTHORIZED' | 'NOT_FOUND' | 'UNSUPPORTED_MEDIA_TYPE' | 'INTERNAL_ERROR';

export class AuthoringError extends Error {
  readonly statusCode: number;
  readonly code: AuthoringErrorCode;

  constructor(statusCode: number, code: AuthoringErrorCode, detail: string) {
    super(detail);
    this.statusCode = statusCode;
    this.code = code;
  }
}

export const badRequest = (detail: string) => new AuthoringError(400, 'BAD_REQUEST', detail);
export const notFound = (detail: string) => new AuthoringError(404, 'NOT_FOUND', detail);

export function errorBody(code: string, detail: string) {
  return { error: { code, detail } };
}

export function codeForStatus(status: number): AuthoringErrorCode {
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 404) return 'NOT_FOUND';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (status >= 400 && status < 500) return 'BAD_REQUEST';
  return 'INTERNAL_ERROR';
}
