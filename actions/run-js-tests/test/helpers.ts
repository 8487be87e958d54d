/**
 * What the tests of run-js-tests' `run` share: emulators and a folder for each file, clients with
 * quick retries, the inputs and deps of a run, the emulator's journal and faults, and the results
 * file.
 */
import { NO_HISTORY } from '@sauce-actions/action-kit/inputs/history-inputs';
import { mkdtempSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { testStepDeps, type TestStepDeps } from '@sauce-actions/action-kit/testing';
import { SauceClient } from '@sauce-actions/api';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { afterAll } from 'vitest';
import { emulatorsForFile, type FileFixture, type RunningFor } from '../../../test/support/emulators.ts';

export { addFault, journal } from '../../../test/support/emulators.ts';
import type { JsTestsInputs } from '../src/inputs.ts';
import type { JsTestsDeps } from '../src/run.ts';

/** Clients made by `clientOf`, to close after the tests: files that share a worker share this module. */
const clients: SauceClient[] = [];

export function clientOf(target: RunningEmulator, accessKey = 'demo-access-key'): SauceClient {
  const client = new SauceClient({
    region: 'us-west-1',
    apiUrl: target.url,
    username: 'demo',
    accessKey,
    // Quick retries keep the fault tests short.
    retry: { minDelayMs: 5, maxDelayMs: 20 },
  });
  clients.push(client);
  return client;
}

export type Deps = TestStepDeps & JsTestsDeps;

/**
 * For the tests of one file: an emulator for each job duration given, and a folder for the file's
 * results files (`dir`), removed after the tests with the clients. Gives `inputs`, those of a run on two
 * platforms against the first emulator, and `deps`, the step's deps with a results file of their
 * own in the folder and the client given (real by default).
 */
export function withEmulators<const Durations extends readonly number[]>(
  jobDurationsMs: Durations,
  use: Pick<FileFixture<RunningFor<Durations>>, 'started'>,
): {
  inputs: (overrides?: Partial<JsTestsInputs>) => JsTestsInputs;
  deps: (client: JsTestsDeps['client'], overrides?: Partial<TestStepDeps>) => Deps;
  /** The file's folder, made as the file is collected. */
  dir: string;
} {
  let first: RunningEmulator | undefined;
  emulatorsForFile(
    jobDurationsMs.map((jobDurationMs) => ({ jobDurationMs })),
    (emulators) => {
      first = emulators[0];
      use.started(emulators as RunningFor<Durations>);
    },
  );
  const dir = mkdtempSync(path.join(os.tmpdir(), 'run-js-tests-'));
  afterAll(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await rm(dir, { recursive: true, force: true });
  });
  return {
    inputs: (overrides = {}) => runInputs(first!, overrides),
    deps: (client, overrides = {}) => runDeps(dir, client, overrides),
    dir,
  };
}

export function runInputs(emulator: RunningEmulator, overrides: Partial<JsTestsInputs>): JsTestsInputs {
  return {
    connection: {
      service: 'sauce',
      region: 'us-west-1',
      apiUrl: emulator.url,
      username: 'demo',
      accessKey: 'demo-access-key',
    },
    operation: 'run',
    prComment: false,
    history: NO_HISTORY,
    url: 'https://example.com/tests.html',
    framework: 'custom',
    platforms: [
      ['Windows 11', 'chrome', 'latest'],
      ['Linux', 'firefox', '126'],
    ],
    tags: [],
    capabilities: {},
    failOnFailure: true,
    retries: 0,
    timeoutMs: 60_000,
    pollIntervalMs: 100,
    ...overrides,
  };
}

/** Step deps with a results file of its own in the test folder, and a client (real by default). */
function runDeps(dir: string, client: JsTestsDeps['client'], overrides: Partial<TestStepDeps>): Deps {
  return {
    ...testStepDeps({
      tempDir: dir,
      workflow: { step: `step-${Math.random().toString(36).slice(2)}` },
      ...overrides,
    }),
    client,
  };
}

export interface ResultsFile {
  outcome: string;
  stoppedJobs: string[];
  platforms: {
    name: string;
    platform: string[];
    jobId: string | null;
    jobUrl: string | null;
    status: string;
    counts: { passed: number; failed: number; total: number } | null;
    detail: string | null;
    result: { tests?: unknown[] } | null;
    flaky: boolean;
    attempts: { status: string; jobId: string | null }[];
  }[];
}

export async function resultsOf(file: string): Promise<ResultsFile> {
  return JSON.parse(await readFile(file, 'utf8')) as ResultsFile;
}
