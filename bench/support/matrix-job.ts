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
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { isJobFinished } from '@sauce-actions/action-kit/test-run/job-status';
import { poll, SauceClient, type Job } from '@sauce-actions/api';
import { noFigures } from './matrix.ts';

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
if (values['start-at'] !== undefined) await sleep(Math.max(0, Number(values['start-at']) - Date.now()));
const startedAtMs = Date.now();
const figures = noFigures(index);
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
      return ours.length >= expected && ours.every(isJobFinished);
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
