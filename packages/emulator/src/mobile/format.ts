/** Formats shared by the mobile views: timestamps, lists in fields and pagination. */
import { invalid } from './errors.ts';

/** `YYYY-MM-DD HH:MM:SS` in UTC, the service's timestamp form. */
export function timestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** Splits a comma-separated field, dropping blanks. */
export function commaList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const text = Array.isArray(value) ? value.join(',') : String(value);
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** `on`, `1`, `true` (any case) count as on. */
export function isOn(value: unknown): boolean {
  return typeof value === 'string' && ['on', '1', 'true', 'yes'].includes(value.trim().toLowerCase());
}

interface Pagination {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
}

function positiveInt(name: string, value: unknown, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const text = String(value);
  if (!/^\d+$/.test(text) || Number(text) < 1) throw invalid(name, 'must be a positive integer');
  return Number(text);
}

/**
 * One page of a list. A per_page above the maximum is lowered to it rather than refused: the
 * seed states a maximum, not an error, and lenient clamping is what paginated services usually do.
 */
export function paginate<T>(
  items: readonly T[],
  query: Record<string, unknown>,
  defaultPerPage: number,
  maxPerPage: number,
): { items: T[]; pagination: Pagination } {
  const page = positiveInt('page', query.page, 1);
  const perPage = Math.min(positiveInt('per_page', query.per_page, defaultPerPage), maxPerPage);
  const start = (page - 1) * perPage;
  return {
    items: items.slice(start, start + perPage),
    pagination: {
      page,
      per_page: perPage,
      total: items.length,
      total_pages: Math.ceil(items.length / perPage),
    },
  };
}

/** An integer path parameter. */
export function idParam(name: string, value: unknown): number {
  const text = String(value ?? '');
  if (!/^\d+$/.test(text)) throw invalid(name, 'must be an integer');
  return Number(text);
}
