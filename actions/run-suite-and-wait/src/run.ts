/** Runs a suite (or chosen test cases), follows every job to its end and reports. */
import path from 'node:path';
import { ActionError, InputError } from '@sauce-actions/action-kit';
import {
  followJobs,
  isJobFinished,
  RequestPacer,
  stopJobs,
  type FollowProgress,
  type JobLister,
  type JobStopper,
} from '@sauce-actions/action-kit/job-follower';
import {
  annotateFailedJobs,
  sortJobsForReport,
  tallyJobs,
  writeJobsSummary,
  writeResultsFile,
  type ReportedJob,
} from '@sauce-actions/action-kit/job-report';
import { writeJUnitFile } from '@sauce-actions/action-kit/junit';
import * as core from '@actions/core';
import {
  ApiError,
  type AuthoringClient,
  type AuthoringRunTarget,
  type Job,
  type TestSuite,
} from '@sauce-actions/api';
import { junitSuites, reportJob } from './report.ts';
import { defaultBuildName, isUuid, type CaseSelection } from './selection.ts';

export type DownloadAssets = 'none' | 'failed' | 'all';

export interface RunInputs {
  suite?: string;
  testCases?: CaseSelection[];
  targets?: AuthoringRunTarget[];
  buildName?: string;
  tunnelName?: string;
  failOnFailure: boolean;
  stopOnCancel: boolean;
  downloadAssets: DownloadAssets;
  junitFile?: string;
  pollIntervalMs: number;
}

export interface RunDeps {
  authoring: Pick<AuthoringClient, 'testSuites' | 'testCases'>;
  jobs: JobLister & JobStopper;
  jobUrl: (id: string) => string;
  log: (line: string) => void;
  /** Aborts on the deadline or on cancellation; `reason` tells which. */
  signal: AbortSignal;
  reason: () => 'timeout' | 'cancelled' | undefined;
  /** Folder of the results file (the runner's temporary folder). */
  outputDir: string;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  maxRequestsPerSecond?: number;
  /** Downloads the jobs' assets and uploads them as an artifact; absent: assets are not fetched. */
  collectAssets?: (jobs: readonly ReportedJob[]) => Promise<string | undefined>;
}

export type RunOutputs = {
  'build-name': string;
  total: number;
  passed: number;
  failed: number;
  'job-ids': string;
  'results-file': string;
};

interface Started {
  label: string;
  suite?: Pick<TestSuite, 'id' | 'name'>;
  builds: string[];
  jobIds: string[];
  expectedCount?: number;
  minimumCount?: number;
  /** Names of known jobs, for jobs that never appeared in the list. */
  names: Map<string, string>;
}

export async function run(inputs: RunInputs, deps: RunDeps): Promise<RunOutputs> {
  const now = deps.now ?? Date.now;
  const env = deps.env ?? process.env;
  const rate = deps.maxRequestsPerSecond ?? 5;
  const startedAt = new Date(now());

  const suite =
    inputs.suite !== undefined ? await findSuite(deps.authoring, inputs.suite, deps.signal) : undefined;
  const label = suite?.name ?? 'Test cases';
  const requestedBuild = inputs.buildName ?? defaultBuildName(label, env, startedAt);
  const started = await start(inputs, deps, suite, requestedBuild, rate);
  const buildName = started.builds[0] ?? requestedBuild;
  deps.log(
    `Started ${suite ? `suite "${suite.name}"` : `${inputs.testCases?.length ?? 0} test case(s)`} in build "${buildName}"` +
      (started.expectedCount !== undefined ? `: ${started.expectedCount} job(s) expected.` : '.'),
  );

  const progress = progressLogger(deps.log, started.expectedCount);
  const followed = await followJobs({
    jobs: deps.jobs,
    builds: started.builds,
    jobIds: started.jobIds,
    ...(started.expectedCount !== undefined ? { expectedCount: started.expectedCount } : {}),
    ...(started.minimumCount !== undefined ? { minimumCount: started.minimumCount } : {}),
    startedAtMs: startedAt.getTime(),
    intervalMs: inputs.pollIntervalMs,
    maxRequestsPerSecond: rate,
    signal: deps.signal,
    onPoll: progress,
    now,
  });
  core.debug(`followed in ${followed.polls} poll(s), ${followed.requests} request(s)`);

  const stopped = new Set<string>();
  let note: string | undefined;
  const reason = followed.complete ? undefined : (deps.reason() ?? 'cancelled');
  if (reason) {
    const unfinished = unfinishedIds(followed.jobs, started);
    note = `${reason === 'timeout' ? 'The wait timed out' : 'The run was cancelled'} before every job finished.`;
    if (inputs.stopOnCancel && unfinished.length > 0) {
      // The runner kills a cancelled step within seconds: stop quickly, bounded, in parallel.
      const result = await stopJobs(deps.jobs, unfinished, {
        signal: AbortSignal.timeout(reason === 'cancelled' ? 4000 : 20_000),
        concurrency: 8,
        maxRequestsPerSecond: Math.max(rate, 8),
      });
      for (const id of result.stopped) stopped.add(id);
      deps.log(
        `Stopped ${result.stopped.length} unfinished job(s)${result.failed.length ? `; ${result.failed.length} could not be stopped` : ''}.`,
      );
      for (const failure of result.failed) core.warning(`Could not stop job ${failure.id}: ${failure.error}`);
    }
  }

  const jobs = reportedJobs(followed.jobs, started, deps.jobUrl, stopped, reason !== undefined);
  const tally = tallyJobs(jobs);
  const title = `${suite ? `Suite ${suite.name}` : 'Test cases'}: ${tally.passed} of ${tally.total} jobs passed`;
  await writeJobsSummary(core.summary, { title, buildName, jobs, ...(note ? { note } : {}) });
  annotateFailedJobs(jobs);

  const resultsFile = path.join(deps.outputDir, 'run-suite-and-wait-results.json');
  await writeResultsFile(resultsFile, {
    suite: suite ? { id: suite.id, name: suite.name } : null,
    buildName,
    builds: started.builds,
    complete: followed.complete,
    ...(reason ? { ended: reason } : {}),
    totals: tally,
    jobs: sortJobsForReport(jobs).map((job) => ({
      ...job,
      service: followed.jobs.find((j) => j.id === job.id) ?? null,
    })),
  });
  if (inputs.junitFile) {
    await writeJUnitFile(inputs.junitFile, junitSuites(label, buildName, jobs, startedAt));
    deps.log(`JUnit report written to ${inputs.junitFile}.`);
  }
  if (inputs.downloadAssets !== 'none' && deps.collectAssets) {
    const chosen =
      inputs.downloadAssets === 'all'
        ? jobs
        : jobs.filter((job) => job.status === 'failed' || job.status === 'error');
    if (chosen.length > 0) await deps.collectAssets(chosen);
  }

  const outputs: RunOutputs = {
    'build-name': buildName,
    total: tally.total,
    passed: tally.passed,
    failed: tally.failed,
    'job-ids': JSON.stringify(jobs.map((job) => job.id)),
    'results-file': resultsFile,
  };
  core.info(`Jobs: ${tally.total}, passed ${tally.passed}, failed ${tally.failed}.`);
  return outputsThenVerdict(outputs, () => {
    if (reason) {
      const notFinished = tally.total - tally.finished;
      throw new ActionError(
        `${reason === 'timeout' ? 'Timed out' : 'Cancelled'} while waiting for build "${buildName}": ${tally.finished} of ${tally.total} job(s) finished (${tally.passed} passed, ${tally.failed} failed); ${notFinished} did not finish${stopped.size > 0 ? ` and ${stopped.size} were stopped` : ''}.` +
          (reason === 'timeout' ? ' Raise `timeout` if the suite needs longer.' : ''),
      );
    }
    if (tally.failed > 0 && inputs.failOnFailure) {
      const names = jobs
        .filter((job) => job.status === 'failed' || job.status === 'error')
        .map((job) => `"${job.name}" (${job.platform})`);
      throw new ActionError(
        `${tally.failed} of ${tally.total} job(s) failed in build "${buildName}": ${names.slice(0, 10).join(', ')}${names.length > 10 ? ', …' : ''}. See the step summary for links.`,
      );
    }
  });
}

/** Thrown verdicts still need the outputs: they are attached so main can set them first. */
export class RunVerdict extends ActionError {
  readonly outputs: RunOutputs;
  constructor(error: ActionError, outputs: RunOutputs) {
    super(error.message, error.kind);
    this.outputs = outputs;
  }
}

function outputsThenVerdict(outputs: RunOutputs, verdict: () => void): RunOutputs {
  try {
    verdict();
  } catch (error) {
    if (error instanceof ActionError) throw new RunVerdict(error, outputs);
    throw error;
  }
  return outputs;
}

async function findSuite(
  authoring: RunDeps['authoring'],
  wanted: string,
  signal: AbortSignal,
): Promise<Pick<TestSuite, 'id' | 'name'>> {
  if (isUuid(wanted)) {
    try {
      return await authoring.testSuites.get(wanted, { signal });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  }
  const matches: TestSuite[] = [];
  for await (const suite of authoring.testSuites.iterate({ search: wanted }, { signal })) {
    if (suite.name === wanted) matches.push(suite);
  }
  if (matches.length === 1) return matches[0] as TestSuite;
  if (matches.length === 0) {
    throw new InputError(
      'suite',
      `names "${wanted}", but no test suite has that id or exact name`,
      'the id or the exact name of a test suite of the account',
    );
  }
  throw new InputError(
    'suite',
    `names "${wanted}", which ${matches.length} test suites are called (${matches.map((suite) => suite.id).join(', ')})`,
    'the id of the one to run',
  );
}

async function start(
  inputs: RunInputs,
  deps: RunDeps,
  suite: Pick<TestSuite, 'id' | 'name'> | undefined,
  buildName: string,
  rate: number,
): Promise<Started> {
  const signal = deps.signal;
  const tunnel = inputs.tunnelName ?? null;
  if (suite && !inputs.targets) {
    // How many jobs to expect: one per target of each case that has targets.
    const perCase: number[] = [];
    for await (const testCase of deps.authoring.testCases.iterate({ testSuiteId: suite.id }, { signal })) {
      const settings = testCase.runSettings ?? {};
      const extra = Array.isArray(settings.additionalTargets) ? settings.additionalTargets.length : 0;
      const count = (settings.primaryTarget ? 1 : 0) + extra;
      if (count > 0) perCase.push(count);
    }
    const body = { buildName, scTunnelName: tunnel };
    const answer = await deps.authoring.testSuites.run(suite.id, body, { signal });
    const started: Started = {
      label: suite.name,
      suite,
      builds: [answer.buildName],
      jobIds: [],
      names: new Map(),
    };
    // The cases read must match what the service queued; otherwise wait until the count settles.
    if (perCase.length === answer.runCount) started.expectedCount = perCase.reduce((a, b) => a + b, 0);
    else started.minimumCount = answer.runCount;
    return started;
  }

  let selection = inputs.testCases ?? [];
  if (suite) {
    selection = [];
    for await (const testCase of deps.authoring.testCases.iterate({ testSuiteId: suite.id }, { signal })) {
      selection.push({ id: testCase.id });
    }
    if (selection.length === 0) throw new ActionError(`Test suite "${suite.name}" has no test cases to run.`);
  }
  const started: Started = {
    label: suite?.name ?? 'Test cases',
    ...(suite ? { suite } : {}),
    builds: [],
    jobIds: [],
    expectedCount: 0,
    names: new Map(),
  };
  const pacer = new RequestPacer(rate);
  for (const chosen of selection) {
    await pacer.take(signal);
    const targets = chosen.targets ?? inputs.targets;
    const caseRun = await deps.authoring.testCases
      .run(chosen.id, { buildName, scTunnelName: tunnel, ...(targets ? { targets } : {}) }, { signal })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) {
          throw new InputError(
            'test-cases',
            `names ${chosen.id}, which is not a test case of the account`,
            'ids of existing test cases',
          );
        }
        throw error;
      });
    if (!started.builds.includes(caseRun.build)) started.builds.push(caseRun.build);
    for (const job of caseRun.jobs) {
      const id = job.sauceJobId ?? undefined;
      if (id) {
        started.jobIds.push(id);
        started.names.set(id, job.name ?? chosen.id);
      }
    }
    started.expectedCount = (started.expectedCount ?? 0) + caseRun.jobs.length;
  }
  return started;
}

function unfinishedIds(seen: readonly Job[], started: Started): string[] {
  const ids = new Set(seen.filter((job) => !isJobFinished(job)).map((job) => job.id));
  for (const id of started.jobIds) if (!seen.some((job) => job.id === id)) ids.add(id);
  return [...ids];
}

function reportedJobs(
  seen: readonly Job[],
  started: Started,
  jobUrl: (id: string) => string,
  stopped: ReadonlySet<string>,
  ended: boolean,
): ReportedJob[] {
  const ordered = [...seen].sort((a, b) => a.creation_time - b.creation_time);
  const jobs = ordered.map((job) => reportJob(job, jobUrl, stopped));
  // Known jobs the list never showed: reported so that the totals count them.
  for (const id of started.jobIds) {
    if (seen.some((job) => job.id === id)) continue;
    jobs.push({
      id,
      name: started.names.get(id) ?? id,
      platform: '',
      status: stopped.has(id) ? 'stopped' : 'queued',
      url: jobUrl(id),
      ...(ended ? { detail: 'not seen in the job list before the wait ended' } : {}),
    });
  }
  return jobs;
}

/** One line per poll at most: when something changed, or once a minute while nothing does. */
function progressLogger(
  log: (line: string) => void,
  expected: number | undefined,
): (poll: FollowProgress) => void {
  let lastLineAt = -Infinity;
  return ({ jobs, changed, elapsedMs }) => {
    if (!changed && elapsedMs - lastLineAt < 60_000) return;
    lastLineAt = elapsedMs;
    const counts = { queued: 0, running: 0, passed: 0, failed: 0 };
    for (const job of jobs) {
      const status = reportJob(job, () => '', new Set()).status;
      if (status === 'queued') counts.queued += 1;
      else if (status === 'running') counts.running += 1;
      else if (status === 'passed') counts.passed += 1;
      else counts.failed += 1;
    }
    const of = expected !== undefined ? ` of ${expected}` : '';
    log(
      `${jobs.length}${of} jobs: ${counts.queued} queued, ${counts.running} running, ${counts.passed} passed, ${counts.failed} failed; ${Math.round(elapsedMs / 1000)}s elapsed`,
    );
  };
}
