/** Permissions of the account's administrators. */
import type { CallOptions } from '../core/values/call.ts';
import { operations } from '../core/resources/resource.ts';
import { MobileResource } from './request.ts';
import type { MobilePermissionList } from './types.ts';

const PERMISSIONS = operations({ listPermissions: 'GET /api/1/cpanel/permissions/' });

export class MobilePermissions extends MobileResource {
  /** GET /api/1/cpanel/permissions/: every administrator with its role and project permissions. */
  list(options?: CallOptions): Promise<MobilePermissionList> {
    return this.call(PERMISSIONS.listPermissions, {}, options);
  }
}
