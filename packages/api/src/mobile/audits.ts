/** Audit trails: the deprecated v1 list and the three paginated v2 trails. */
import type { CallOptions } from '../core/values/call.ts';
import { operations } from '../core/resources/resource.ts';
import type { QueryValue } from '../core/transport/transport.ts';
import { type Listing, MobileResource, pageQuery } from './request.ts';
import type {
  MobileAudit,
  MobileAuditFilter,
  MobileAuditListV1,
  MobileAuditPage,
  MobileIterateOptions,
  MobilePageParams,
} from './types.ts';

/** Largest `per_page` of the v2 audit lists. */
export const MOBILE_AUDITS_MAX_PER_PAGE = 200;

type AuditQuery = MobileAuditFilter & MobilePageParams;

const AUDITS = operations({
  listAuditsV1: 'GET /api/1/audits',
  listAudits: 'GET /api/2/audits/',
  listAdminTrail: 'GET /api/2/audits/admin-trail/',
  listTesterTrail: 'GET /api/2/audits/tester-trail/',
});

type Trail = Exclude<keyof typeof AUDITS, 'listAuditsV1'>;

/** The v2 trails, each a paginated list of audit items. */
function trailPages(trail: Trail): Listing<MobileAuditPage, MobileAudit> {
  return {
    operation: AUDITS[trail],
    maxPageSize: MOBILE_AUDITS_MAX_PER_PAGE,
    itemsOf: (page) => page.audits,
  };
}

export class MobileAudits extends MobileResource {
  /** GET /api/1/audits: the deprecated v1 audit list. */
  listV1(options?: CallOptions): Promise<MobileAuditListV1> {
    return this.call(AUDITS.listAuditsV1, {}, options);
  }

  /** GET /api/2/audits/: one page of audit items of every action type (admins with all-projects access). */
  list(query?: AuditQuery, options?: CallOptions): Promise<MobileAuditPage> {
    return this.#list('listAudits', query, options);
  }

  /** GET /api/2/audits/: every audit item matching the filter, page after page. */
  iterate(
    filter?: MobileAuditFilter,
    options?: MobileIterateOptions,
  ): AsyncGenerator<MobileAudit, void, undefined> {
    return this.#iterate('listAudits', filter, options);
  }

  /** GET /api/2/audits/admin-trail/: one page of security, integration, team and webhook changes. */
  listAdminTrail(query?: AuditQuery, options?: CallOptions): Promise<MobileAuditPage> {
    return this.#list('listAdminTrail', query, options);
  }

  /** GET /api/2/audits/admin-trail/: the whole admin trail matching the filter, page after page. */
  iterateAdminTrail(
    filter?: MobileAuditFilter,
    options?: MobileIterateOptions,
  ): AsyncGenerator<MobileAudit, void, undefined> {
    return this.#iterate('listAdminTrail', filter, options);
  }

  /** GET /api/2/audits/tester-trail/: one page of invitations, deletions, group and distribution changes. */
  listTesterTrail(query?: AuditQuery, options?: CallOptions): Promise<MobileAuditPage> {
    return this.#list('listTesterTrail', query, options);
  }

  /** GET /api/2/audits/tester-trail/: the whole tester trail matching the filter, page after page. */
  iterateTesterTrail(
    filter?: MobileAuditFilter,
    options?: MobileIterateOptions,
  ): AsyncGenerator<MobileAudit, void, undefined> {
    return this.#iterate('listTesterTrail', filter, options);
  }

  // Async, so that a date the filter cannot send rejects rather than throws.
  async #list(
    trail: Trail,
    query: AuditQuery | undefined,
    options: CallOptions | undefined,
  ): Promise<MobileAuditPage> {
    return this.call(AUDITS[trail], { query: auditQuery(query) }, options);
  }

  #iterate(trail: Trail, filter: MobileAuditFilter | undefined, options: MobileIterateOptions | undefined) {
    return this.everyItem(trailPages(trail), {}, options, (page) => auditQuery({ ...filter, ...page }));
  }
}

function auditQuery(query: AuditQuery | undefined): Record<string, QueryValue> {
  return {
    site: query?.site,
    action_type: query?.actionType,
    start_date: query?.startDate === undefined ? undefined : mobileAuditDate(query.startDate, 'startDate'),
    end_date: query?.endDate === undefined ? undefined : mobileAuditDate(query.endDate, 'endDate'),
    ...pageQuery(query),
  };
}

/** The service takes dates as YYYY-MM-DD; a Date is read in UTC. */
export function mobileAuditDate(value: string | Date, name = 'date'): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError(`${name} is not a valid date`);
    return value.toISOString().slice(0, 10);
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new TypeError(`${name} must be a date written YYYY-MM-DD, got ${JSON.stringify(value)}`);
  }
  return value;
}
