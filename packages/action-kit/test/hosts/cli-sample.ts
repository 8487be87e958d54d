/**
 * What the tests of the command line's host share: a terminal whose output they read, in a working
 * folder of its own for each test, and a sample action with inputs of every kind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { actionMetadata } from '../../src/hosts/action-metadata.ts';
import type { ActionModule, CliCommand } from '../../src/hosts/cli-command.ts';
import type { CliIo } from '../../src/hosts/cli-host.ts';
import {
  clearSecrets,
  readSauceConnection,
  type ActionDefinition,
  type InputReader,
  type SauceConnection,
} from '../../src/index.ts';

/**
 * What the host prints, line by line, to standard output and standard error, and its terminal: the
 * demo account's credentials in the environment, and a new working folder (`io.cwd`, named from
 * `prefix`) for each test, removed after it. Secrets registered before are forgotten.
 */
export function useCliTerminal(prefix: string): { out: string[]; err: string[]; io: CliIo } {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    env: {},
    cwd: '',
  };

  beforeEach(() => {
    clearSecrets();
    out.length = 0;
    err.length = 0;
    io.env = { SAUCE_USERNAME: 'demo', SAUCE_ACCESS_KEY: 'the-access-key' };
    io.cwd = mkdtempSync(path.join(os.tmpdir(), prefix));
  });

  afterEach(() => rmSync(io.cwd, { recursive: true, force: true }));

  return { out, err, io };
}

/** The sample action's `action.yml`: inputs with and without defaults, one a workflow expression. */
export const METADATA = actionMetadata({
  name: 'Sample',
  description: 'Does a sample thing. Then more.',
  inputs: {
    name: { description: 'A name.' },
    mode: { description: '`fast` or `slow`.', default: 'fast' },
    items: { description: 'Items, separated by commas or newlines.' },
    count: { description: 'A count.', default: 3 },
    token: { description: 'A token.', default: '${{ github.token }}' },
    username: { description: 'User.' },
    'access-key': { description: 'Key.' },
    'api-url': { description: 'Address.' },
  },
  outputs: { greeting: { description: 'The greeting.' }, total: { description: 'A count.' } },
});

export interface Inputs {
  connection: SauceConnection;
  name: string | undefined;
  mode: string;
  items: string[];
  count: number | undefined;
  token: string | undefined;
}

export const readInputs = (read: InputReader): Inputs => ({
  connection: readSauceConnection(read),
  name: read.string('name'),
  mode: read.enum('mode', ['fast', 'slow']) ?? 'none',
  items: read.list('items'),
  count: read.integer('count'),
  token: read.string('token'),
});

/** The sample action as the command `sample`, loading `module`. */
export function command(module: ActionModule, extra: Partial<CliCommand> = {}): CliCommand {
  return { name: 'sample', metadata: METADATA, load: async () => module, ...extra };
}

/** The sample action, reading every input, with `run`. */
export function action(run: ActionDefinition<Inputs>['run']): ActionDefinition {
  return { title: 'Sample', readInputs, run } as ActionDefinition;
}
