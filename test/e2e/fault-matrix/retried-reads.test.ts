/**
 * The fault matrix, end to end, on reads: every action's committed bundle, run as the runner runs
 * it (post step included) against an emulator of its own that answers a read with 503 twice, or
 * cuts its connection. Each row checks that the read was asked again until answered, and the step
 * ended as without the fault: the exit code, the outputs, the journal of requests, no duplicate
 * build or run, and no job left queued or running.
 */
import { expect } from 'vitest';
import {
  describeRows,
  INVITED,
  mobileState,
  SMOKE_BUILD,
  STEP,
  tunnels,
  withWorkspace,
} from '../support/fault-matrix.ts';
import type { Row } from '../support/fault-matrix.ts';
import * as route from '../support/routes.ts';
import { MOBILE, SAUCE, warningsOf, type FaultSpec } from '../support/lab.ts';

const KINDS = {
  '503 twice': { fault: { status: 503, times: 2 }, answered: [503, 503, 200] },
  'a cut connection': { fault: { drop: true }, answered: [0, 200] },
} as const;
type Kind = keyof typeof KINDS;

/** Each read of one kind of fault, and how the step ends once it is answered. */
function reads(kind: Kind): Row[] {
  const { fault, answered } = KINDS[kind];
  const faulty = (method: string, ...targets: (string | RegExp)[]): FaultSpec[] =>
    targets.map((target) => ({ method, path: target, ...fault }));
  return [
    {
      name: `upload-build, listing the tester groups: ${kind}`,
      action: 'upload-build',
      inputs: { ...STEP.upload.inputs, email: MOBILE.email, groups: 'qa' },
      faults: faulty('GET', route.GROUPS),
      outputsIncluding: { 'build-id': '1', 'project-id': '1' },
      sent: [
        ['GET', route.GROUPS, [...answered]],
        ['POST', route.UPLOAD, [200]],
      ],
      then: (lab, result) => {
        // The groups were checked, not skipped with a warning.
        expect(warningsOf(result)).not.toContainEqual(
          expect.stringContaining('Could not check the tester groups'),
        );
        expect(mobileState(lab).builds).toBe(1);
      },
    },
    {
      name: `invite-testers, listing the tester groups: ${kind}`,
      ...STEP.invite,
      faults: faulty('GET', route.GROUPS),
      outputs: INVITED,
      sent: [
        // Listed twice: before creating the group, and after adding the tester.
        ['GET', route.GROUPS, [...answered, 200]],
        ['POST', route.GROUPS, [200]],
        ['POST', route.TESTERS, [200]],
        ['POST', route.INVITES, [200]],
      ],
      then: (lab) => expect(mobileState(lab).audits('invited')).toBe(1),
    },
    {
      name: `run-suite-and-wait, finding the suite, its cases and listing the jobs: ${kind}`,
      ...STEP.suiteGreen,
      faults: faulty('GET', route.SUITES, route.CASES, route.JOBS),
      outputsIncluding: { 'build-name': SMOKE_BUILD, total: '3', passed: '2', failed: '1' },
      sent: [
        ['GET', route.SUITES, [...answered]],
        ['GET', route.CASES, [...answered]],
        ['GET', route.JOBS, [...answered], 'first'],
        ['POST', route.SUITE_RUN, [200]],
      ],
      jobs: 3,
      then: (lab) => expect(lab.emulator.context.authoring.data.suiteRuns).toHaveLength(1),
    },
    {
      name: `run-js-tests, asking the status (a POST that only reads): ${kind}`,
      ...STEP.jsGreen,
      faults: faulty('POST', route.JS_STATUS),
      outputsIncluding: { total: '2', passed: '2', failed: '0' },
      sent: [
        ['POST', route.JS_STATUS, [...answered], 'first'],
        ['POST', route.JS_START, [200]],
      ],
      jobs: 2,
    },
    {
      name: `manage-tunnel wait, listing the tunnels: ${kind}`,
      ...STEP.tunnel,
      faults: faulty('GET', route.TUNNELS),
      sent: [['GET', route.TUNNELS, [...answered]]],
      post: 'idle',
      then: (lab, result) => expect(result.outputs['tunnel-id']).toBe(tunnels.named(lab, 'demo-tunnel')!.id),
    },
    {
      name: `manage-tunnel stop, deleting the tunnel (idempotent): ${kind}`,
      action: 'manage-tunnel',
      lab: tunnels.labWithCi('running'),
      inputs: { ...SAUCE, operation: 'stop', 'tunnel-name': 'ci-tunnel' },
      faults: faulty('DELETE', route.TUNNEL_DELETE),
      sent: [['DELETE', route.TUNNEL_DELETE, [...answered]]],
      then: (lab, result) => {
        const tunnel = tunnels.named(lab, 'ci-tunnel')!;
        expect(result.outputs['tunnel-id']).toBe(tunnel.id);
        expect(tunnel.status).toBe('terminated');
        expect(tunnels.named(lab, 'demo-tunnel')?.status).toBe('running');
      },
    },
  ];
}

withWorkspace();
describeRows(
  '503 bursts and cut connections on reads: retried',
  (Object.keys(KINDS) as Kind[]).flatMap(reads),
);
