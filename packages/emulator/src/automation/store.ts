import type { EmulatorContext } from '../context.ts';
import type { AutomationSeed } from './seed.ts';

/** Plain, JSON-serialisable state of the automation interface. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AutomationData {}

/** What another interface (AI authoring runs, JS unit tests) gives to create a simulated job. */
export interface NewJobInput {
  name: string;
  /** Build name the job belongs to (the run's build). */
  build: string;
  browser: string;
  browserVersion?: string;
  os: string;
  /** Whether the simulated job ends passed (true) or failed (false). */
  passes: boolean;
  /** Account username owning the job; default the seed's first user. */
  owner?: string;
  tags?: string[];
  tunnelIdentifier?: string | null;
  customData?: Record<string, unknown>;
  automationBackend?: string;
}

export class AutomationStore {
  readonly ctx: EmulatorContext;
  readonly data: AutomationData;

  constructor(ctx: EmulatorContext, data: AutomationData) {
    this.ctx = ctx;
    this.data = data;
  }

  static initialData(_seed: AutomationSeed, _ctx: EmulatorContext): AutomationData {
    return {};
  }

  /** Whether username and access key belong to an account (automation and AI authoring share accounts). */
  verifyUser(_username: string, _accessKey: string): boolean {
    throw new Error('not implemented yet');
  }

  /** Creates a simulated job that moves through queued, in progress and its end over the job duration. */
  createJob(_input: NewJobInput): { id: string } {
    throw new Error('not implemented yet');
  }

  /** Whether the user has a running tunnel with this `tunnel_identifier`. */
  hasRunningTunnel(_owner: string, _tunnelIdentifier: string): boolean {
    throw new Error('not implemented yet');
  }
}
