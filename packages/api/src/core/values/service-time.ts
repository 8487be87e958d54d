/**
 * Times as the services write them, read into instants before anything compares them. As text
 * they order only in one fixed form: an offset (`+02:00`), a `T` in place of the space, an hour
 * of one digit or another year's offset puts an older time after a newer one. Mobile
 * distribution documents `YYYY-MM-DD HH:MM:SS` (taken as UTC, as the service writes it); ISO 8601
 * with a `T`, fractions of a second and an offset or `Z` is read as well, and a number as Unix
 * seconds (or milliseconds, when it is too large for seconds). Anything else is no time at all:
 * the caller says so rather than guess an order.
 */

/** The forms read, in words for messages. */
export const SERVICE_TIME_FORMS = '`YYYY-MM-DD HH:MM:SS` (UTC) or ISO 8601';

const TIME_FORM =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:T|t|\s+)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/;

/** Below this a number counts as seconds (up to the year 5138), above it as milliseconds. */
const SECONDS_BELOW = 1e11;

/** The instant of a service's time, in milliseconds since the epoch; `undefined` when it is none. */
export function parseServiceTime(value: unknown): number | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    return value < SECONDS_BELOW ? value * 1000 : value;
  }
  if (typeof value !== 'string') return undefined;
  const match = TIME_FORM.exec(value.trim());
  if (!match) return undefined;
  const fields = match.slice(1, 7).map((part) => Number(part ?? '0'));
  const [y, mo, d, h, mi, s] = fields as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  const fraction = match[7] !== undefined ? Number(`0.${match[7]}`) * 1000 : 0;
  const local = Date.UTC(y, mo - 1, d, h, mi, s) + fraction;
  // Date.UTC rolls 31 April over into May: a day the month does not have is no time.
  if (new Date(local).getUTCDate() !== d) return undefined;
  const offset = offsetMinutes(match[8]);
  if (offset === undefined) return undefined;
  return local - offset * 60_000;
}

/** `+02:00`, `+0200` and `+02` in minutes east of UTC; none, `Z`, `UTC` and `GMT` are 0. */
function offsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || /^(?:Z|UTC|GMT)$/i.test(zone)) return 0;
  const match = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone);
  if (!match) return undefined;
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? '0');
  if (hours > 14 || minutes > 59) return undefined;
  return (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}
