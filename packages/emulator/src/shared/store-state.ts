/**
 * What a store takes from the emulator, in place of the whole state: the clock, the notice of a
 * change (which the data-dir persistence listens to) and the folder of stored files; and what the
 * parts of one store share on top of it, its records.
 */

export interface StoreEnvironment {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Called after every change of state. */
  changed(): void;
  /** Folder for uploaded builds, stored files and job assets. */
  readonly filesDir: string;
}

/**
 * The records of one store, plain JSON so that `--data-dir` can keep them, with the environment.
 * A reset replaces the records whole; the parts read them through here, so none holds old ones.
 */
export class StoreState<Data> {
  data: Data;
  readonly #env: StoreEnvironment;

  constructor(env: StoreEnvironment, data: Data) {
    this.#env = env;
    this.data = data;
  }

  now(): number {
    return this.#env.now();
  }

  changed(): void {
    this.#env.changed();
  }

  get filesDir(): string {
    return this.#env.filesDir;
  }
}

/**
 * A store of one interface, over the state its parts share: what the emulator reads of it (the
 * records, for the snapshot and the dashboard; the time the records are read at) and its reset.
 */
export abstract class Store<Data, State extends StoreState<Data> = StoreState<Data>> {
  protected readonly state: State;

  constructor(state: State) {
    this.state = state;
  }

  /** The records themselves, for the snapshot, for reads that need no rule and for tests. */
  get data(): Data {
    return this.state.data;
  }

  /** Milliseconds since the epoch: job states and schedules' next runs are reckoned from it. */
  now(): number {
    return this.state.now();
  }

  /** Replaces every record (a reset to the seed). */
  load(data: Data): void {
    this.state.data = data;
  }
}
