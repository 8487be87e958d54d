/** What the command line knows of an action before loading it, what loading it gives, and where it writes. */
import type { ActionDefinition, PostDefinition } from '../deps.ts';
import type { ActionMetadata } from './action-metadata.ts';

/** An action's code: the same definitions its GitHub entry hands to the runner's host. */
export interface ActionModule {
  action: ActionDefinition;
  post?: PostDefinition;
}

export interface CliCommand {
  /** The subcommand: the action's folder name, `upload-build`. */
  name: string;
  /** Its `action.yml`, embedded: help, flags and defaults need no loading. */
  metadata: ActionMetadata;
  /** Loads the action's code, only for the subcommand that runs. */
  load(): Promise<ActionModule>;
  /**
   * Whether a successful run that leaves something for its post step (a Sauce Connect it
   * started) keeps the command in the foreground until SIGINT or SIGTERM, then cleans up; without
   * it the cleanup follows at once, as at the end of a job.
   */
  holdsWhatItStarted?: boolean;
}

/** Where the command line writes and what it runs in: the process's, or a test's own. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  /** Where relative paths start. */
  cwd: string;
}

export const EXIT_DONE = 0;
/** The work failed: a test failed, the service refused, a timeout, a cancel. */
export const EXIT_FAILED = 1;
/** Bad input or usage: nothing was sent. */
export const EXIT_USAGE = 2;
