/**
 * What the tests of the history share: an emulator of the default seed for the file, nights of a
 * repository's scheduled workflow and runs of its pull requests as GitHub's runner describes them
 * (its `GITHUB_*` variables and event, read by the kit as the GitHub host reads them), the two
 * test actions run from their inputs as a host runs them, the outcomes each night scripts, and
 * what the results file says of each item's class.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  ciContextOf,
  InputReader,
  inputSource,
  runIdentityOf,
  wholeText,
  type ActionResult,
} from '@sauce-actions/action-kit';
import { testStepDeps, type TestStepDeps } from '@sauce-actions/action-kit/testing';
import type { TestRunOutputs } from '@sauce-actions/action-kit/test-run/results';
import { SauceClient } from '@sauce-actions/api';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, beforeAll, expect } from 'vitest';
import type { JsTestsClient } from '../../../actions/run-js-tests/src/batch.ts';
import { action as jsTests } from '../../../actions/run-js-tests/src/definition.ts';
import { action as suite } from '../../../actions/run-suite-and-wait/src/definition.ts';
import { emulatorsForFile, journal, type JournalEntry } from '../../support/emulators.ts';

export { journal, type JournalEntry };

/** A repository's workflow as GitHub names it. */
export interface Repository {
  slug: string;
  workflow: string;
}

export const APP: Repository = { slug: 'acme/app', workflow: '.github/workflows/nightly.yml' };
export const OTHER: Repository = { slug: 'acme/other', workflow: '.github/workflows/nightly.yml' };

/** One workflow run: a night on the default branch, or a pull request's run from `feature`. */
export interface GitHubRun {
  repository?: Repository;
  /** The run's number; its id is derived from it, so that each number is a run of its own. */
  number: number;
  pullRequest?: number;
  /** The branch pushed, when not a pull request's: `main` unless told. */
  branch?: string;
  /** The run's attempt: 1 unless told. */
  attempt?: number;
}

/** The run's `GITHUB_*` variables and event payload, as the runner gives them to a step. */
function githubRunner(run: GitHubRun): { env: Record<string, string>; event: unknown } {
  const repository = run.repository ?? APP;
  const [owner = '', name = ''] = repository.slug.split('/');
  const branch = run.pullRequest !== undefined ? 'feature' : (run.branch ?? 'main');
  const env: Record<string, string> = {
    GITHUB_ACTIONS: 'true',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: repository.slug,
    GITHUB_RUN_ID: String(runId(run.number, repository)),
    GITHUB_RUN_NUMBER: String(run.number),
    GITHUB_RUN_ATTEMPT: String(run.attempt ?? 1),
    GITHUB_WORKFLOW_REF: `${repository.slug}/${repository.workflow}@refs/heads/${branch}`,
    GITHUB_EVENT_NAME: run.pullRequest !== undefined ? 'pull_request' : 'schedule',
    GITHUB_REF_TYPE: 'branch',
    GITHUB_REF_NAME: run.pullRequest !== undefined ? `${run.pullRequest}/merge` : branch,
    GITHUB_SHA: 'a'.repeat(40),
    ...(run.pullRequest !== undefined ? { GITHUB_HEAD_REF: branch, GITHUB_BASE_REF: 'main' } : {}),
  };
  const event = {
    repository: { name, owner: { login: owner }, default_branch: 'main' },
    ...(run.pullRequest !== undefined
      ? {
          number: run.pullRequest,
          pull_request: { number: run.pullRequest, head: { ref: branch }, base: { ref: 'main' } },
        }
      : {}),
  };
  return { env, event };
}

/** How a scripted case ends on a night: each of its runs that night (a retry's too) ends so. */
export type Outcome = 'passed' | 'failed';

export interface HistoryLab {
  emulator: () => RunningEmulator;
  /** The repository's checkout, where a quarantine file is written. */
  workspace: () => string;
  /** Scripts how each case named ends tonight; a failed case fails its retry too. */
  script(outcomes: Record<string, Outcome>, retries: number): Promise<void>;
  writeQuarantine(text: string): Promise<string>;
  /** A night of run-suite-and-wait (or a pull request's run), from its inputs. */
  suiteRun(run: GitHubRun, inputs?: Record<string, string>): Promise<Step>;
  jsRun(run: GitHubRun, inputs: Record<string, string>, hooks?: JsHooks): Promise<Step>;
}

export interface JsHooks {
  /** Called once the service answered the start, with the test ids it gave. */
  started?: (emulator: RunningEmulator) => void;
}

/** The outputs of both actions: run-suite-and-wait's name the build too. */
export type StepOutputs = TestRunOutputs & { 'build-name'?: string };

export interface Step {
  result: ActionResult<StepOutputs>;
  deps: TestStepDeps;
  /** The summary as text. */
  summary: string;
  results: ResultsFile;
  /** The step's requests, from the emulator's journal. */
  requests: JournalEntry[];
}

export interface ClassedItem {
  name: string;
  class: string;
  outcome: string;
  comparedRuns: number;
  failedRuns: number;
  neverRun: boolean;
  quarantine?: { reason: string; mode: string };
}

export interface ResultsFile {
  history?: {
    off?: string;
    defaultBranch?: string;
    compared: { number?: string; attempt?: string; url?: string; anchor: string; builds: string[] }[];
    counts: Record<string, number>;
    items: ClassedItem[];
    skipped?: { name: string; reason: string }[];
  };
}

/** Each item's class in the results file, by name. */
export function classesOf(results: ResultsFile): Record<string, string> {
  return Object.fromEntries((results.history?.items ?? []).map((item) => [item.name, item.class]));
}

/** The web address of a run of the repository. */
export function runUrl(number: number, repository: Repository = APP): string {
  return `https://github.com/${repository.slug}/actions/runs/${runId(number, repository)}`;
}

/** A run's id: GitHub's ids are unique across repositories and workflows, its numbers are not. */
function runId(number: number, repository: Repository): number {
  const of = (text: string) => [...text].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 9973, 7);
  return 100_000 * (1 + of(`${repository.slug}/${repository.workflow}`)) + number;
}

const SAUCE = { username: 'demo', 'access-key': 'demo-access-key' };

/** For the tests of a file: an emulator of the default seed whose jobs last `jobDurationMs`. */
export function historyLab(jobDurationMs = 200): HistoryLab {
  let emulator: RunningEmulator | undefined;
  let client: SauceClient | undefined;
  let folder = '';
  let steps = 0;
  emulatorsForFile([{ jobDurationMs }], ([started]) => {
    emulator = started;
  });
  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'history-'));
    await mkdir(path.join(folder, 'workspace'));
    client = new SauceClient({
      region: 'us-west-1',
      apiUrl: emulator!.url,
      username: SAUCE.username,
      accessKey: SAUCE['access-key'],
    });
  });
  afterAll(async () => {
    await client?.close();
    await rm(folder, { recursive: true, force: true });
  });
  const admin = async (method: string, route: string, body?: unknown): Promise<void> => {
    const answer = await fetch(`${emulator!.url}/_emulator/${route}`, {
      method,
      ...(body !== undefined
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
        : {}),
    });
    expect(answer.ok, `${method} ${route}: ${answer.status}`).toBe(true);
  };
  const step = async <I>(
    action: { readInputs: (read: InputReader) => Promise<I> },
    start: (inputs: I, deps: TestStepDeps) => Promise<ActionResult<StepOutputs>>,
    run: GitHubRun,
    values: Record<string, string>,
  ): Promise<Step> => {
    // Numbered before any wait: steps of one test may run at once (a matrix's shards).
    const number = (steps += 1);
    const { env, event } = githubRunner(run);
    const workspace = path.join(folder, 'workspace');
    const inputs = await action.readInputs(
      new InputReader(inputSource({ ...SAUCE, 'api-url': emulator!.url, ...values }, { workspace, env })),
    );
    const deps = testStepDeps({
      tempDir: path.join(folder, `step-${number}`),
      workspace,
      workflow: { ...runIdentityOf(env, event), job: 'nightly', step: `step-${number}` },
      ci: ciContextOf(env, event),
    });
    await mkdir(deps.tempDir);
    const before = (await journal(emulator!)).length;
    const result = await start(inputs, deps);
    const requests = (await journal(emulator!)).slice(before);
    const results = JSON.parse(await readFile(result.outputs['results-file'], 'utf8')) as ResultsFile;
    return { result, deps, summary: wholeText(result.summary), results, requests };
  };
  return {
    emulator: () => emulator!,
    workspace: () => path.join(folder, 'workspace'),
    script: async (outcomes, retries) => {
      await admin('DELETE', 'outcomes');
      for (const [testCase, outcome] of Object.entries(outcomes)) {
        const runs = outcome === 'failed' ? retries + 1 : 1;
        await admin('POST', 'outcomes', { testCase, outcomes: Array(runs).fill(outcome) });
      }
    },
    writeQuarantine: async (text) => {
      const file = path.join(folder, 'workspace', 'quarantine.yml');
      await writeFile(file, text);
      return 'quarantine.yml';
    },
    suiteRun: (run, inputs = {}) =>
      step(suite, (read, deps) => suite.run(read, { ...deps, client: client! }), run, {
        suite: 'Regression',
        'poll-interval': '1s',
        ...inputs,
      }),
    jsRun: (run, inputs, hooks = {}) =>
      step(
        jsTests,
        (read, deps) =>
          jsTests.run(read, { ...deps, client: hooked(client!, () => hooks.started?.(emulator!)) }),
        run,
        { 'poll-interval': '1s', ...inputs },
      ),
  };
}

/** The client of run-js-tests, calling `started` once a start of JS tests answered. */
function hooked(client: SauceClient, started: () => void): JsTestsClient {
  const { jobs, jsTests: tests } = client.automation;
  return {
    jobUrl: (id) => client.jobUrl(id),
    serviceClock: client.serviceClock,
    automation: {
      jobs,
      jsTests: {
        start: async (...args) => {
          const answer = await tests.start(...args);
          started();
          return answer;
        },
        getStatus: (...args) => tests.getStatus(...args),
      },
    },
  };
}

/** A day from today, `YYYY-MM-DD` in UTC. */
export function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
