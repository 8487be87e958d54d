/**
 * What the parts of the mobile store share beyond the records, the clock and the notice of a
 * change: the id counters.
 */
import { randomBytes } from 'node:crypto';
import { StoreState } from '../../shared/store-state.ts';
import type { MobileData } from '../model.ts';

export class MobileState extends StoreState<MobileData> {
  nextId(kind: keyof MobileData['nextId']): number {
    return this.data.nextId[kind]++;
  }
}

/** The public code of a landing page, a direct download or one tester's invitation. */
export function newPublicCode(): string {
  return randomBytes(12).toString('hex');
}
