/** What every resource group of the automation interface shares, and the path helpers they use. */
import { checkAnswer, type Shape } from '../core/shape.ts';
import { segment, type HttpTransport, type RequestSpec } from '../core/transport.ts';
import type { AutomationTime } from './types.ts';

export interface AutomationContext {
  readonly http: HttpTransport;
  /** The account every `:username` path names unless a call gives another. */
  readonly username: string;
}

/** Prefix of every operation of this interface. */
export const REST = '/rest/v1';

/** Sends a request and returns its answer, after checking the fields `shape` names (the ones callers read). */
export async function sendChecked<T>(ctx: AutomationContext, spec: RequestSpec, shape: Shape): Promise<T> {
  const { body } = await ctx.http.send<unknown>(spec);
  return checkAnswer<T>(spec, body, shape);
}

/** The encoded `:username` segment: the call's account, else the client's. */
export function account(ctx: AutomationContext, username: string | undefined): string {
  const name = username ?? ctx.username;
  if (name === '') throw new TypeError('no username: configure the client with one or pass it to the call');
  return segment(name);
}

/** Unix seconds, as the interface's `from` and `to` expect. */
export function epochSeconds(time: AutomationTime): number {
  const ms = time instanceof Date ? time.getTime() : time * 1000;
  if (!Number.isFinite(ms)) throw new TypeError('a time is not a valid date');
  return Math.floor(ms / 1000);
}

/** `YYYY-MM-DD` in UTC, as the usage operation's dates are given. */
export function isoDate(date: Date | string): string {
  if (typeof date === 'string') return date;
  if (!Number.isFinite(date.getTime())) throw new TypeError('a date is not valid');
  return date.toISOString().slice(0, 10);
}
