/** Filtering and offset paging shared by the three lists. */

/**
 * Seed 000 shows neither a default nor a maximum for `limit`, and counts among its 400s only
 * invalid query parameters: a `limit` that is a whole number of 0 or more is valid, however large.
 * A page holds 25 items unless `limit` says otherwise, and at most 1,000, as the job list of the
 * automation interface: a larger `limit` is served as 1,000, not refused, as the mobile interface
 * serves a `per_page` over its maximum (seed 001). Every answer carries `total`, so a client that
 * paginates by `skip` and `total` reads the short page as what it is, not as the last one.
 */
const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 1000;

export interface CommonListQuery {
  search?: string;
  startDate?: string;
  endDate?: string;
  userId?: string;
  teamId?: string;
  skip?: number;
  limit?: number;
}

interface Listable {
  id: string;
  name: string;
  creationDate: string;
  creatorUserId: string;
  teamId: string;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A date-only end bound covers its whole day, so that `endDate=2026-01-05` includes cases made that day. */
function endBound(endDate: string): number {
  const parsed = Date.parse(endDate);
  return DATE_ONLY.test(endDate) ? parsed + DAY_MS - 1 : parsed;
}

/** Applies search, creation date bounds (inclusive), creator and team, newest first. */
export function filterCommon<T extends Listable>(items: readonly T[], query: CommonListQuery): T[] {
  const search = query.search?.toLowerCase();
  const from = query.startDate === undefined ? undefined : Date.parse(query.startDate);
  const to = query.endDate === undefined ? undefined : endBound(query.endDate);
  const userId = query.userId?.toLowerCase();
  const teamId = query.teamId?.toLowerCase();
  return (
    items
      .filter((item) => {
        const created = Date.parse(item.creationDate);
        if (search && !item.name.toLowerCase().includes(search)) return false;
        if (from !== undefined && created < from) return false;
        if (to !== undefined && created > to) return false;
        if (userId && item.creatorUserId.toLowerCase() !== userId) return false;
        if (teamId && item.teamId.toLowerCase() !== teamId) return false;
        return true;
      })
      // As instants: a seed's times may carry offsets, which order wrongly as text.
      .sort((a, b) => instant(b.creationDate) - instant(a.creationDate) || a.id.localeCompare(b.id))
  );
}

/** A time's instant; one that is none sorts last. */
function instant(time: string): number {
  const parsed = Date.parse(time);
  return Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed;
}

/** One page: `limit` 0 answers only the total; a `limit` over the maximum is lowered to it. */
export function pageOf<T>(items: readonly T[], query: CommonListQuery): { items: T[]; total: number } {
  const skip = query.skip ?? 0;
  const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  return { items: items.slice(skip, skip + limit), total: items.length };
}
