/** Sites of multi-site accounts. */
import type { CallOptions } from '../core/values/call.ts';
import { form, operations } from '../core/resources/resource.ts';
import { MobileResource } from './request.ts';
import type { MobileSiteInput, MobileSiteResult, MobileStatusResult } from './types.ts';

const SITE_NAME = /^[A-Za-z0-9_-]{4,}$/;

const SITES = operations({
  getSite: 'GET /api/1/site/',
  createSite: 'POST /api/1/site/',
  deleteSite: 'DELETE /api/1/site/{siteId}/',
});

export class MobileSites extends MobileResource {
  /** GET /api/1/site/: the site's accounts and managers. */
  get(options?: CallOptions): Promise<MobileSiteResult> {
    return this.call(SITES.getSite, {}, options);
  }

  /** POST /api/1/site/: creates a site; the name is checked before anything is sent. */
  async create(site: MobileSiteInput, options?: CallOptions): Promise<MobileStatusResult> {
    if (!SITE_NAME.test(site.name)) {
      throw new TypeError('a site name has more than 3 characters, all letters, digits, - or _');
    }
    const loginMethod = site.loginMethod === undefined ? undefined : site.loginMethod === 'sso' ? 0 : 1;
    return this.call(SITES.createSite, { body: form({ name: site.name, loginMethod }) }, options);
  }

  /** DELETE /api/1/site/{siteId}/: deletes a site. */
  delete(siteId: string | number, options?: CallOptions): Promise<MobileStatusResult> {
    return this.call(SITES.deleteSite, { path: { siteId } }, options);
  }
}
