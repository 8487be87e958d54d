/**
 * What the parts of the mobile store share: one data object, its id counters, the clock and the
 * notice of a change.
 */
import { randomBytes } from 'node:crypto';
import type { StoreEnvironment } from '../../store-environment.ts';
import type { MobileData } from '../model.ts';

export class MobileState {
  readonly data: MobileData;
  readonly #env: Pick<StoreEnvironment, 'now' | 'changed'>;

  constructor(env: Pick<StoreEnvironment, 'now' | 'changed'>, data: MobileData) {
    this.#env = env;
    this.data = data;
  }

  now(): number {
    return this.#env.now();
  }

  changed(): void {
    this.#env.changed();
  }

  nextId(kind: keyof MobileData['nextId']): number {
    return this.data.nextId[kind]++;
  }
}

/** The public code of a landing page, a direct download or one tester's invitation. */
export function newPublicCode(): string {
  return randomBytes(12).toString('hex');
}
