/**
 * What a nightly suite split across a workflow matrix costs the account: the requests the
 * `run-suite-and-wait` bundle sends, shard by shard side by side as the runner runs them, then the
 * report step, on the emulator's command line with the account's documented rate limit and long
 * jobs. For the largest shard count, a re-run (attempt 2, `rerun-failed`) up to the shards' first
 * case starts, and the same nightly while another pipeline creates thousands of jobs on the same
 * account. Every scenario has an emulator (an account) of its own, so they run side by side.
 *
 * Usage: npm run bench:nightly -- [--cases 400] [--job-minutes 8] [--shards 1,5,20]
 *   [--other-jobs 5000] [--rate-limit 10] [--action-dir actions/run-suite-and-wait] [--serial] [--json]
 *
 * `--action-dir` runs the bundles another folder's action.yml names, such as a copy of `dist/` and
 * the action's folder taken from a commit, so that bundles rebuilt meanwhile do not mix in.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Count } from './support/nightly-figures.ts';
import {
  ACTION_DIR,
  runScenario,
  type ScenarioOptions,
  type ScenarioResult,
  type StepFigures,
} from './support/nightly-scenario.ts';
import { writeNightlySeed } from './support/nightly-seed.ts';
import { loadAverage, markdownTable } from './support/processes.ts';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '400' },
    'job-minutes': { type: 'string', default: '8' },
    shards: { type: 'string', default: '1,5,20' },
    'other-jobs': { type: 'string', default: '5000' },
    'rate-limit': { type: 'string', default: '10' },
    'action-dir': { type: 'string', default: ACTION_DIR },
    serial: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

const positive = (name: string, text: string): number => {
  const value = Number(text);
  if (!(value > 0)) throw new Error(`--${name} must be a positive number, got "${text}"`);
  return value;
};
const cases = positive('cases', values.cases);
const jobDurationMs = Math.round(positive('job-minutes', values['job-minutes']) * 60_000);
const shardCounts = values.shards.split(',').map((text) => positive('shards', text.trim()));
const otherJobs = Number(values['other-jobs']);
const rateLimit = positive('rate-limit', values['rate-limit']);
const largest = Math.max(...shardCounts);

const folder = await mkdtemp(path.join(os.tmpdir(), 'bench-nightly-'));
const seedFile = path.join(folder, 'seed.json');
await writeNightlySeed(seedFile, cases);

const scenarios: Omit<ScenarioOptions, 'log'>[] = [
  ...shardCounts.map((shards) => ({
    name: `${shards} shard${shards === 1 ? '' : 's'}`,
    shards,
    rerun: shards === largest,
    otherJobs: 0,
  })),
  ...(otherJobs > 0
    ? [{ name: `${largest} shards + ${otherJobs} other jobs`, shards: largest, rerun: false, otherJobs }]
    : []),
].map((scenario) => ({
  ...scenario,
  cases,
  jobDurationMs,
  rateLimit,
  seedFile,
  actionDir: path.resolve(values['action-dir']),
}));

const began = performance.now();
const loadAtStart = loadAverage();
const startedAt = new Date().toISOString();
const run = (scenario: Omit<ScenarioOptions, 'log'>): Promise<ScenarioResult> =>
  runScenario({
    ...scenario,
    log: (message) =>
      console.error(`[${new Date().toISOString().slice(11, 19)} ${scenario.name}] ${message}`),
  });
const results: ScenarioResult[] = [];
try {
  if (values.serial) for (const scenario of scenarios) results.push(await run(scenario));
  else results.push(...(await Promise.all(scenarios.map(run))));
} finally {
  await rm(folder, { recursive: true, force: true });
}
const summary = {
  startedAt,
  cases,
  jobMinutes: jobDurationMs / 60_000,
  rateLimit,
  mode: values.serial ? 'serial' : 'side by side',
  actionDir: path.resolve(values['action-dir']),
  seconds: Math.round((performance.now() - began) / 1000),
  load: { start: loadAtStart, end: loadAverage() },
  scenarios: results,
};

if (values.json) {
  console.log(JSON.stringify(summary, null, 2));
} else {
  for (const result of results) printScenario(result);
  console.log(
    `\n${cases} cases of one target, ${summary.jobMinutes}-minute jobs, rate limit ${rateLimit}/s, ` +
      `${summary.mode}: ${formatSeconds(summary.seconds)} in all; load average ${summary.load.start} → ${summary.load.end}\n`,
  );
  printTable(results);
}

function formatSeconds(seconds: number): string {
  return seconds < 60
    ? `${seconds} s`
    : `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

function n(value: number | null | undefined): string {
  return value == null ? 'n/a' : value.toLocaleString('en-US');
}

function counted(count: Count): string {
  return `${n(count.requests)} (${n(count.rateLimited)} × 429)`;
}

function printScenario(result: ScenarioResult): void {
  const { figures } = result;
  const say = (label: string, text: string) => console.log(`  ${label.padEnd(34)} ${text}`);
  console.log(`\n== ${result.name}: ${result.cases} cases, ${result.jobMinutes}-minute jobs ==`);
  say(
    'wall time',
    `nightly ${formatSeconds(result.seconds.nightly)} (shards ${formatSeconds(result.seconds.shards)}, ` +
      `report ${formatSeconds(result.seconds.report)})` +
      (result.seconds.rerun !== undefined ? `; re-run ${formatSeconds(result.seconds.rerun)}` : ''),
  );
  say('load average', `${result.load.start} → ${result.load.end}`);
  say('whole nightly (shards + report)', counted(figures.nightly));
  say(`start phase (${figures.startPhase.seconds} s)`, counted(figures.startPhase));
  const window = figures.steady.window;
  say(
    'steady',
    window
      ? `${n(figures.steady.requests)} requests in ${window.seconds} s (${window.from.slice(11, 23)} → ` +
          `${window.to.slice(11, 23)}): ${figures.steady.perMinute} a minute, ${n(figures.steady.perHour)} an hour`
      : 'n/a: the start phase lasted past the first job’s end',
  );
  say('429 answers in all', n(figures.nightly.rateLimited));
  say('report step', counted(figures.report));
  say(
    'report outputs',
    `exit ${result.report.exitCode}; ${Object.entries(result.report.outputs)
      .map(([key, value]) => `${key}=${value}`)
      .join(' ')}` + (result.report.error ? `; ${result.report.error}` : ''),
  );
  if (figures.otherPipeline.requests > 0 || result.otherPipeline) {
    const other = result.otherPipeline;
    say(
      'other pipeline (left out above)',
      `${counted(figures.otherPipeline)} in the journal` +
        (other
          ? `; ${n(other.created)} of ${n(other.jobs)} jobs created in ${formatSeconds(Math.round(other.elapsedMs / 1000))}`
          : '') +
        (other?.errors.length ? `; errors: ${other.errors.slice(0, 3).join(' | ')}` : ''),
    );
  }
  if (figures.rerun && result.rerunSteps) {
    const steps = result.rerunSteps;
    const before = steps.map((step) => step.beforeFirstStart);
    say(
      're-run (attempt 2, rerun-failed)',
      `${figures.rerun.shardsStarted} of ${result.shards} shards started a case, the last after ` +
        `${figures.rerun.lastFirstStartSeconds ?? 'n/a'} s; ${counted(figures.rerun.all)} until stopped`,
    );
    say(
      '  before first starts (journal)',
      `${n(figures.rerun.beforeFirstStart)} before the first shard's, ${n(figures.rerun.beforeLastFirstStart)} before the last shard's`,
    );
    say(
      '  each shard before its own start',
      `${n(before.reduce((a, b) => a + b, 0))} in all, ${Math.min(...before)}–${Math.max(...before)} a shard ` +
        `(shards that start nothing: all they send)`,
    );
    say(
      '  by endpoint, before the last start',
      Object.entries(figures.rerun.byEndpoint)
        .map(([endpoint, count]) => `${endpoint} ${count.requests}`)
        .join('; '),
    );
  }
  console.log('  requests by endpoint (whole nightly):');
  for (const [endpoint, count] of Object.entries(figures.byEndpoint)) {
    console.log(
      `    ${endpoint.padEnd(60)} ${n(count.requests).padStart(7)}  ${count.rateLimited ? `429: ${count.rateLimited}` : ''}`,
    );
  }
  console.log('  shards (exit, post exit, outputs, requests by its proxy, seconds):');
  for (const step of result.shardSteps) printStep(step);
  if (result.rerunSteps) {
    console.log('  re-run shards (as above; requests before its first case start):');
    for (const step of result.rerunSteps) {
      printStep(step, `${step.startedCase ? 'started' : 'no start'}, ${step.beforeFirstStart} before`);
    }
  }
  if (result.journalGaps > 0)
    console.log(`  WARNING: ${result.journalGaps} journal readings did not overlap`);
}

function printStep(step: StepFigures, extra = ''): void {
  const flags = `${step.cancelled ? ' cancelled' : ''}${step.timedOut ? ' TIMED OUT' : ''}`;
  console.log(
    `    ${step.step.padEnd(11)} exit ${step.exitCode} post ${step.postExitCode}  ` +
      `total=${step.outputs['total'] ?? '-'} passed=${step.outputs['passed'] ?? '-'} failed=${step.outputs['failed'] ?? '-'}  ` +
      `${counted(step)}  ${step.seconds} s${flags}${extra ? `  ${extra}` : ''}${step.error ? `  ${step.error}` : ''}`,
  );
}

function printTable(rows: readonly ScenarioResult[]): void {
  const header = [
    'shards',
    'nightly requests',
    'steady/min',
    'steady/hour',
    '429s',
    'report requests',
    're-run requests before first start',
  ];
  const lines = rows.map((row) => {
    const before = row.rerunSteps?.map((step) => step.beforeFirstStart);
    return [
      row.otherJobs > 0 ? `${row.shards} + ${n(row.otherJobs)} other jobs` : String(row.shards),
      n(row.figures.nightly.requests),
      row.figures.steady.perMinute === null ? 'n/a' : String(row.figures.steady.perMinute),
      n(row.figures.steady.perHour),
      `${n(row.figures.nightly.rateLimited)} (${n(row.figures.startPhase.rateLimited)} in start)`,
      n(row.figures.report.requests),
      before ? `${n(before.reduce((a, b) => a + b, 0))} (≤ ${Math.max(...before)} a shard)` : '',
    ];
  });
  console.log(markdownTable(header, lines));
}
