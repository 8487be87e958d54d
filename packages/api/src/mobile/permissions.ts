/** Permissions of the account's administrators. */
import type { CallOptions } from '../core/call.ts';
import type { HttpTransport } from '../core/transport.ts';
import { callMobile } from './request.ts';
import type { MobilePermissionList } from './types.ts';

export class MobilePermissions {
  readonly #http: HttpTransport;

  constructor(http: HttpTransport) {
    this.#http = http;
  }

  /** GET /api/1/cpanel/permissions/: every administrator with its role and project permissions. */
  list(options?: CallOptions): Promise<MobilePermissionList> {
    return callMobile(
      this.#http,
      { operation: 'listPermissions', method: 'GET', path: '/api/1/cpanel/permissions/' },
      options,
    );
  }
}
