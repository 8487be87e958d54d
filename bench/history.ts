/**
 * What a nightly's history costs the account, in requests: reading 10 earlier runs of 400 cases
 * among other pipelines' jobs (the kit's reader against the naive way), and a 20-shard nightly's
 * report with its history against the same report without it.
 *
 * Usage: npm run bench:history -- [--part read,report] [--cases 400] [--nights 10]
 *   [--other-jobs 3000] [--shards 20] [--job-ms 3000] [--poll-interval 1s] [--rate-limit 10]
 *   [--action-dir actions/run-suite-and-wait] [--json]
 *
 * `--other-jobs` are other pipelines' jobs between two nights (and after the last one), so an
 * account of 10 nights holds 10 × (cases + other jobs). `--action-dir` runs the bundles another
 * folder's action.yml names, as for `bench:nightly`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { measureReading, type ReadCount, type ReadFigures } from './support/history-read.ts';
import { measureReport, type ReportFigures, type StepCount } from './support/history-report.ts';
import { ACTION_DIR } from './support/nightly-scenario.ts';
import { loadAverage, markdownTable } from './support/processes.ts';

const { values } = parseArgs({
  options: {
    part: { type: 'string', default: 'read,report' },
    cases: { type: 'string', default: '400' },
    nights: { type: 'string', default: '10' },
    'other-jobs': { type: 'string', default: '3000' },
    shards: { type: 'string', default: '20' },
    'job-ms': { type: 'string', default: '3000' },
    'poll-interval': { type: 'string', default: '1s' },
    'rate-limit': { type: 'string', default: '10' },
    'action-dir': { type: 'string', default: ACTION_DIR },
    json: { type: 'boolean', default: false },
  },
});

const whole = (name: string, text: string, least = 1): number => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < least) {
    throw new Error(`--${name} must be a whole number of ${least} or more, got "${text}"`);
  }
  return value;
};
const parts = new Set(values.part.split(',').map((part) => part.trim()));
const sizes = {
  cases: whole('cases', values.cases),
  nights: whole('nights', values.nights),
  otherJobs: whole('other-jobs', values['other-jobs'], 0),
};
const shards = whole('shards', values.shards);
const jobDurationMs = whole('job-ms', values['job-ms']);
const rateLimit = whole('rate-limit', values['rate-limit']);
const log = (message: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

const began = performance.now();
const startedAt = new Date().toISOString();
const loadAtStart = loadAverage();
let read: ReadFigures | undefined;
let report: ReportFigures | undefined;
if (parts.has('read')) {
  log(`reading ${sizes.nights} nights of ${sizes.cases} cases among ${sizes.otherJobs} other jobs a day`);
  read = await measureReading(sizes);
}
if (parts.has('report')) {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'bench-history-'));
  try {
    report = await measureReport({
      ...sizes,
      shards,
      jobDurationMs,
      pollInterval: values['poll-interval'],
      rateLimit,
      seedFile: path.join(folder, 'seed.json'),
      actionDir: path.resolve(values['action-dir']),
      log,
    });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
const summary = {
  startedAt,
  ...sizes,
  shards,
  jobDurationMs,
  rateLimit,
  seconds: Math.round((performance.now() - began) / 1000),
  load: { start: loadAtStart, end: loadAverage() },
  ...(read ? { read } : {}),
  ...(report ? { report } : {}),
};

if (values.json) {
  console.log(JSON.stringify(summary, null, 2));
} else {
  console.log(
    `\n${sizes.nights} earlier nights of ${sizes.cases} cases, ${n(sizes.otherJobs)} other jobs between two; ` +
      `${summary.seconds} s in all; load average ${summary.load.start} → ${summary.load.end}`,
  );
  if (read) printReading(read);
  if (report) printReport(report);
}

function n(value: number): string {
  return value.toLocaleString('en-US');
}

function printReading(figures: ReadFigures): void {
  console.log(
    `\nReading the history: ${n(figures.jobsOnAccount)} jobs on the account, no rate limit ` +
      `(at the documented 10 a second, a request takes at least 0.1 s)\n`,
  );
  const base = figures.history.requests;
  const row = (count: ReadCount): string[] => [
    count.name,
    n(count.requests),
    n(count.pages),
    n(count.jobGets),
    `${n(count.ms)} ms`,
    `${(count.requests / 10).toFixed(1)} s`,
    `${(count.requests / base).toFixed(1)}×`,
    `${count.runs} runs, ${n(count.items)} ${count === figures.history ? 'items' : 'jobs'}`,
  ];
  printTable(
    ['way', 'requests', 'pages', 'job reads', 'time', 'at 10/s', 'vs history', 'read'],
    [row(figures.history), ...figures.naive.map(row)],
  );
  if (figures.history.shortBy) console.log(`  history stopped short: ${figures.history.shortBy}`);
}

function printReport(figures: ReportFigures): void {
  const shardRequests = figures.shards.reduce((sum, shard) => sum + shard.requests, 0);
  const shard429 = figures.shards.reduce((sum, shard) => sum + shard.rateLimited, 0);
  console.log(
    `\nThe report of ${figures.shards.length} shards (rate limit ${rateLimit}/s, ${jobDurationMs} ms jobs): ` +
      `the shards sent ${n(shardRequests)} requests (${shard429} × 429) in ${figures.shardsSeconds} s; ` +
      `exit codes ${[...new Set(figures.shards.map((shard) => shard.exitCode))].join(', ')}\n`,
  );
  const { off, first, nightly } = figures.reports;
  const row = (count: StepCount): string[] => [
    count.name,
    n(count.requests),
    count === off ? '' : `+${n(count.requests - off.requests)}`,
    n(count.rateLimited),
    `${count.seconds} s`,
    ['total', 'failed', 'new-failures', 'still-failing', 'fixed']
      .map((key) => `${key}=${count.outputs[key] ?? '-'}`)
      .join(' '),
  ];
  printTable(
    ['report', 'requests', 'history adds', '429', 'time', 'outputs'],
    [off, first, nightly].map(row),
  );
  for (const count of [off, first, nightly]) {
    console.log(`  ${count.name}: exit ${count.exitCode}${count.compared ? `; ${count.compared}` : ''}`);
    if (count.error) console.log(`    ${count.error}`);
    console.log(
      `    ${Object.entries(count.byEndpoint)
        .map(([endpoint, requests]) => `${endpoint} ${requests}`)
        .join('; ')}`,
    );
  }
}

function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  console.log(markdownTable(header, rows));
}
