/**
 * The times of jobs and tunnels as the service gives them (Unix seconds). They order and date
 * what is shown, nothing more: one in another form (text, null, negative, far past or future)
 * reads as unknown (`null`) rather than failing the answer that carries it.
 */
import { parseServiceTime } from '../core/values/service-time.ts';

/** 2000-01-01 and 9999-12-31, in Unix seconds: a time outside them is no time of the service's. */
const EARLIEST = 946_684_800;
const LATEST = 253_402_300_799;

/** A service time as Unix seconds, or null when it is not one (text that is no date, null, out of range). */
export function serviceTime(value: unknown): number | null {
  // Seconds written as text are seconds; any other form is read as the client reads every service time.
  const text = typeof value === 'string' ? value.trim() : undefined;
  const ms = parseServiceTime(text !== undefined && /^\d+(\.\d+)?$/.test(text) ? Number(text) : value);
  const seconds = ms === undefined ? NaN : ms / 1000;
  return seconds >= EARLIEST && seconds <= LATEST ? seconds : null;
}

/** `item` with each of `fields` read as a service time; other fields untouched. */
export function withServiceTimes<T extends object>(item: T, fields: readonly string[]): T {
  const record = item as Record<string, unknown>;
  const times = Object.fromEntries(
    fields.filter((field) => field in record).map((field) => [field, serviceTime(record[field])]),
  );
  return { ...item, ...times };
}

/** The times of a job. */
export const JOB_TIMES = ['creation_time', 'start_time', 'end_time', 'modification_time'] as const;
/** The times of a tunnel. */
export const TUNNEL_TIMES = ['creation_time', 'launch_time', 'last_connected', 'shutdown_time'] as const;
