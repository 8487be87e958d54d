/** What every part of the authoring store holds: the store's records and clock. */
import type { StoreState } from '../../shared/store-state.ts';
import type { AuthoringData } from '../model.ts';

export abstract class AuthoringPart {
  protected readonly state: StoreState<AuthoringData>;

  constructor(state: StoreState<AuthoringData>) {
    this.state = state;
  }

  /** The time now, as the records keep it (ISO 8601). */
  protected nowIso(): string {
    return new Date(this.state.now()).toISOString();
  }
}
