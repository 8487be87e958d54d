/**
 * The emulator's state: one store per interface, each holding plain JSON-serialisable data so
 * that `--data-dir` can keep it across restarts and `reset` can rebuild it from the seed.
 */
import { AuthoringStore, type AuthoringData } from './authoring/store.ts';
import { AutomationStore, type AutomationData } from './automation/store.ts';
import { MobileStore, type MobileData } from './mobile/store.ts';
import type { Seed } from './seed.ts';
import type { StoreEnvironment } from './store-environment.ts';

export interface ResolvedOptions {
  host: string;
  port: number;
  /** How long a simulated job takes from creation to its end. */
  jobDurationMs: number;
  /** Requests a second per account; 0 disables the limit. */
  rateLimit: number;
  /** Where state and files are kept across restarts; undefined keeps them in a temporary folder. */
  dataDir: string | undefined;
  /** Milliseconds since the epoch: every time the emulator reads (job states, retention, journal). */
  clock: () => number;
}

export interface Snapshot {
  automation: AutomationData;
  authoring: AuthoringData;
  mobile: MobileData;
}

export class EmulatorContext {
  readonly options: ResolvedOptions;
  readonly seed: Seed;
  /** Folder for uploaded builds, stored files and job assets. */
  readonly filesDir: string;
  automation!: AutomationStore;
  authoring!: AuthoringStore;
  mobile!: MobileStore;
  /** Called after every change of state (the data-dir persistence hooks in here). */
  onChange: () => void = () => {};

  constructor(options: ResolvedOptions, seed: Seed, filesDir: string, snapshot?: Snapshot) {
    this.options = options;
    this.seed = seed;
    this.filesDir = filesDir;
    this.load(snapshot);
  }

  /** Milliseconds since the epoch, from the clock option: tests move time forward through it. */
  now(): number {
    return this.options.clock();
  }

  /** Rebuilds every store from a snapshot, or from the seed when there is none. */
  load(snapshot?: Snapshot): void {
    // Through the context, so that a clock or a change listener set after loading reaches the stores.
    const env: StoreEnvironment = {
      now: () => this.now(),
      changed: () => this.changed(),
      filesDir: this.filesDir,
    };
    this.automation = new AutomationStore(
      env,
      snapshot?.automation ?? AutomationStore.initialData(this.seed.automation, env),
      this.options.jobDurationMs,
    );
    this.authoring = new AuthoringStore(
      env,
      snapshot?.authoring ?? AuthoringStore.initialData(this.seed.authoring, env),
    );
    this.mobile = new MobileStore(env, snapshot?.mobile ?? MobileStore.initialData(this.seed.mobile, env));
  }

  snapshot(): Snapshot {
    return { automation: this.automation.data, authoring: this.authoring.data, mobile: this.mobile.data };
  }

  changed(): void {
    this.onChange();
  }
}
