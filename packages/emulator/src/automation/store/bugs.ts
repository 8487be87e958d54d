/** Bug records and the types they are of. */
import type { StoreState } from '../../shared/store-state.ts';
import { unixSeconds, type AutomationData, type BugRecord, type BugTypeRecord } from '../model.ts';

export class Bugs {
  readonly #state: StoreState<AutomationData>;

  constructor(state: StoreState<AutomationData>) {
    this.#state = state;
  }

  types(): BugTypeRecord[] {
    return this.#state.data.bugTypes;
  }

  get(id: string): BugRecord | undefined {
    const { bugs } = this.#state.data;
    return Object.hasOwn(bugs, id) ? bugs[id] : undefined;
  }

  update(id: string, properties: Record<string, string>): BugRecord {
    const bug = this.get(id);
    if (!bug) throw new Error(`no bug ${id}`);
    Object.assign(bug.properties, properties);
    bug.modificationTime = unixSeconds(this.#state.now());
    this.#state.changed();
    return bug;
  }
}
