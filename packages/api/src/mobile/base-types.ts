/** What every mobile distribution answer shares: its status, pagination, and the names of platforms and landing-page modes. */
import type { PageInfo } from '../core/resources/pagination.ts';

/** Every success body carries `status: 'ok'`; a failure carries `status: 'fail'`. */
export interface MobileStatusResult {
  status: string;
}

/** Pagination object of v2 lists and v1 group sub-lists. */
export type MobilePagination = PageInfo;

/** A paginated answer: the page's items under `key`, with the pagination object. */
export type MobilePage<K extends string, T> = MobileStatusResult & { pagination: MobilePagination } & {
  [P in K]: T[];
};

/** Page selection of the paginated lists (page numbering starts at 1). */
export interface MobilePageParams {
  page?: number;
  perPage?: number;
}

export type MobilePlatform = 'Android' | 'iOS';
export type MobileLandingPageMode = 'open' | 'closed' | 'closed-beta';
