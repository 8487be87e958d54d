/** Finds the suite and queues its runs (or the chosen cases'), noting what was started as it goes. */
import { isId, refusedInput, type ActionError } from '@sauce-actions/action-kit';
import type { RequestPacer } from '@sauce-actions/action-kit/step/request-pacer';
import { surelyNotStarted } from '@sauce-actions/action-kit/test-run/rounds';
import {
  ApiError,
  ResponseShapeError,
  type AuthoringTestCases,
  type AuthoringTestSuites,
  type TestSuite,
} from '@sauce-actions/api';
import { refusedStart } from './refusals.ts';
import { caseRunRequest, suiteRunRequest, type RunSettings } from './requests.ts';
import type { CaseSelection } from './selection.ts';

export interface StartClient {
  testSuites: Pick<AuthoringTestSuites, 'get' | 'iterate' | 'run'>;
  testCases: Pick<AuthoringTestCases, 'iterate' | 'run'>;
}

export type FoundSuite = Pick<TestSuite, 'id' | 'name'>;

/** A case of a suite, as listed: what a suite run queues for it. */
export interface SuiteCase {
  id: string;
  name: string;
  /** Jobs a run of the case on its own targets has: one per target. */
  jobCount: number;
}

interface StartRequest extends RunSettings {
  /** The suite the cases come from. */
  suite?: FoundSuite;
  /** With `suite` and no `testCases`: its cases as listed, to count the jobs of the suite run. */
  suiteCases?: readonly SuiteCase[];
  /** Cases run one by one; without them the suite runs in one suite run. */
  testCases?: readonly CaseSelection[];
  /** The step's signal: once it aborts, no further run is queued. */
  signal: AbortSignal;
  /** The step's pacer: each case run takes its turn with the step's other requests. */
  pacer: RequestPacer;
  /**
   * The signal of the requests that queue runs, which outlives `signal` by a grace period: their
   * answer names the build and the jobs, without which what they queued cannot be stopped. Once
   * `signal` aborts, they are not sent again (after a 429, say).
   */
  requestSignal?: AbortSignal;
  /** Called each time a run is queued, with `started` up to date. */
  onQueued?: () => void;
}

/** What was queued; filled in as runs start, so that a start that fails halfway still says what runs. */
export interface Started {
  /** Build names the service gave the runs, in the order they were queued. */
  builds: string[];
  /** Job ids the case runs answered. */
  jobIds: string[];
  /** Names of those jobs, for jobs that never appear in the job list. */
  names: Map<string, string>;
  /** The test case of each job a case run answered. */
  caseOfJob: Map<string, string>;
  /** Case runs queued. */
  runs: number;
  /** The number of jobs to expect, when known. */
  expectedCount?: number;
  /** Without `expectedCount`: the least number of jobs to wait for. */
  minimumCount?: number;
  /** The build of a request that queues runs and has not been answered (yet): what it queued is unknown. */
  unanswered?: string;
}

export function nothingStarted(): Started {
  return { builds: [], jobIds: [], names: new Map(), caseOfJob: new Map(), runs: 0 };
}

/** The suite of that id, else the one suite of that exact name. */
export async function findSuite(
  client: StartClient,
  wanted: string,
  signal: AbortSignal,
): Promise<FoundSuite> {
  if (isId(wanted, 'uuid')) {
    try {
      return await client.testSuites.get(wanted, { signal });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  }
  const matches: TestSuite[] = [];
  for await (const suite of client.testSuites.iterate({ search: wanted }, { signal })) {
    if (suite.name === wanted) matches.push(suite);
  }
  if (matches.length === 1) return matches[0] as TestSuite;
  if (matches.length === 0) {
    throw refusedInput(
      'suite',
      `names "${wanted}", but no test suite has that id or exact name`,
      'the id or the exact name of a test suite of the account',
    );
  }
  throw refusedInput(
    'suite',
    `names "${wanted}", which ${matches.length} test suites are called (${matches.map((suite) => suite.id).join(', ')})`,
    'the id of the one to run',
  );
}

/** The cases of a suite, in the service's order, with the jobs each has on its own targets. */
export async function listSuiteCases(
  client: StartClient,
  suite: FoundSuite,
  signal: AbortSignal,
): Promise<SuiteCase[]> {
  const cases: SuiteCase[] = [];
  for await (const testCase of client.testCases.iterate({ testSuiteId: suite.id }, { signal })) {
    const settings = testCase.runSettings ?? {};
    const extra = Array.isArray(settings.additionalTargets) ? settings.additionalTargets.length : 0;
    cases.push({ id: testCase.id, name: testCase.name, jobCount: (settings.primaryTarget ? 1 : 0) + extra });
  }
  return cases;
}

/** Queues the runs; `started` holds what was queued even when this throws. */
export async function startRuns(client: StartClient, request: StartRequest, started: Started): Promise<void> {
  const { suite, signal } = request;
  if (suite && request.testCases === undefined) {
    await startSuite(client, request, suite, started);
    return;
  }
  const selection: readonly CaseSelection[] = request.testCases ?? [];
  started.expectedCount ??= 0;
  for (const chosen of selection) {
    await request.pacer.take(signal);
    signal.throwIfAborted();
    const body = caseRunRequest(request, chosen);
    const { buildName } = body;
    started.unanswered = buildName;
    const caseRun = await client.testCases
      .run(chosen.id, body, { signal: request.requestSignal ?? signal, sendUntil: signal })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) {
          delete started.unanswered;
          throw refusedInput(
            'test-cases',
            `names ${chosen.id}, which is not a test case of the account`,
            'ids of existing test cases',
          );
        }
        if (error instanceof ResponseShapeError) keepWhatWasQueued(error, buildName, started, request);
        if (surelyNotStarted(error)) delete started.unanswered;
        throw refusedStart(error, request, chosen);
      });
    delete started.unanswered;
    started.runs += 1;
    if (!started.builds.includes(caseRun.build)) started.builds.push(caseRun.build);
    for (const job of caseRun.jobs) {
      const id = job.sauceJobId ?? undefined;
      if (id) {
        started.jobIds.push(id);
        started.names.set(id, job.name ?? chosen.name ?? chosen.id);
        started.caseOfJob.set(id, chosen.id);
      }
    }
    started.expectedCount += caseRun.jobs.length;
    request.onQueued?.();
  }
}

/** One suite run: the service queues a case run per case, in one build, and answers how many. */
async function startSuite(
  client: StartClient,
  request: StartRequest,
  suite: FoundSuite,
  started: Started,
): Promise<void> {
  const { signal } = request;
  const cases = request.suiteCases ?? (await listSuiteCases(client, suite, signal));
  // How many jobs to expect: one per target of each case that has targets.
  const perCase = cases.filter((testCase) => testCase.jobCount > 0).map((testCase) => testCase.jobCount);
  signal.throwIfAborted();
  const body = suiteRunRequest(request);
  started.unanswered = request.buildName;
  const answer = await client.testSuites
    .run(suite.id, body, { signal: request.requestSignal ?? signal, sendUntil: signal })
    .catch((error: unknown) => {
      if (error instanceof ResponseShapeError) keepWhatWasQueued(error, request.buildName, started, request);
      if (surelyNotStarted(error)) delete started.unanswered;
      throw refusedStart(error, request);
    });
  delete started.unanswered;
  // Nothing queued means nothing to wait for: the wait would otherwise last until the timeout.
  if (answer.runCount === 0) throw emptySuite(suite);
  started.builds.push(answer.buildName);
  started.runs = answer.runCount;
  // The cases read must match what the service queued; otherwise wait until the count settles.
  if (perCase.length === answer.runCount) started.expectedCount = perCase.reduce((a, b) => a + b, 0);
  else started.minimumCount = answer.runCount;
  request.onQueued?.();
}

/**
 * A run was queued, but its answer cannot be read in full: what can be read of it (the build, the
 * job ids) is kept, else the build asked for, so that its jobs can still be found and stopped.
 */
function keepWhatWasQueued(
  error: ResponseShapeError,
  asked: string,
  started: Started,
  request: Pick<StartRequest, 'onQueued'>,
): void {
  const data = (error.answer as { data?: unknown } | null)?.data;
  const run = data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  const build = [run.build, run.buildName].find((name) => typeof name === 'string' && name !== '');
  delete started.unanswered;
  started.runs += 1;
  if (!started.builds.includes((build as string | undefined) ?? asked)) {
    started.builds.push((build as string | undefined) ?? asked);
  }
  for (const job of Array.isArray(run.jobs) ? (run.jobs as unknown[]) : []) {
    const id = (job as { sauceJobId?: unknown } | null)?.sauceJobId;
    if (typeof id === 'string' && id !== '' && !started.jobIds.includes(id)) started.jobIds.push(id);
  }
  request.onQueued?.();
}

export function emptySuite(suite: FoundSuite): ActionError {
  return refusedInput(
    'suite',
    `names "${suite.name}", which has no test cases to run`,
    'a suite with test cases',
  );
}
