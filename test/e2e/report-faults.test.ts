/**
 * `operation: report` of run-suite-and-wait on the bundle, against a strange service: rate limits,
 * 503 bursts and cut connections on the reads it makes are waited out and asked again; a service
 * that never answers well, an answer slower than `timeout` and the runner's cancel end the step
 * with a message that says what happened. Whatever happens, a report only reads: it never sends
 * anything that would start, stop or change a job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeLabs,
  errorsOf,
  leakedSecrets,
  openLab,
  SAUCE,
  statusesOf,
  type FaultSpec,
  type Lab,
} from './support/lab.ts';
import { CASES, JOBS, SUITES } from './support/routes.ts';

const CONTEXT = { runNumber: '5', runAttempt: '1', job: 'e2e' };
const REPORT = {
  ...SAUCE,
  operation: 'report',
  suite: 'Smoke',
  'fail-on-failure': 'false',
  timeout: '20s',
};

let lab: Lab;
/** How many jobs the two shards ran, and how many of them passed: what every good report counts. */
let ran: { total: number; passed: number };

beforeAll(async () => {
  lab = await openLab({ jobDurationMs: 300 });
  const shards = await Promise.all(
    ['1/2', '2/2'].map((shard) =>
      lab.step(
        'run-suite-and-wait',
        { ...SAUCE, suite: 'Smoke', shard, 'poll-interval': '1s', 'fail-on-failure': 'false' },
        { context: CONTEXT },
      ),
    ),
  );
  expect(shards.map((shard) => shard.exitCode)).toEqual([0, 0]);
  const sum = (name: string) => shards.reduce((total, shard) => total + Number(shard.outputs[name]), 0);
  ran = { total: sum('total'), passed: sum('passed') };
  expect(ran.total).toBeGreaterThan(1);
});

afterAll(closeLabs);

async function report(
  faults: FaultSpec[],
  inputs: Record<string, string> = {},
  /** The step's extras, made once the journal is cleared (a cancel on a request's arrival). */
  extras: () => Parameters<Lab['step']>[2] = () => ({}),
) {
  await fetch(`${lab.url}/_emulator/faults`, { method: 'DELETE' });
  await lab.clearJournal();
  await lab.fault(...faults);
  const step = await lab.step(
    'run-suite-and-wait',
    { ...REPORT, ...inputs },
    { context: { ...CONTEXT, job: 'report' }, ...extras() },
  );
  const journal = await lab.journal();
  // A report reads only: no job was started, stopped or changed, whatever the service did.
  expect(journal.filter((entry) => entry.method !== 'GET')).toEqual([]);
  expect(leakedSecrets(step)).toEqual([]);
  return { step, journal };
}

describe('operation: report under faults', () => {
  it.each<[string, FaultSpec[]]>([
    [
      'a 429 on the job listing, twice',
      [{ method: 'GET', path: JOBS, status: 429, retryAfter: 1, times: 2 }],
    ],
    ['a 429 on the suites', [{ method: 'GET', path: SUITES, status: 429, retryAfter: 1, times: 1 }]],
    ['503 twice on the job listing', [{ method: 'GET', path: JOBS, status: 503, times: 2 }]],
    ['503 on the cases', [{ method: 'GET', path: CASES, status: 503, times: 1 }]],
    ['a cut connection on the job listing', [{ method: 'GET', path: JOBS, drop: true, times: 1 }]],
  ])('%s: asked again, and the report counts every job', async (_, faults) => {
    const { step, journal } = await report(faults);
    expect(step.exitCode, step.log.slice(-2000)).toBe(0);
    expect(step.outputs).toMatchObject({ total: String(ran.total), passed: String(ran.passed) });
    const faulted = faults[0]!;
    const asked = journal.filter(
      (entry) => entry.method === 'GET' && entry.path.split('?')[0] === faulted.path,
    );
    expect(asked.length).toBeGreaterThan(faulted.times ?? 1);
  });

  it('a service that answers 503 to every listing: the step fails as service trouble, saying to try again', async () => {
    const { step } = await report([{ method: 'GET', path: JOBS, status: 503, times: 1000 }]);
    expect(step.exitCode).toBe(1);
    expect(errorsOf(step)[0]).toMatch(
      /^Sauce Labs could not handle the request: listJobs: 503 .*, 5 attempts\)/,
    );
    expect(errorsOf(step)[0]).toMatch(
      /trouble on the service side, not in the inputs: run the job again later/,
    );
  });

  it('an answer slower than `timeout`: the step ends at its timeout, saying so', async () => {
    // An answer that comes a minute later: the step ended while it was still held.
    const { step, journal } = await report([{ method: 'GET', path: JOBS, delayMs: 60_000, times: 100 }], {
      timeout: '3s',
    });
    expect(step.exitCode).toBe(1);
    expect(errorsOf(step)[0]).toMatch(
      /^Timed out: the `timeout` of 3s passed during listJobs\. Raise `timeout`/,
    );
    expect(statusesOf(journal, 'GET', JOBS)).toEqual([0]);
  });

  it('cancelled by the runner while it lists the jobs: ends at once, having started nothing', async () => {
    // Cancelled once the listing reached the service, which holds it a minute.
    const { step, journal } = await report(
      [{ method: 'GET', path: JOBS, delayMs: 60_000, times: 100 }],
      {},
      () => ({ cancelWhen: lab.arrived('GET', JOBS) }),
    );
    expect(step.exitCode).not.toBe(0);
    expect(step.killed).toBe(false);
    expect(errorsOf(step)).toEqual(['Cancelled: the run was cancelled (SIGINT) during listJobs.']);
    expect(statusesOf(journal, 'GET', JOBS)).toEqual([0]);
    expect(lab.leftRunning()).toEqual([]);
  });
});
