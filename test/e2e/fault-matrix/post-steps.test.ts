/**
 * The fault matrix, end to end, on the post steps: the committed bundles of the actions that have
 * one (run-suite-and-wait, run-js-tests, manage-tunnel), run as the runner runs them against an
 * emulator of its own. Each case checks what the post step did: it stops what a main step killed
 * outright had started, deletes a tunnel it was asked to, and sends nothing after a clean end.
 */
import { describe, expect, it } from 'vitest';
import {
  expectIdlePost,
  JOB_STOP,
  JOBS,
  JS_INPUTS,
  SHORT_JOBS_MS,
  SMOKE_BUILD,
  step,
  SUITE_GREEN,
  SUITE_INPUTS,
  TUNNEL_DELETE,
  TUNNEL_INPUTS,
  TUNNELS,
  withWorkspace,
} from '../support/fault-matrix.ts';
import {
  answeredRequests,
  openLab,
  requestsTo,
  statusesOf,
  type ActionName,
  type JournalEntry,
  type StepRun,
} from '../support/lab.ts';

withWorkspace();

/** Every journal entry came from the main step: each answered request there logged one line. */
function expectOnlyMainRequests(result: StepRun, journal: readonly JournalEntry[]): void {
  expect(journal.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual(
    answeredRequests(result.stdout),
  );
}

describe.concurrent('the post step', () => {
  const killed: {
    action: ActionName;
    jobDurationMs?: number;
    inputs: Record<string, string>;
    cancelOn: RegExp;
    jobs: number;
    postLog: string[];
    postSummary?: string;
  }[] = [
    {
      action: 'run-suite-and-wait',
      inputs: SUITE_INPUTS,
      cancelOn: /^3 of 3 jobs: /m,
      jobs: 3,
      postLog: [`stopping the unfinished jobs of build "${SMOKE_BUILD}"`, 'Stopped 3 unfinished job(s).'],
      postSummary: '(3 job(s) found): 3 unfinished job(s) were stopped',
    },
    {
      action: 'run-js-tests',
      jobDurationMs: 20_000,
      inputs: JS_INPUTS,
      cancelOn: /^\d+ of 2 platforms finished: /m,
      jobs: 2,
      postLog: ['Stopped 2 unfinished job(s).'],
    },
  ];

  it.each(killed)(
    '$action: stops the jobs of a main step killed while waiting',
    async ({ action, jobDurationMs, inputs, cancelOn, jobs: count, postLog, postSummary }) => {
      const lab = await openLab(jobDurationMs !== undefined ? { jobDurationMs } : {});
      const result = await step(lab, action, inputs, { cancelOn, cancelSignal: 'SIGKILL' });
      expect(result.signal).toBe('SIGKILL');
      expect(result.exitCode).toBeNull();
      expect(result.post?.exitCode, result.post?.log).toBe(0);
      for (const line of postLog) expect(result.post?.log).toContain(line);
      if (postSummary !== undefined) expect(result.post?.summary).toContain(postSummary);
      const jobs = lab.jobs();
      expect(jobs).toHaveLength(count);
      expect(jobs.map((job) => job.stoppedMs !== null)).toEqual(jobs.map(() => true));
      expect(lab.leftRunning()).toEqual([]);
      const stops = requestsTo(await lab.journal(), 'PUT', JOB_STOP).map((entry) => entry.path);
      expect(stops.sort()).toEqual(jobs.map((job) => `${JOBS}/${job.id}/stop`).sort());
      expect(answeredRequests(result.stdout).filter((line) => line.startsWith('PUT '))).toEqual([]);
    },
  );

  it('manage-tunnel: a wait killed before finding its tunnel leaves nothing to stop', async () => {
    const lab = await openLab();
    lab.emulator.context.automation.tunnels.create({
      owner: 'demo',
      tunnel_identifier: 'ci-tunnel',
      status: 'booting',
    });
    const result = await step(
      lab,
      'manage-tunnel',
      { ...TUNNEL_INPUTS, 'tunnel-name': 'ci-tunnel', 'stop-on-exit': 'true' },
      { cancelOn: /^Waiting for the tunnel named "ci-tunnel"/m, cancelSignal: 'SIGKILL' },
    );
    expect(result.signal).toBe('SIGKILL');
    expectIdlePost(result);
    expect(requestsTo(await lab.journal(), 'DELETE', TUNNEL_DELETE)).toEqual([]);
    expect(
      lab.emulator.context.automation.tunnels
        .all()
        .map((t) => t.status)
        .sort(),
    ).toEqual(['booting', 'running']);
  });

  it('manage-tunnel: deletes the tunnel a finished wait found, with stop-on-exit true', async () => {
    const lab = await openLab();
    const demo = lab.emulator.context.automation.tunnels.all()[0]!;
    const result = await step(lab, 'manage-tunnel', { ...TUNNEL_INPUTS, 'stop-on-exit': 'true' });
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs['tunnel-id']).toBe(demo.id);
    expect(result.post?.exitCode, result.post?.log).toBe(0);
    expect(statusesOf(await lab.journal(), 'DELETE', TUNNEL_DELETE)).toEqual([200]);
    expect(answeredRequests(result.post?.stdout ?? '')).toContain(`DELETE ${TUNNELS}/${demo.id} 200`);
    expect(answeredRequests(result.stdout).filter((line) => line.startsWith('DELETE '))).toEqual([]);
    expect(lab.emulator.context.automation.tunnels.get(demo.id)?.status).toBe('terminated');
  });

  const finished: { action: ActionName; inputs: Record<string, string>; jobs: number }[] = [
    { action: 'run-suite-and-wait', inputs: SUITE_GREEN, jobs: 3 },
    { action: 'run-js-tests', inputs: JS_INPUTS, jobs: 2 },
    { action: 'manage-tunnel', inputs: TUNNEL_INPUTS, jobs: 0 },
  ];

  it.each(finished)(
    '$action: sends no request after a main step that finished',
    async ({ action, inputs, jobs }) => {
      const lab = await openLab({ jobDurationMs: SHORT_JOBS_MS });
      const result = await step(lab, action, inputs);
      expect(result.exitCode, result.log).toBe(0);
      expectIdlePost(result);
      const journal = await lab.journal();
      expectOnlyMainRequests(result, journal);
      expect(requestsTo(journal, 'PUT', JOB_STOP)).toEqual([]);
      expect(lab.jobs()).toHaveLength(jobs);
      expect(lab.leftRunning()).toEqual([]);
    },
  );
});
