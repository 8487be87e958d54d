/**
 * What the tests of run-suite-and-wait share: emulators and a folder for each file, the emulator's
 * journal, faults and connection, and deps with a real client, hooked where a test steps in.
 */
import { NO_HISTORY } from '@sauce-actions/action-kit/inputs/history-inputs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runToken, type SauceConnection, type WorkflowRun } from '@sauce-actions/action-kit';
import { testStepDeps, type TestStepDeps } from '@sauce-actions/action-kit/testing';
import { SauceClient } from '@sauce-actions/api';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, afterEach, beforeEach } from 'vitest';
import {
  emulatorsForFile,
  type FileFixture,
  type JournalEntry,
  type RunningFor,
} from '../../../test/support/emulators.ts';
import { DEFAULT_MAX_ASSETS_BYTES, type SuiteInputs } from '../src/inputs.ts';
import type { SuiteDeps } from '../src/run.ts';
import { seed } from './seed.ts';

export { addFault, journal, type JournalEntry } from '../../../test/support/emulators.ts';

/**
 * For the tests of one file: an emulator of the test seed for each job duration given, and a new
 * folder (named from `folderPrefix`) for each test, removed after it; the clients are closed after
 * the tests. Gives `depsFor`, the deps of `suiteDeps` with their files in the test's folder.
 */
export function withEmulators<const Durations extends readonly number[]>(
  jobDurationsMs: Durations,
  use: FileFixture<RunningFor<Durations>>,
  folderPrefix = 'run-suite-and-wait-',
): { depsFor: (emulator: RunningEmulator, overrides?: StepOverrides) => TestStepDeps & SuiteDeps } {
  emulatorsForFile(
    jobDurationsMs.map((jobDurationMs) => ({ jobDurationMs, seed: seed() })),
    (emulators) => use.started(emulators as RunningFor<Durations>),
  );
  let folder = '';
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), folderPrefix));
    use.folder?.(folder);
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  afterAll(closeClients);
  return { depsFor: (emulator, overrides = {}) => suiteDeps(emulator, folder, overrides) };
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
    history: NO_HISTORY,
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

type StepOverrides = Parameters<typeof testStepDeps>[0];

/** The key of GitHub workflow run number `runNumber` of the tests' repository. */
function keyOf(runNumber: string): string {
  return `github:https://github.com/example/sauce-app/runs/${9000 + Number(runNumber)}`;
}

/** Attempt `runAttempt` of the tests' workflow run number `runNumber`, as the GitHub host reads it. */
export function workflowRun(
  runNumber: string,
  runAttempt: string,
  extra: Partial<WorkflowRun> = {},
): WorkflowRun {
  return { key: keyOf(runNumber), runNumber, runAttempt, ...extra };
}

/** The default build name of `label` in attempt `runAttempt` of run `runNumber` (see `workflowRun`). */
export function buildOf(label: string, runNumber: string, runAttempt: string): string {
  return `${label} #${runNumber}.${runAttempt} · ${runToken(keyOf(runNumber))}`;
}

/** Deps with a real client, files under `folder`, and the workflow run 7, attempt 2 unless told. */
export function suiteDeps(
  emulator: RunningEmulator,
  folder: string,
  overrides: StepOverrides = {},
): TestStepDeps & SuiteDeps {
  return {
    ...testStepDeps({
      tempDir: path.join(folder, 'temp'),
      workspace: path.join(folder, 'workspace'),
      workflow: workflowRun('7', '2', { job: 'e2e' }),
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

/** Builds of the jobs whose ids are given, as the service named them. */
export async function buildsOf(emulator: RunningEmulator, ids: readonly string[]): Promise<string[]> {
  const jobs = await clientFor(emulator).automation.jobs.list({ full: true, limit: 1000 });
  return jobs.filter((job) => ids.includes(job.id)).map((job) => job.build ?? '');
}

/** The deps' client, calling `afterRun` when a run answered, before the action sees the answer. */
export function hooked(
  deps: TestStepDeps & SuiteDeps,
  { afterRun }: { afterRun: () => void },
): TestStepDeps & SuiteDeps {
  const { authoring, automation, serviceClock } = deps.client;
  const ran =
    <A extends unknown[], T>(run: (...args: A) => Promise<T>) =>
    async (...args: A): Promise<T> => {
      const answer = await run(...args);
      afterRun();
      return answer;
    };
  const suites = authoring.testSuites;
  const cases = authoring.testCases;
  return {
    ...deps,
    client: {
      automation,
      serviceClock,
      jobUrl: (id) => deps.client.jobUrl(id),
      authoring: {
        testSuites: {
          get: suites.get.bind(suites),
          iterate: suites.iterate.bind(suites),
          run: ran(suites.run.bind(suites)),
        },
        testCases: { iterate: cases.iterate.bind(cases), run: ran(cases.run.bind(cases)) },
      },
    },
  };
}
