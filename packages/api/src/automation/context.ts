/** What every resource group of the automation interface shares, and the path helpers they use. */
import { Resource, type PathValue } from '../core/resources/resource.ts';
import type { HttpTransport } from '../core/transport/transport.ts';
import type { AutomationTime } from './types.ts';

export interface AutomationContext {
  readonly http: HttpTransport;
  /** The account every `:username` path names unless a call gives another. */
  readonly username: string;
}

/** Prefix of every operation of this interface. */
export const REST = '/rest/v1';

/**
 * A resource group of the automation interface: its paths below `/rest/v1`, where a
 * `{username}` the call leaves out is the client's account.
 */
export abstract class AutomationResource extends Resource {
  readonly #ctx: AutomationContext;

  constructor(ctx: AutomationContext) {
    super(ctx, REST);
    this.#ctx = ctx;
  }

  protected override pathValue(name: string, value: PathValue): string | number {
    if (name !== 'username') return super.pathValue(name, value);
    const username = value ?? this.#ctx.username;
    if (username === '')
      throw new TypeError('no username: configure the client with one or pass it to the call');
    return username;
  }
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
