/**
 * The two test actions as the engine's scenarios see them: how each makes its inputs and runs,
 * which request of the emulator starts its jobs and which follows them, the lines it logs at each
 * stage, its post step, and how it words what became of its jobs. A row of the scenarios runs once
 * with each.
 */
import { NO_HISTORY } from '@sauce-actions/action-kit/inputs/history-inputs';
import type { NotifyInputs } from '@sauce-actions/action-kit/inputs/notify-inputs';
import type { ActionResult, InputReader, SauceConnection, StepState } from '@sauce-actions/action-kit';
import type { TestStepDeps } from '@sauce-actions/action-kit/testing';
import type { TestRunOutputs } from '@sauce-actions/action-kit/test-run/results';
import type { SauceClient } from '@sauce-actions/api';
import { defaultSeed, type RunningEmulator, type Seed } from '@sauce-actions/emulator';
import { expect } from 'vitest';
import { action as jsTests, post as jsTestsPost } from '../../../actions/run-js-tests/src/definition.ts';
import { STATE_KEY as JS_TESTS_KEY } from '../../../actions/run-js-tests/src/state.ts';
import { runInputs } from '../../../actions/run-js-tests/test/helpers.ts';
import { action as suite, post as suitePost } from '../../../actions/run-suite-and-wait/src/definition.ts';
import { STATE_KEY as SUITE_KEY } from '../../../actions/run-suite-and-wait/src/state.ts';
import { suiteInputs } from '../../../actions/run-suite-and-wait/test/helpers.ts';
import { GREEN_SUITE, seed } from '../../../actions/run-suite-and-wait/test/seed.ts';

/** A request of the emulator, by method and path. */
export interface Request {
  method: string;
  path: RegExp;
}

/** What a row asks of a run; the adapter makes the inputs that do it. */
export interface Scenario {
  /** Names the run's build (`build-name`, `build`), where its jobs are found. */
  build: string;
  /** Items that fail (some of them), rather than pass. */
  failing?: boolean;
  timeoutMs?: number;
  retries?: number;
  failOnFailure?: boolean;
  stopOnCancel?: false;
  junitFile?: string;
  /** A shard of the matrix that has no item to run. */
  emptyShard?: boolean;
  /** `notify-url`, `notify-on`, `issues` and the rest, as read. */
  notify?: NotifyInputs;
}

/** A step's deps with a real client of the emulator. */
export type ScenarioDeps = TestStepDeps & { client: SauceClient };

interface Post {
  hasLeftRunning(state: StepState): boolean;
  readInputs(read: InputReader): Promise<{ connection: SauceConnection }>;
  run(inputs: { connection: SauceConnection }, deps: ScenarioDeps): Promise<ActionResult>;
}

export interface Adapter {
  name: 'run-suite-and-wait' | 'run-js-tests';
  /** The engine's word for the items in its messages. */
  itemsName: 'cases' | 'platforms';
  seed?: Seed;
  /** Jobs that outlast a row that ends early, yet soon assigned (a JS test's job id comes then). */
  longJobsMs: number;
  /** Whether the action has `stop-on-cancel`: without it, what was started is always stopped. */
  stopOnCancel: boolean;
  run(
    emulator: RunningEmulator,
    deps: ScenarioDeps,
    scenario: Scenario,
  ): Promise<ActionResult<TestRunOutputs>>;
  readInputs: typeof suite.readInputs | typeof jsTests.readInputs;
  /** The least inputs of a run, as the runner gives them. */
  rawInputs: Record<string, string>;
  /** The inputs of a run of the main step from its sources, as the runner gives them. */
  stepInputs(build: string): Record<string, string>;
  post: Post;
  stateKey: string;
  /** The request that starts the jobs, and the first round's count of them before a retry's. */
  start: Request;
  retryStart: Request & { before: number };
  /** The request that follows the jobs. */
  listing: Request;
  /** The moment just before the start: a line logged, or a request of the plan that arrives. */
  beforeStart: { line: RegExp } | { request: Request };
  /** Logged once the start answered, before anything follows the jobs. */
  started: RegExp;
  /** A progress line; its first group is what it says of the jobs, without the time. */
  progress: RegExp;
  /** Jobs of a run that passes, and the JUnit cases they make. */
  jobs: number;
  junitCases: number;
  /** Items of a failing run that fail, by name. */
  failingItems: string[];
  /**
   * An item of the run (`failing` or not) that `make` turns flaky once the first round started:
   * it fails there, and passes when run again; `undo` puts the emulator back.
   */
  flaky: {
    item: string;
    failing: boolean;
    make(emulator: RunningEmulator, build: string): void;
    undo?(emulator: RunningEmulator): void;
  };
  /** The state saved once the start answered, before any listing. */
  savedAtStart(build: string): Record<string, unknown>;
  /** The job ids the results file says were stopped, and why the run ended there. */
  stoppedInResults(results: unknown): string[];
  endedInResults(results: unknown): unknown;
  words: {
    passed: string;
    failed(build: string): RegExp;
    cancelled(build: string): RegExp;
    timedOut(build: string): RegExp;
    cutOff(build: string): string;
    /** What the summary says of jobs stopped after a cancel, a timeout; and of jobs left running. */
    summary: { cancelled: string[]; timeout: string[]; leftRunning: string[] };
    /** What the summary of a shard with nothing to run says. */
    emptyShard: string[];
  };
}

const SAUCE = { username: 'demo', 'access-key': 'demo-access-key' };

/** The default seed's failing case of Smoke, which the flaky row makes pass on its retry. */
const CHECKOUT = defaultSeed().authoring.testCases?.find((c) => c.name === 'Checkout fails')?.id ?? '';

const suiteCases = (emulator: RunningEmulator) => emulator.context.authoring.testCases;

const SUITE: Adapter = {
  name: 'run-suite-and-wait',
  itemsName: 'cases',
  seed: seed(),
  longJobsMs: 600_000,
  stopOnCancel: true,
  run: (emulator, deps, scenario) =>
    suite.run(
      suiteInputs(emulator, {
        suite: scenario.failing ? 'Smoke' : GREEN_SUITE,
        buildName: scenario.build,
        ...(scenario.emptyShard ? { shard: { index: 4, total: 4 } } : {}),
        ...options(scenario),
      }),
      deps,
    ),
  readInputs: suite.readInputs,
  rawInputs: { ...SAUCE, suite: 'Smoke' },
  stepInputs: (build) => ({ ...SAUCE, suite: GREEN_SUITE, 'build-name': build, 'poll-interval': '1s' }),
  post: suitePost,
  stateKey: SUITE_KEY,
  start: { method: 'POST', path: /^\/v1\/ai-authoring\/testsuites\/[^/]+\/run$/ },
  // A suite's retry runs its failed cases one by one.
  retryStart: { method: 'POST', path: /^\/v1\/ai-authoring\/testcases\/[^/]+\/run$/, before: 0 },
  listing: { method: 'GET', path: /^\/rest\/v1\/demo\/jobs$/ },
  // The suite's cases, listed to count the jobs of its run.
  beforeStart: { request: { method: 'GET', path: /^\/v1\/ai-authoring\/testcases$/ } },
  started: /^Started suite "\w+" in build /,
  progress: /^(\d+ of 3 jobs: .*); \d+s elapsed$/,
  jobs: 3,
  junitCases: 3,
  failingItems: ['Checkout fails'],
  // Smoke's failing case passes on the runs after the first.
  flaky: {
    item: 'Checkout fails',
    failing: true,
    make: (emulator) => {
      suiteCases(emulator).get(CHECKOUT).expectedOutcome = 'pass';
    },
    undo: (emulator) => {
      suiteCases(emulator).get(CHECKOUT).expectedOutcome = 'fail';
    },
  },
  savedAtStart: (build) => ({ builds: [build], jobIds: [], expectedCount: 3 }),
  stoppedInResults: (results) =>
    (results as { jobs: { id: string; status: string }[] }).jobs
      .filter((job) => job.status === 'stopped')
      .map((job) => job.id),
  endedInResults: (results) => (results as { ended: unknown }).ended,
  words: {
    passed: '<h2>Suite Green: 3 of 3 jobs passed</h2>',
    failed: (build) =>
      new RegExp(
        `^1 of 3 job\\(s\\) failed in build "${build}": "Checkout fails" \\(safari 17, macOS 13\\)\\.`,
      ),
    cancelled: (build) =>
      new RegExp(
        `^Cancelled while waiting for build "${build}": 0 of 3 job\\(s\\) finished \\(0 passed, 0 failed\\); 3 did not finish and 3 were stopped\\.$`,
      ),
    timedOut: (build) =>
      new RegExp(
        `^Timed out while waiting for build "${build}": 0 of 3 job\\(s\\) finished \\(0 passed, 0 failed\\); 3 did not finish and 3 were stopped\\. Raise \`timeout\` \\(now 5s\\)`,
      ),
    cutOff: (build) =>
      `Cancelled while the runs of build "${build}" were being queued: Sauce Labs did not answer within 2.5s, so what it queued, if anything, could not be identified to be stopped. Look for build "${build}" (or with a suffix such as " - 1") on the dashboard.`,
    summary: {
      cancelled: [
        '3 jobs, 0 passed, 0 failed, 3 stopped',
        'The run was cancelled before every job finished.',
      ],
      timeout: ['3 jobs, 0 passed, 0 failed, 3 stopped', 'The wait timed out before every job finished.'],
      leftRunning: ['3 jobs, 0 passed, 0 failed, 3 queued'],
    },
    emptyShard: [
      '<h2>Suite Green, shard 4/4: nothing to run</h2>',
      'Shard 4/4 has no test case to run: the suite&#39;s 2 test case(s) are split among 4 shards by case id',
    ],
  },
};

const PLATFORMS = ['Windows 11 / chrome / latest', 'Linux / firefox / 126'];

const JS_TESTS: Adapter = {
  name: 'run-js-tests',
  itemsName: 'platforms',
  // Queued for the first fifth of a job: a job id is assigned after 4 s.
  longJobsMs: 20_000,
  stopOnCancel: false,
  run: (emulator, deps, scenario) =>
    jsTests.run(
      runInputs(emulator, {
        build: scenario.build,
        ...(scenario.failing ? { url: 'https://example.com/fail.html' } : {}),
        ...(scenario.emptyShard ? { platforms: [], shard: { index: 3, total: 3, of: 2 } } : {}),
        ...options(scenario),
      }),
      deps,
    ),
  readInputs: jsTests.readInputs,
  rawInputs: { ...SAUCE, url: 'https://example.com/t.html', framework: 'qunit', platforms: PLATFORMS[0]! },
  stepInputs: (build) => ({
    ...SAUCE,
    url: 'https://example.com/tests.html',
    framework: 'custom',
    platforms: PLATFORMS.join('\n'),
    build,
    'poll-interval': '1s',
  }),
  post: jsTestsPost,
  stateKey: JS_TESTS_KEY,
  start: { method: 'POST', path: /^\/rest\/v1\/demo\/js-tests$/ },
  retryStart: { method: 'POST', path: /^\/rest\/v1\/demo\/js-tests$/, before: 1 },
  listing: { method: 'POST', path: /^\/rest\/v1\/demo\/js-tests\/status$/ },
  // Logged before the start request, which is the step's first.
  beforeStart: { line: /^Starting custom tests of / },
  started: /^Started the JS tests: /,
  progress: /^(\d+ of 2 platforms finished: .*) \(\d+s\)$/,
  jobs: 2,
  // Three tests a page.
  junitCases: 6,
  failingItems: PLATFORMS,
  // The first job of a passing platform is marked failed, as a page that passes on a later run.
  flaky: {
    item: PLATFORMS[1]!,
    failing: false,
    make: (emulator, build) => {
      const jobs = emulator.context.automation.jobs;
      const firefox = jobs.all().find((job) => job.build === build && job.browser === 'firefox');
      if (firefox) jobs.update(firefox.id, { passed: false });
    },
  },
  savedAtStart: () => ({ testIds: [expect.any(String), expect.any(String)], jobIds: [] }),
  stoppedInResults: (results) => (results as { stoppedJobs: string[] }).stoppedJobs,
  endedInResults: (results) => (results as { outcome: unknown }).outcome,
  words: {
    passed: 'JS unit tests (custom): all passed',
    failed: () => /^2 of 2 platforms failed the JS tests: Windows 11 \/ chrome \/ latest \(/,
    cancelled: () =>
      /^The run was cancelled before the JS tests finished\. No platform finished\. Did not finish: Windows 11 \/ chrome \/ latest \(stopped before it finished\); Linux \/ firefox \/ 126 \(stopped before it finished\)\.$/,
    timedOut: () =>
      /^The JS tests did not finish within the timeout \(5s\)\. No platform finished\. Did not finish: Windows 11 \/ chrome \/ latest \(stopped before it finished\); .*Raise `timeout`/,
    cutOff: (build) =>
      `Cancelled while the JS tests were being started: Sauce Labs did not answer within 2.5s, so the jobs it started, if any, could not be identified to be stopped. Look for jobs of https://example.com/tests.html in build "${build}" on the dashboard.`,
    summary: {
      cancelled: ['The run was cancelled: 2 unfinished jobs were stopped.'],
      timeout: ['JS unit tests (custom): timed out', 'The wait timed out: 2 unfinished jobs were stopped.'],
      leftRunning: [],
    },
    emptyShard: ['JS unit tests (custom), shard 3/3: nothing to run', 'the platforms is empty: nothing ran'],
  },
};

/** The inputs every row may set, as both actions name them. */
function options(scenario: Scenario) {
  return {
    ...(scenario.timeoutMs !== undefined ? { timeoutMs: scenario.timeoutMs } : {}),
    ...(scenario.retries !== undefined ? { retries: scenario.retries } : {}),
    ...(scenario.failOnFailure !== undefined ? { failOnFailure: scenario.failOnFailure } : {}),
    ...(scenario.stopOnCancel !== undefined ? { stopOnCancel: scenario.stopOnCancel } : {}),
    ...(scenario.junitFile !== undefined ? { junitFile: scenario.junitFile } : {}),
    ...(scenario.notify !== undefined ? { history: { ...NO_HISTORY, notify: scenario.notify } } : {}),
  };
}

export const ADAPTERS = [SUITE, JS_TESTS];
