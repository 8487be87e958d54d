/** Sites of multi-site accounts. */
import type { CallOptions } from '../core/call.ts';
import { segment, type HttpTransport } from '../core/transport.ts';
import { callMobile } from './request.ts';
import type { MobileSiteInput, MobileSiteResult, MobileStatusResult } from './types.ts';

const SITE_NAME = /^[A-Za-z0-9_-]{4,}$/;

export class MobileSites {
  readonly #http: HttpTransport;

  constructor(http: HttpTransport) {
    this.#http = http;
  }

  /** GET /api/1/site/: the site's accounts and managers. */
  get(options?: CallOptions): Promise<MobileSiteResult> {
    return callMobile(this.#http, { operation: 'getSite', method: 'GET', path: '/api/1/site/' }, options);
  }

  /** POST /api/1/site/: creates a site; the name is checked before anything is sent. */
  async create(site: MobileSiteInput, options?: CallOptions): Promise<MobileStatusResult> {
    if (!SITE_NAME.test(site.name)) {
      throw new TypeError('a site name has more than 3 characters, all letters, digits, - or _');
    }
    return callMobile(
      this.#http,
      {
        operation: 'createSite',
        method: 'POST',
        path: '/api/1/site/',
        body: {
          kind: 'form',
          fields: {
            name: site.name,
            loginMethod: site.loginMethod === undefined ? undefined : site.loginMethod === 'sso' ? 0 : 1,
          },
        },
      },
      options,
    );
  }

  /** DELETE /api/1/site/{siteId}/: deletes a site. */
  delete(siteId: string | number, options?: CallOptions): Promise<MobileStatusResult> {
    return callMobile(
      this.#http,
      { operation: 'deleteSite', method: 'DELETE', path: `/api/1/site/${segment(siteId)}/` },
      options,
    );
  }
}
