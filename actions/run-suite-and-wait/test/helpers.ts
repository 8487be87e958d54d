/** What the tests of run-suite-and-wait share: the emulator's journal, faults and connection, and deps with a real client. */
import path from 'node:path';
import type { SauceConnection } from '@sauce-actions/action-kit';
import { testStepDeps, type TestStepDeps } from '@sauce-actions/action-kit/testing';
import { SauceClient } from '@sauce-actions/api';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { expect } from 'vitest';
import { DEFAULT_MAX_ASSETS_BYTES, type SuiteInputs } from '../src/inputs.ts';
import type { SuiteDeps } from '../src/run.ts';

export interface JournalEntry {
  method: string;
  path: string;
  status: number;
}

export async function journal(emulator: RunningEmulator): Promise<JournalEntry[]> {
  const answer = await fetch(`${emulator.url}/_emulator/requests`);
  return ((await answer.json()) as { requests: JournalEntry[] }).requests;
}

export function connection(emulator: RunningEmulator): SauceConnection {
  return {
    service: 'sauce',
    region: 'us-west-1',
    apiUrl: emulator.url,
    username: 'demo',
    accessKey: 'demo-access-key',
  };
}

export async function addFault(emulator: RunningEmulator, rule: Record<string, unknown>): Promise<void> {
  const answer = await fetch(`${emulator.url}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
  expect(answer.ok).toBe(true);
}

/**
 * Inputs of a run against the emulator: short polls, and the defaults of action.yml but for
 * `rerun-failed`, off, since most tests run as attempt 2 of a workflow run that had no attempt 1;
 * the tests of re-runs turn it on.
 */
export function suiteInputs(emulator: RunningEmulator, overrides: Partial<SuiteInputs> = {}): SuiteInputs {
  return {
    connection: connection(emulator),
    operation: 'run',
    failOnFailure: true,
    stopOnCancel: true,
    downloadAssets: 'none',
    maxAssetsBytes: DEFAULT_MAX_ASSETS_BYTES,
    retries: 0,
    failFast: false,
    rerunFailed: false,
    pollIntervalMs: 100,
    timeoutMs: 30_000,
    prComment: false,
    ...overrides,
  };
}

/** Clients made by `clientFor`, to close after the tests. */
const clients: SauceClient[] = [];

/** Closes the clients made so far, each once: files that share a worker share this module. */
export async function closeClients(): Promise<void> {
  await Promise.all(clients.splice(0).map((client) => client.close()));
}

export function clientFor(emulator: RunningEmulator): SauceClient {
  const client = new SauceClient({
    region: 'us-west-1',
    apiUrl: emulator.url,
    username: 'demo',
    accessKey: 'demo-access-key',
  });
  clients.push(client);
  return client;
}

/** Deps with a real client, files under `folder`, and the workflow run 7, attempt 2 unless told. */
export function suiteDeps(
  emulator: RunningEmulator,
  folder: string,
  overrides: Parameters<typeof testStepDeps>[0] = {},
): TestStepDeps & SuiteDeps {
  return {
    ...testStepDeps({
      tempDir: path.join(folder, 'temp'),
      workspace: path.join(folder, 'workspace'),
      workflow: { runNumber: '7', runAttempt: '2', job: 'e2e' },
      ...overrides,
    }),
    client: clientFor(emulator),
  };
}

/** The ids of the test cases the journal shows run (`POST /testcases/{id}/run`), in order. */
export function casesRun(entries: readonly JournalEntry[]): string[] {
  return entries
    .filter((entry) => entry.method === 'POST' && /\/testcases\/[0-9a-f]{24}\/run$/.test(entry.path))
    .map((entry) => entry.path.split('/').at(-2) as string);
}

/** The deps with a client that calls `after` once each suite or case run has answered. */
export function afterEachRun(deps: TestStepDeps & SuiteDeps, after: () => void): TestStepDeps & SuiteDeps {
  const { testSuites, testCases } = deps.client.authoring;
  const ran = async <T>(answer: Promise<T>): Promise<T> => {
    const value = await answer;
    after();
    return value;
  };
  return {
    ...deps,
    client: {
      ...deps.client,
      jobUrl: (id) => deps.client.jobUrl(id),
      authoring: {
        testSuites: {
          get: testSuites.get.bind(testSuites),
          iterate: testSuites.iterate.bind(testSuites),
          run: (...args) => ran(testSuites.run(...args)),
        },
        testCases: {
          iterate: testCases.iterate.bind(testCases),
          run: (...args) => ran(testCases.run(...args)),
        },
      },
    },
  };
}
