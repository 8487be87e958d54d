/**
 * A 20-shard nightly's report with its history, on the emulator's command line with the account's
 * rate limit: the account holds earlier nights (one a day, every case each) among other
 * pipelines' jobs (`history-seed.ts`); tonight's shards run side by side as the runner runs them,
 * then the report step runs three times on their jobs, each through a proxy of its own that
 * counts its requests: with `history: 0` (what a report costs without it), with `history: 10`
 * before any night kept a record (a series' first run: the search reads its whole bound), and
 * with `history: 10` once the earlier nights keep theirs (what it costs night after night). The
 * earlier nights' records are written between the two as their own reports would have kept them:
 * the series and the items of the first report's own record, each night's record naming the one
 * before it.
 */
import type { StepResult } from '@sauce-actions/action-harness';
import { SauceClient } from '@sauce-actions/api';
import { RequestPacer } from '@sauce-actions/action-kit/step/request-pacer';
import { recordRun } from '@sauce-actions/action-kit/test-run/history/history-search';
import { recordOf, type RunRecord } from '@sauce-actions/action-kit/test-run/history/run-record';
import { historySeed, TONIGHT, writeHistorySeed, type SeededNight } from './history-seed.ts';
import { startEmulatorProcess } from './processes.ts';
import type { ProxiedRequest } from './shard-proxy.ts';
import { ACCESS_KEY, runSuiteStep, USERNAME } from './suite-step.ts';

const REPOSITORY = 'example/nightly-app';
const RUN_ID = '9100000412';

/** One workflow run of the nightly's workflow on main, as every shard and the report see it. */
const CONTEXT = {
  repository: REPOSITORY,
  runId: RUN_ID,
  runNumber: String(TONIGHT),
  runAttempt: '1',
  workflow: 'nightly',
  eventName: 'schedule',
  ref: 'refs/heads/main',
} as const;
/** What the runner sets beside the context: the workflow's file, which names the series. */
const ENV = { GITHUB_WORKFLOW_REF: `${REPOSITORY}/.github/workflows/nightly.yml@refs/heads/main` };
const EVENT = { repository: { default_branch: 'main', full_name: REPOSITORY } };

export interface ReportOptions {
  cases: number;
  nights: number;
  otherJobs: number;
  shards: number;
  jobDurationMs: number;
  /** The shards' `poll-interval`: a shard of n polls up to n × it ÷ 2.5 apart. */
  pollInterval: string;
  rateLimit: number;
  seedFile: string;
  actionDir: string;
  log: (message: string) => void;
}

export interface StepCount {
  name: string;
  exitCode: number | null;
  seconds: number;
  requests: number;
  rateLimited: number;
  /** Requests by method and path, ids as `:id`. */
  byEndpoint: Record<string, number>;
  outputs: Record<string, string>;
  /** The step's line on its comparison ("Compared with 10 earlier run(s) in 15 request(s)."). */
  compared?: string;
  error?: string;
}

export interface ReportFigures {
  shards: StepCount[];
  shardsSeconds: number;
  reports: { off: StepCount; first: StepCount; nightly: StepCount };
}

const OUTPUTS = ['total', 'passed', 'failed', 'new-failures', 'still-failing', 'fixed'];

function endpointOf(request: ProxiedRequest): string {
  const path = request.path
    .replace(/\/rest\/v1(\.\d)?\//, '/rest/v1/')
    .replace(/\/[0-9a-f]{24,}(?=\/|$)/g, '/:id')
    .replace(/\/[0-9a-f-]{36}(?=\/|$)/g, '/:id');
  return `${request.method} ${path}`;
}

function counted(name: string, result: StepResult, requests: ProxiedRequest[], seconds: number): StepCount {
  const byEndpoint: Record<string, number> = {};
  for (const request of requests) {
    const endpoint = endpointOf(request);
    byEndpoint[endpoint] = (byEndpoint[endpoint] ?? 0) + 1;
  }
  const compared = /Compared with \d+ earlier run\(s\) in \d+ request\(s\)\./.exec(result.log)?.[0];
  const error = result.annotations.find((annotation) => annotation.level === 'error')?.message;
  return {
    name,
    exitCode: result.exitCode,
    seconds: Math.round(seconds),
    requests: requests.length,
    rateLimited: requests.filter((request) => request.status === 429).length,
    byEndpoint,
    outputs: Object.fromEntries(
      OUTPUTS.flatMap((key) => (key in result.outputs ? [[key, result.outputs[key]!]] : [])),
    ),
    ...(compared !== undefined ? { compared } : {}),
    ...(result.exitCode !== 0 && error ? { error: error.split('\n')[0]!.slice(0, 300) } : {}),
  };
}

export async function measureReport(options: ReportOptions): Promise<ReportFigures> {
  const { seed, nights } = historySeed(options);
  await writeHistorySeed(options.seedFile, seed);
  const emulator = await startEmulatorProcess([
    '--rate-limit',
    String(options.rateLimit),
    '--job-duration-ms',
    String(options.jobDurationMs),
    '--seed',
    options.seedFile,
  ]);
  const client = new SauceClient({ username: USERNAME, accessKey: ACCESS_KEY, apiUrl: emulator.url });
  const timeout = `${Math.ceil((options.jobDurationMs * 3) / 60_000) + 10}m`;
  const step = async (name: string, inputs: Record<string, string>): Promise<StepCount> => {
    const { result, proxy, seconds } = await runSuiteStep(emulator.url, {
      actionDir: options.actionDir,
      timeout,
      inputs,
      env: ENV,
      event: EVENT,
      context: { ...CONTEXT, job: name.startsWith('report') ? 'report' : 'e2e' },
      timeoutMs: 30 * 60_000,
    });
    return counted(name, result, proxy.requests, seconds);
  };
  try {
    options.log(`${options.shards} shards started`);
    const began = performance.now();
    const shards = await Promise.all(
      Array.from({ length: options.shards }, (_, index) =>
        step(`${index + 1}/${options.shards}`, {
          shard: `${index + 1}/${options.shards}`,
          'poll-interval': options.pollInterval,
        }),
      ),
    );
    const shardsSeconds = Math.round((performance.now() - began) / 1000);
    options.log(`shards ended in ${shardsSeconds} s; reports`);
    const off = await step('report, history 0', { operation: 'report', history: '0' });
    const first = await step('report, first with history', { operation: 'report', history: '10' });
    await recordNights(client, nights, await firstRecord(client, shards));
    const nightly = await step(`report, ${nights.length} nights recorded`, {
      operation: 'report',
      history: '10',
    });
    return { shards, shardsSeconds, reports: { off, first, nightly } };
  } finally {
    await client.close();
    await emulator.stop();
  }
}

/** The record the first report kept, on one of tonight's jobs: its series, and its items. */
async function firstRecord(client: SauceClient, shards: StepCount[]): Promise<RunRecord> {
  const jobs = await client.automation.jobs.list({ full: true, limit: 1000 });
  for (const job of jobs) {
    const record = recordOf(job['custom-data']);
    if (record !== undefined) return record;
  }
  throw new Error(
    `the report kept no record of tonight's run (shards: ${shards.map((shard) => shard.exitCode).join(' ')})`,
  );
}

/**
 * Each earlier night's record on its first job, as its report would have kept it: the series and
 * items of tonight's, the night's own run and start, and the night before it named.
 */
async function recordNights(client: SauceClient, nights: SeededNight[], tonight: RunRecord): Promise<void> {
  const { previous: _tonights, ...series } = tonight;
  let previous: string | undefined;
  for (const night of nights) {
    const anchor = await client.automation.jobs.get(night.anchor);
    const record: RunRecord = {
      ...series,
      run: {
        number: night.runNumber,
        attempt: '1',
        url: `https://github.com/${REPOSITORY}/actions/runs/${Number(RUN_ID) - TONIGHT + Number(night.runNumber)}`,
      },
      at:
        anchor.creation_time !== null
          ? anchor.creation_time * 1000
          : Date.now() - night.startedSecondsAgo * 1000,
      builds: [],
      ...(previous !== undefined ? { previous } : {}),
    };
    await recordRun(client.automation.jobs, anchor, record, { pacer: new RequestPacer(0) });
    previous = night.anchor;
  }
}
