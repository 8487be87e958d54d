/**
 * One job of a workflow matrix, as its own process: finds the `Smoke` suite, runs it in a build of
 * its own, and follows the run's jobs to the end with the client's poller, listing whole jobs. It
 * prints one JSON line of figures (`MatrixJobFigures`) and exits 0 when every job finished.
 *
 * Usage: node bench/support/matrix-job.ts --url URL --index N [--pacing off] [--interval-ms 1000]
 *   [--timeout-ms 60000] [--start-at MS]
 *
 * `--start-at` (milliseconds since the epoch) holds the first request until then, so that jobs
 * started one after another still begin together, as matrix jobs can.
 */
import { parseArgs } from 'node:util';
import { poll, SauceClient, type Job } from '@sauce-actions/api';

export interface MatrixJobFigures {
  index: number;
  build: string;
  jobs: number;
  passed: number;
  failed: number;
  /** Every job of the run seen finished. */
  complete: boolean;
  polls: number;
  /** Polls whose requests met a 429 or a window with few requests left. */
  contendedPolls: number;
  /** 429 answers this process received (each waited out and sent again). */
  rateLimited: number;
  /** Requests the client held back by pacing, and for how long in all. */
  paced: number;
  pacedMs: number;
  elapsedMs: number;
  error?: string;
}

const FINISHED = new Set(['complete', 'error', 'passed', 'failed']);

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    index: { type: 'string', default: '1' },
    pacing: { type: 'string', default: 'on' },
    'interval-ms': { type: 'string', default: '1000' },
    'timeout-ms': { type: 'string', default: '60000' },
    'start-at': { type: 'string' },
  },
});
if (!values.url) throw new Error('--url is required');
const index = Number(values.index);
if (values['start-at'] !== undefined) {
  const wait = Number(values['start-at']) - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
const startedAtMs = Date.now();
const figures: MatrixJobFigures = {
  index,
  build: '',
  jobs: 0,
  passed: 0,
  failed: 0,
  complete: false,
  polls: 0,
  contendedPolls: 0,
  rateLimited: 0,
  paced: 0,
  pacedMs: 0,
  elapsedMs: 0,
};
const client = new SauceClient({
  username: 'demo',
  accessKey: 'demo-access-key',
  apiUrl: values.url,
  retry: { pacing: values.pacing !== 'off' },
  logger: {
    debug: (message) => {
      const paced = /: paced ([\d.]+) ?(ms|s) /.exec(message);
      if (!paced) return;
      figures.paced += 1;
      figures.pacedMs += Number(paced[1]) * (paced[2] === 's' ? 1000 : 1);
    },
    warn: (message) => {
      if (message.includes(': 429 ')) figures.rateLimited += 1;
    },
  },
});
const signal = AbortSignal.timeout(Number(values['timeout-ms']));
try {
  const suites = await client.authoring.testSuites.list({ search: 'Smoke' }, { signal });
  const suite = suites.items.find((item) => item.name === 'Smoke');
  if (!suite) throw new Error('no suite named Smoke');
  const run = await client.authoring.testSuites.run(
    suite.id,
    { buildName: `Smoke matrix ${index}` },
    { signal },
  );
  figures.build = run.buildName;
  const expected = run.runCount;
  const from = new Date(startedAtMs - 60_000);
  const jobs = await poll(
    async (checkSignal) =>
      (await client.automation.jobs.list(
        { full: true, from, limit: 100 },
        checkSignal ? { signal: checkSignal } : undefined,
      )) as Job[],
    (listed) => {
      const ours = listed.filter((job) => job.build === run.buildName);
      return ours.length >= expected && ours.every((job) => FINISHED.has(String(job.status)));
    },
    {
      intervalMs: Number(values['interval-ms']),
      timeoutMs: Number(values['timeout-ms']),
      signal,
      onCheck: (_value, info) => {
        figures.polls = info.attempt;
        if (info.contended) figures.contendedPolls += 1;
      },
    },
  );
  const ours = jobs.filter((job) => job.build === run.buildName);
  figures.jobs = ours.length;
  figures.passed = ours.filter((job) => job.passed === true).length;
  figures.failed = ours.length - figures.passed;
  figures.complete = true;
} catch (error) {
  figures.error = error instanceof Error ? error.message : String(error);
} finally {
  await client.close();
}
figures.elapsedMs = Date.now() - startedAtMs;
console.log(JSON.stringify(figures));
process.exitCode = figures.complete ? 0 : 1;
