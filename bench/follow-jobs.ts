/**
 * Following jobs under the service's rate limit, on the emulator.
 *
 * - `large`: the requests needed to follow one large run: the job follower (list whole jobs of
 *   the run's build, a page at a time) against one request per unfinished job per poll.
 * - `shared`: the jobs of a workflow matrix sharing one account, each its own process: they find
 *   and run `Smoke` and follow its jobs to the end, with the client's pacing and without it, in
 *   turns, against the emulator's command line with `--rate-limit`. The 429s are the emulator's
 *   journal's.
 *
 * Usage: npm run bench:follow -- [--part large,shared] [--cases 100] [--targets 10] [--job-ms 20000]
 *   [--interval-ms 2000] [--jobs 6] [--rate-limit 4] [--stagger-ms 0] [--rounds 1]
 */
import { parseArgs } from 'node:util';
import { RequestPacer, REQUESTS_PER_SECOND } from '@sauce-actions/action-kit/step/request-pacer';
import { followJobs } from '@sauce-actions/action-kit/test-run/job-follower';
import { isJobFinished } from '@sauce-actions/action-kit/test-run/job-status';
import { SauceClient } from '@sauce-actions/api';
import { defaultSeed, startEmulator } from '@sauce-actions/emulator';
import { runMatrix, type MatrixResult } from './support/matrix.ts';
import { loadAverage, median, startEmulatorProcess } from './support/processes.ts';

const { values } = parseArgs({
  options: {
    part: { type: 'string', default: 'large,shared' },
    cases: { type: 'string', default: '100' },
    targets: { type: 'string', default: '10' },
    'job-ms': { type: 'string', default: '20000' },
    'interval-ms': { type: 'string', default: '2000' },
    jobs: { type: 'string', default: '6' },
    'rate-limit': { type: 'string', default: '4' },
    'stagger-ms': { type: 'string', default: '0' },
    rounds: { type: 'string', default: '1' },
  },
});
const parts = new Set(values.part.split(','));
const report: Record<string, unknown> = { loadAverageAtStart: loadAverage() };
if (parts.has('large')) report['largeRun'] = await largeRun();
if (parts.has('shared')) report['sharedAccount'] = await sharedAccount();
report['loadAverageAtEnd'] = loadAverage();
console.log(JSON.stringify(report, null, 2));

async function largeRun(): Promise<Record<string, unknown>> {
  const cases = Number(values.cases);
  const targets = Number(values.targets);
  const suiteId = '0b1e0000-0000-4000-8000-000000000001';
  const seed = defaultSeed();
  const target = (i: number) => ({
    capabilities: { browserName: 'chrome', browserVersion: String(100 + i), platformName: 'Linux' },
  });
  seed.authoring.testSuites = [{ id: suiteId, name: 'Large' }];
  seed.authoring.testCases = Array.from({ length: cases }, (_, c) => ({
    id: `b${String(c).padStart(23, '0')}`,
    name: `Case ${c}`,
    testSuiteId: suiteId,
    runSettings: {
      primaryTarget: target(0),
      additionalTargets: Array.from({ length: targets - 1 }, (_, t) => target(t + 1)),
    },
  }));

  // The emulator enforces the documented 10 requests a second: going over it would show as 429s.
  const emulator = await startEmulator({
    port: 0,
    seed,
    jobDurationMs: Number(values['job-ms']),
    rateLimit: 10,
  });
  const client = new SauceClient({ username: 'demo', accessKey: 'demo-access-key', apiUrl: emulator.url });
  try {
    const startedAtMs = Date.now();
    const run = await client.authoring.testSuites.run(suiteId, { buildName: 'Large' });
    await fetch(`${emulator.url}/_emulator/requests`, { method: 'DELETE' });
    let naive = 0;
    let previousUnfinished = cases * targets;
    const result = await followJobs({
      jobs: client.automation.jobs,
      builds: [run.buildName],
      expectedCount: cases * targets,
      startedAtMs,
      intervalMs: Number(values['interval-ms']),
      pacer: new RequestPacer(REQUESTS_PER_SECOND),
      onPoll: ({ jobs }) => {
        // One GET per job not yet known finished, at every poll.
        naive += previousUnfinished;
        previousUnfinished = cases * targets - jobs.length + jobs.filter((job) => !isJobFinished(job)).length;
      },
    });
    const { requests } = (await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as {
      requests: { time: string; status: number }[];
    };
    const perSecond = new Map<number, number>();
    for (const entry of requests) {
      const second = Math.floor(Date.parse(entry.time) / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    return {
      jobs: result.jobs.length,
      complete: result.complete,
      polls: result.polls,
      followerRequests: result.requests,
      journalRequests: requests.length,
      rateLimited: requests.filter((entry) => entry.status === 429).length,
      busiestSecond: Math.max(...perSecond.values()),
      onePerJobPerPollRequests: naive,
      onePerJobPerPollSecondsAt10PerSecond: Math.ceil(naive / 10),
      elapsedSeconds: Math.round(result.elapsedMs / 100) / 10,
    };
  } finally {
    await client.close();
    await emulator.close();
  }
}

/** One line of figures for a matrix run. */
function matrixFigures(pacing: boolean, result: MatrixResult): Record<string, unknown> {
  const seconds = (ms: number) => Math.round(ms / 100) / 10;
  const finished = result.jobs.filter((job) => job.complete);
  return {
    pacing: pacing ? 'on' : 'off',
    finished: `${finished.length} of ${result.jobs.length}`,
    rateLimited: result.rateLimited,
    requests: result.requests,
    medianJobSeconds: seconds(median(result.jobs.map((job) => job.elapsedMs))),
    slowestJobSeconds: seconds(Math.max(...result.jobs.map((job) => job.elapsedMs))),
    pacedRequests: result.jobs.reduce((sum, job) => sum + job.paced, 0),
    ...(finished.length < result.jobs.length
      ? { errors: result.jobs.flatMap((job) => (job.error ? [`job ${job.index}: ${job.error}`] : [])) }
      : {}),
  };
}

async function sharedAccount(): Promise<Record<string, unknown>> {
  const jobs = Number(values.jobs);
  const rateLimit = Number(values['rate-limit']);
  const staggerMs = Number(values['stagger-ms']);
  const emulator = await startEmulatorProcess([
    '--rate-limit',
    String(rateLimit),
    '--job-duration-ms',
    '2000',
  ]);
  const rounds: Record<string, unknown>[] = [];
  const limited: Record<'on' | 'off', number[]> = { on: [], off: [] };
  try {
    for (let round = 0; round < Number(values.rounds); round++) {
      // Who goes first alternates, so that neither always meets a machine still busy with the other.
      for (const pacing of round % 2 === 0 ? [true, false] : [false, true]) {
        await fetch(`${emulator.url}/_emulator/reset`, { method: 'POST' });
        const result = await runMatrix({ url: emulator.url, jobs, pacing, staggerMs, timeoutMs: 60_000 });
        limited[pacing ? 'on' : 'off'].push(result.rateLimited);
        rounds.push({ round: round + 1, ...matrixFigures(pacing, result) });
      }
    }
  } finally {
    await emulator.stop();
  }
  return {
    jobs,
    rateLimit,
    staggerMs,
    rounds,
    medianRateLimited: { pacing: median(limited.on), withoutPacing: median(limited.off) },
  };
}
