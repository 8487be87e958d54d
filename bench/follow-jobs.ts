/**
 * Requests needed to follow a large run: the job follower (list whole jobs of the run's build, a
 * page at a time) against one request per unfinished job per poll, on the emulator.
 *
 * Usage: npm run bench:follow -- [--cases 100] [--targets 10] [--job-ms 20000] [--interval-ms 2000]
 */
import { parseArgs } from 'node:util';
import { followJobs, isJobFinished } from '@sauce-actions/action-kit/job-follower';
import { SauceClient } from '@sauce-actions/api';
import { defaultSeed, startEmulator } from '@sauce-actions/emulator';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '100' },
    targets: { type: 'string', default: '10' },
    'job-ms': { type: 'string', default: '20000' },
    'interval-ms': { type: 'string', default: '2000' },
  },
});
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
  console.log(
    JSON.stringify(
      {
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
      },
      null,
      2,
    ),
  );
} finally {
  await client.close();
  await emulator.close();
}
