/**
 * The fault matrix, end to end, on the post steps: the committed bundles of the actions that have
 * one (run-suite-and-wait, run-js-tests, manage-tunnel), run as the runner runs them against an
 * emulator of its own. Each row checks what the post step did: it stops what a main step killed
 * outright had started, deletes a tunnel it was asked to, and sends nothing after a clean end.
 */
import { expect } from 'vitest';
import { describeRows, SMOKE_BUILD, STEP, tunnels, withWorkspace } from '../support/fault-matrix.ts';
import type { Row } from '../support/fault-matrix.ts';
import * as route from '../support/routes.ts';
import { answeredRequests, type StepRun } from '../support/lab.ts';

/** The main step was killed outright (SIGKILL, as a runner that loses the job): it reported nothing. */
function killed(result: StepRun): boolean {
  expect(result.signal, result.log).toBe('SIGKILL');
  expect(result.exitCode).toBeNull();
  return false;
}

/** The requests of this method that the main step sent (each answered one logged a line). */
const mainSent = (result: StepRun, method: string): string[] =>
  answeredRequests(result.stdout).filter((line) => line.startsWith(`${method} `));

withWorkspace();
describeRows('the post step', [
  {
    name: 'run-suite-and-wait: stops the jobs of a main step killed while waiting',
    ...STEP.suite,
    extras: { cancelOn: /^3 of 3 jobs: /m, cancelSignal: 'SIGKILL' },
    exit: killed,
    jobs: 3,
    stopped: true,
    post: [`stopping the unfinished jobs of build "${SMOKE_BUILD}"`, 'Stopped 3 unfinished job(s).'],
    then: (_lab, result) => {
      expect(result.post?.summary).toContain('(3 job(s) found): 3 unfinished job(s) were stopped');
      expect(mainSent(result, 'PUT')).toEqual([]);
    },
  },
  {
    name: 'run-js-tests: stops the jobs of a main step killed while waiting',
    ...STEP.js,
    lab: { jobDurationMs: 20_000 },
    extras: { cancelOn: /^\d+ of 2 platforms finished: /m, cancelSignal: 'SIGKILL' },
    exit: killed,
    jobs: 2,
    stopped: true,
    post: ['Stopped 2 unfinished job(s).'],
    then: (_lab, result) => expect(mainSent(result, 'PUT')).toEqual([]),
  },
  {
    name: 'manage-tunnel: a wait killed before finding its tunnel leaves nothing to stop',
    action: 'manage-tunnel',
    lab: tunnels.labWithCi('booting'),
    inputs: { ...STEP.tunnel.inputs, 'tunnel-name': 'ci-tunnel', 'stop-on-exit': 'true' },
    extras: { cancelOn: /^Waiting for the tunnel named "ci-tunnel"/m, cancelSignal: 'SIGKILL' },
    exit: killed,
    post: 'idle',
    sent: [['DELETE', route.TUNNEL_DELETE, []]],
    then: (lab) => {
      expect(tunnels.named(lab, 'ci-tunnel')?.status).toBe('booting');
      expect(tunnels.named(lab, 'demo-tunnel')?.status).toBe('running');
    },
  },
  {
    name: 'manage-tunnel: deletes the tunnel a finished wait found, with stop-on-exit true',
    ...STEP.tunnel,
    inputs: { ...STEP.tunnel.inputs, 'stop-on-exit': 'true' },
    post: [],
    sent: [['DELETE', route.TUNNEL_DELETE, [200]]],
    then: (lab, result) => {
      const demo = tunnels.named(lab, 'demo-tunnel')!;
      expect(result.outputs['tunnel-id']).toBe(demo.id);
      expect(answeredRequests(result.post?.stdout ?? '')).toContain(`DELETE ${route.TUNNELS}/${demo.id} 200`);
      expect(mainSent(result, 'DELETE')).toEqual([]);
      expect(demo.status).toBe('terminated');
    },
  },
  ...(
    [
      [STEP.suiteGreen, 3],
      [STEP.jsGreen, 2],
      [STEP.tunnel, 0],
    ] as const
  ).map(([step, jobs]): Row => ({
    name: `${step.action}: sends no request after a main step that finished`,
    ...step,
    jobs,
    post: 'idle',
    // Every request in the journal came from the main step: each answered one logged a line.
    then: (_lab, result, journal) =>
      expect(journal.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual(
        answeredRequests(result.stdout),
      ),
  })),
]);
