/**
 * The emulator's state: one store per interface, each holding plain JSON-serialisable records so
 * that `--data-dir` can keep them across restarts and a reset can rebuild them from the seed. The
 * stores share the clock, the notice of a change and the files folder; the authoring one also
 * reaches the automation one's accounts, tunnels and jobs.
 */
import { mkdir, rm } from 'node:fs/promises';
import { AuthoringStore } from './authoring/store/index.ts';
import type { AuthoringData } from './authoring/model.ts';
import { seededAuthoringData } from './authoring/store/initial-data.ts';
import { AutomationStore } from './automation/store/index.ts';
import type { AutomationData } from './automation/model.ts';
import { seededAutomationData } from './automation/store/initial-data.ts';
import type { MobileData } from './mobile/model.ts';
import { MobileStore } from './mobile/store/index.ts';
import { seededMobileData } from './mobile/store/initial-data.ts';
import type { Seed } from './seed.ts';
import type { StoreEnvironment } from './shared/store-state.ts';

export interface Snapshot {
  automation: AutomationData;
  authoring: AuthoringData;
  mobile: MobileData;
}

interface StateOptions {
  seed: Seed;
  /** Folder for uploaded builds, stored files and job assets. */
  filesDir: string;
  /** How long a simulated job takes from creation to its end. */
  jobDurationMs: number;
  /** Milliseconds since the epoch: every time the emulator reads (job states, retention, journal). */
  clock: () => number;
  /** Records kept by `--data-dir`; without them the stores start from the seed. */
  snapshot?: Snapshot | undefined;
}

export class EmulatorState {
  readonly automation: AutomationStore;
  readonly authoring: AuthoringStore;
  readonly mobile: MobileStore;
  readonly #seed: Seed;
  readonly #env: StoreEnvironment;
  /** Milliseconds since the epoch, from the clock option: tests move time forward through it. */
  now: () => number;
  /** Called after every change of state (the data-dir persistence hooks in here). */
  onChange: () => void = () => {};

  constructor(options: StateOptions) {
    this.#seed = options.seed;
    this.now = options.clock;
    // Through this object, so that a clock or a change listener set later reaches the stores.
    this.#env = { now: () => this.now(), changed: () => this.onChange(), filesDir: options.filesDir };
    const data = options.snapshot ?? this.#seeded();
    this.automation = new AutomationStore(this.#env, data.automation, options.jobDurationMs);
    this.authoring = new AuthoringStore(this.#env, data.authoring, this.automation);
    this.mobile = new MobileStore(this.#env, data.mobile);
  }

  /** Back to the seed: every store, and the files folder emptied (the seed then writes its own). */
  async reset(): Promise<void> {
    await rm(this.#env.filesDir, { recursive: true, force: true });
    await mkdir(this.#env.filesDir, { recursive: true });
    const data = this.#seeded();
    this.automation.load(data.automation);
    this.authoring.load(data.authoring);
    this.mobile.load(data.mobile);
    this.onChange();
  }

  snapshot(): Snapshot {
    return { automation: this.automation.data, authoring: this.authoring.data, mobile: this.mobile.data };
  }

  /**
   * The credentials the emulator knows, which nothing it records may show; longest first, so
   * that a secret containing another is masked whole.
   */
  secrets(): string[] {
    return [...this.automation.accounts.secrets(), ...this.mobile.accounts.secrets()].sort(
      (a, b) => b.length - a.length,
    );
  }

  #seeded(): Snapshot {
    return {
      automation: seededAutomationData(this.#seed.automation, this.#env),
      authoring: seededAuthoringData(this.#seed.authoring, this.#env),
      mobile: seededMobileData(this.#seed.mobile, this.#env),
    };
  }
}
