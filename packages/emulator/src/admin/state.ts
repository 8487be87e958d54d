/** What the admin endpoints control beside the stores: fault rules, the journal, rate windows. */
import { FaultRules } from './faults.ts';
import { Journal } from './journal.ts';
import { RateLimiter } from './rate-limit.ts';

export class AdminState {
  readonly faults = new FaultRules();
  readonly journal = new Journal();
  readonly rateLimiter: RateLimiter | undefined;

  constructor(rateLimit: number) {
    this.rateLimiter = rateLimit > 0 ? new RateLimiter(rateLimit) : undefined;
  }
}

const ADMIN_PREFIX = '/_emulator/';

export function isAdminPath(url: string): boolean {
  return url.startsWith(ADMIN_PREFIX) || url === '/_emulator';
}
