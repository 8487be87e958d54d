/** What the command line knows of an action before loading it, and what loading it gives. */
import type { ActionMetadata } from './action-metadata.ts';
import type { ActionDefinition, PostDefinition } from './deps.ts';

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
