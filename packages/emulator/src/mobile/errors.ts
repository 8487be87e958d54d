/**
 * Failures of the mobile interface. The seed fixes `{ status: 'fail', code, message }` for the
 * upload and the build update; the other operations answer the same shape, since one service
 * with one error style is the most likely, with these codes where the seed names none.
 */
export const CODE = {
  /** A required parameter is missing or invalid (the message names it). */
  missingParameter: 1,
  /** Credentials missing or wrong (the upload's "invalid API key"). */
  invalidApiKey: 5,
  notFound: 6,
  noWriteAccess: 99,
  invalidFile: 105,
  testerAccount: 133,
  landingPageRequiresLogin: 156,
} as const;

export class MobileError extends Error {
  readonly httpStatus: number;
  readonly code: number;

  constructor(httpStatus: number, code: number, message: string) {
    super(message);
    this.httpStatus = httpStatus;
    this.code = code;
  }
}

export function missing(parameter: string): MobileError {
  return new MobileError(400, CODE.missingParameter, `Missing parameter: ${parameter}`);
}

export function invalid(parameter: string, why: string): MobileError {
  return new MobileError(400, CODE.missingParameter, `Invalid parameter ${parameter}: ${why}`);
}

export function notFound(what: string): MobileError {
  return new MobileError(404, CODE.notFound, `${what} not found`);
}

export function failureBody(error: MobileError): { status: 'fail'; code: number; message: string } {
  return { status: 'fail', code: error.code, message: error.message };
}
