/**
 * One scenario of the nightly benchmark, on an emulator process of its own (its own account
 * budget): the shards of `run-suite-and-wait` side by side, each through the harness as the runner
 * runs it (main and post steps), then the report step; optionally a re-run (attempt 2, stopped
 * once every shard has started its first case or ended) and another pipeline's jobs on the
 * same account meanwhile.
 */
import path from 'node:path';
import type { StepOptions, StepResult } from '@sauce-actions/action-harness';
import { nightlyFigures, type Marks, type NightlyFigures } from './nightly-figures.ts';
import { JournalRecorder } from './journal-recorder.ts';
import { runOtherPipeline, type OtherPipelineFigures } from './other-pipeline.ts';
import { loadAverage, ROOT, startEmulatorProcess } from './processes.ts';
import { START_PATH, type ShardProxy } from './shard-proxy.ts';
import { ACCESS_KEY, runSuiteStep, USERNAME } from './suite-step.ts';

export const ACTION_DIR = path.join(ROOT, 'actions', 'run-suite-and-wait');

/** One workflow run: every shard and the report see the same context, as in one run of a matrix. */
const CONTEXT = {
  repository: 'example/nightly-app',
  runId: '9100000412',
  runNumber: '412',
  workflow: 'nightly',
  eventName: 'schedule',
} as const;

export interface ScenarioOptions {
  name: string;
  shards: number;
  cases: number;
  jobDurationMs: number;
  rateLimit: number;
  seedFile: string;
  /** The action's folder: its action.yml names the bundles that run. */
  actionDir: string;
  rerun: boolean;
  /** Jobs another pipeline creates on the account during the nightly; 0 for none. */
  otherJobs: number;
  log: (message: string) => void;
}

export interface StepFigures {
  step: string;
  exitCode: number | null;
  postExitCode: number | null;
  timedOut: boolean;
  /** Whether the harness cancelled it (the re-run's steps, once every shard had started). */
  cancelled: boolean;
  seconds: number;
  outputs: Record<string, string>;
  /** What this step sent, counted by its proxy, and how many of those were answered 429. */
  requests: number;
  rateLimited: number;
  /** The step's first error annotation, when it failed. */
  error?: string;
}

export interface RerunStepFigures extends StepFigures {
  startedCase: boolean;
  /** Requests before its first case start; all of them when it started none. */
  beforeFirstStart: number;
}

export interface ScenarioResult {
  name: string;
  shards: number;
  cases: number;
  jobMinutes: number;
  otherJobs: number;
  load: { start: string; end: string };
  seconds: { nightly: number; shards: number; report: number; rerun?: number; total: number };
  shardSteps: StepFigures[];
  report: StepFigures;
  rerunSteps?: RerunStepFigures[];
  otherPipeline?: OtherPipelineFigures;
  figures: NightlyFigures;
  /** Journal readings that did not overlap (entries lost between them): 0 when the journal is whole. */
  journalGaps: number;
}

const OUTPUTS = ['total', 'passed', 'failed', 'flaky', 'build-name'];

function stepFigures(name: string, result: StepResult, proxy: ShardProxy, seconds: number): StepFigures {
  const error = result.annotations.find((annotation) => annotation.level === 'error')?.message;
  return {
    step: name,
    exitCode: result.exitCode,
    postExitCode: result.post?.exitCode ?? null,
    timedOut: result.timedOut,
    cancelled: result.cancelled,
    seconds: Math.round(seconds),
    outputs: Object.fromEntries(
      OUTPUTS.flatMap((key) => (key in result.outputs ? [[key, result.outputs[key]!]] : [])),
    ),
    requests: proxy.requests.length,
    rateLimited: proxy.requests.filter((request) => request.status === 429).length,
    ...(result.exitCode !== 0 && error ? { error: error.split('\n')[0]!.slice(0, 300) } : {}),
  };
}

export async function runScenario(options: ScenarioOptions): Promise<ScenarioResult> {
  const jobMinutes = options.jobDurationMs / 60_000;
  // Longer than the jobs with room for a slow start phase; the harness's own limit a little later.
  const timeoutMinutes = Math.ceil(jobMinutes * 3 + 10);
  const harnessTimeoutMs = (timeoutMinutes + 5) * 60_000;
  const loadAtStart = loadAverage();
  const emulator = await startEmulatorProcess([
    '--rate-limit',
    String(options.rateLimit),
    '--job-duration-ms',
    String(options.jobDurationMs),
    '--seed',
    options.seedFile,
  ]);
  const journal = new JournalRecorder(emulator.url);
  journal.start();

  const runOne = async (
    name: string,
    inputs: Record<string, string>,
    attempt: number,
    extra: Partial<StepOptions> = {},
    onProxy?: (proxy: ShardProxy) => void,
  ): Promise<{ result: StepResult; proxy: ShardProxy; seconds: number }> =>
    runSuiteStep(emulator.url, {
      actionDir: options.actionDir,
      timeout: `${timeoutMinutes}m`,
      inputs,
      context: { ...CONTEXT, runAttempt: String(attempt), job: name === 'report' ? 'report' : 'e2e' },
      timeoutMs: harnessTimeoutMs,
      ...extra,
      ...(onProxy !== undefined ? { onProxy } : {}),
    });
  const shardInputs = (index: number): Record<string, string> =>
    options.shards > 1 ? { shard: `${index + 1}/${options.shards}` } : {};
  const shardName = (index: number): string =>
    options.shards > 1 ? `${index + 1}/${options.shards}` : 'whole suite';

  try {
    const other = new AbortController();
    const marks: Partial<Marks> = { start: Date.now() };
    const began = performance.now();
    const otherRun =
      options.otherJobs > 0
        ? runOtherPipeline({
            url: emulator.url,
            username: USERNAME,
            accessKey: ACCESS_KEY,
            jobs: options.otherJobs,
            perRequest: 100,
            spreadMs: options.jobDurationMs,
            maxDurationSeconds: Math.ceil(options.jobDurationMs / 1000) + 120,
            signal: other.signal,
          })
        : undefined;
    options.log(`${options.shards} shard(s) started`);
    const shardRuns = await Promise.all(
      Array.from({ length: options.shards }, async (_, index) => {
        const run = await runOne(shardName(index), shardInputs(index), 1);
        options.log(
          `shard ${shardName(index)} ended: exit ${run.result.exitCode}, ${Math.round(run.seconds)} s`,
        );
        return run;
      }),
    );
    const shardsSeconds = (performance.now() - began) / 1000;

    marks.reportStart = Date.now();
    const report = await runOne('report', { operation: 'report' }, 1);
    marks.reportEnd = Date.now();
    options.log(`report ended: exit ${report.result.exitCode}, ${Math.round(report.seconds)} s`);
    const nightlySeconds = (performance.now() - began) / 1000;
    other.abort();
    const otherPipeline = await otherRun;

    let rerunSteps: RerunStepFigures[] | undefined;
    let rerunSeconds: number | undefined;
    if (options.rerun) {
      marks.rerunStart = Date.now();
      const rerunBegan = performance.now();
      rerunSteps = await rerun(options, runOne, shardInputs, shardName);
      marks.rerunEnd = Date.now();
      rerunSeconds = (performance.now() - rerunBegan) / 1000;
      options.log(`re-run stopped after ${Math.round(rerunSeconds)} s`);
    }

    const entries = await journal.stop();
    return {
      name: options.name,
      shards: options.shards,
      cases: options.cases,
      jobMinutes,
      otherJobs: options.otherJobs,
      load: { start: loadAtStart, end: loadAverage() },
      seconds: {
        nightly: Math.round(nightlySeconds),
        shards: Math.round(shardsSeconds),
        report: Math.round(report.seconds),
        ...(rerunSeconds !== undefined ? { rerun: Math.round(rerunSeconds) } : {}),
        total: Math.round((performance.now() - began) / 1000),
      },
      shardSteps: shardRuns.map((run, index) =>
        stepFigures(shardName(index), run.result, run.proxy, run.seconds),
      ),
      report: stepFigures('report', report.result, report.proxy, report.seconds),
      ...(rerunSteps ? { rerunSteps } : {}),
      ...(otherPipeline ? { otherPipeline } : {}),
      figures: nightlyFigures(entries, marks as Marks, options.jobDurationMs, options.shards),
      journalGaps: journal.gaps,
    };
  } finally {
    await journal.stop().catch(() => []);
    await emulator.stop();
  }
}

type RunOne = (
  name: string,
  inputs: Record<string, string>,
  attempt: number,
  extra?: Partial<StepOptions>,
  onProxy?: (proxy: ShardProxy) => void,
) => Promise<{ result: StepResult; proxy: ShardProxy; seconds: number }>;

/**
 * Attempt 2 of the same workflow run with `rerun-failed: true`: every shard again, cancelled as the
 * runner cancels a step (SIGINT, the harness's `cancelWhen`) once every shard has started its
 * first case or ended by itself (a shard whose cases all passed starts none).
 */
async function rerun(
  options: ScenarioOptions,
  runOne: RunOne,
  shardInputs: (index: number) => Record<string, string>,
  shardName: (index: number) => string,
): Promise<RerunStepFigures[]> {
  const settled = Array.from({ length: options.shards }, () => false);
  let allSettled: () => void = () => {};
  const everyShardStarted = new Promise<void>((resolve) => (allSettled = resolve));
  const settle = (index: number): void => {
    settled[index] = true;
    if (settled.every(Boolean)) allSettled();
  };
  const runs = await Promise.all(
    Array.from({ length: options.shards }, async (_, index) => {
      const run = await runOne(
        shardName(index),
        { ...shardInputs(index), 'rerun-failed': 'true' },
        2,
        { cancelWhen: everyShardStarted },
        (proxy) => void proxy.firstStart.then(() => settle(index)),
      );
      settle(index);
      return run;
    }),
  );
  return runs.map((run, index) => {
    const first = run.proxy.requests.find(
      (request) => request.method === 'POST' && START_PATH.test(request.path) && request.status < 300,
    );
    return {
      ...stepFigures(shardName(index), run.result, run.proxy, run.seconds),
      startedCase: first !== undefined,
      beforeFirstStart: run.proxy.requests.filter((request) => !first || request.time < first.time).length,
    };
  });
}
