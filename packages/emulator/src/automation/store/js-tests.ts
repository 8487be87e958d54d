/** JS unit tests: each one is a page on a platform, run by one simulated job. */
import type { StoreState } from '../../shared/store-state.ts';
import type { AutomationData, JsTestRecord } from '../model.ts';

export class JsTests {
  readonly #state: StoreState<AutomationData>;

  constructor(state: StoreState<AutomationData>) {
    this.#state = state;
  }

  add(record: JsTestRecord): void {
    this.#state.data.jsTests[record.id] = record;
    this.#state.changed();
  }

  get(id: string): JsTestRecord | undefined {
    const { jsTests } = this.#state.data;
    return Object.hasOwn(jsTests, id) ? jsTests[id] : undefined;
  }
}
