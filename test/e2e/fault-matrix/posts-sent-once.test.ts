/**
 * The fault matrix, end to end, on the POSTs that create something: every action's committed
 * bundle, run as the runner runs it (post step included) against an emulator of its own that
 * answers such a POST with 503, or cuts its connection. Each case checks that the POST was sent
 * once and never again: the exit code, the message (what may have been done, and where to look),
 * the outputs, the journal of requests, and what the service was left with.
 */
import { describe, expect, it } from 'vitest';
import {
  AUDIT,
  expectIdlePost,
  failureOf,
  GROUPS,
  INVITE_INPUTS,
  inviteLab,
  INVITES,
  JOBS,
  JS_INPUTS,
  JS_START,
  JS_STATUS,
  mobileState,
  step,
  SUITE_INPUTS,
  SUITE_RUN,
  TESTERS,
  UPLOAD,
  UPLOAD_INPUTS,
  withWorkspace,
} from '../support/fault-matrix.ts';
import {
  openLab,
  requestsTo,
  statusesOf,
  type ActionName,
  type FaultSpec,
  type Lab,
} from '../support/lab.ts';

withWorkspace();

/** A request that was never sent again: the message says what may have happened and where to look. */
function mayHaveBeenDone(how: '503' | 'cut', operation: string, effect: string, where: string): RegExp {
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const what =
    how === '503'
      ? `^Sauce Labs failed while handling the request: ${operation}: 503 .*the service may have carried it out, so it was not sent again`
      : `^The connection to Sauce Labs was cut after the request was sent: ${operation}: the connection was cut after the request was sent .*the service may have carried it out, so it was not sent again`;
  return new RegExp(
    `${what}.*Sending ${operation} again could do it twice, and it may have ${escape(effect)} already: check ${escape(where)} before running the step again\\.`,
  );
}

describe.concurrent('503 and cut connections on POSTs that create: sent once', () => {
  const faults = {
    '503': (faultPath: string | RegExp): FaultSpec => ({ method: 'POST', path: faultPath, status: 503 }),
    cut: (faultPath: string | RegExp): FaultSpec => ({ method: 'POST', path: faultPath, drop: true }),
  };
  const answered = { '503': 503, cut: 0 };
  const kinds = ['503', 'cut'] as const;

  it.each(kinds)('upload-build, the upload: %s', async (kind) => {
    const lab = await openLab();
    await lab.fault(faults[kind](UPLOAD));
    const result = await step(lab, 'upload-build', UPLOAD_INPUTS);
    expect(result.exitCode).toBe(1);
    expect(failureOf(result)).toMatch(
      mayHaveBeenDone(
        kind,
        'uploadBuild',
        'stored the build',
        "the project's builds in Sauce Labs mobile app distribution",
      ),
    );
    expect(result.outputs).toEqual({});
    expect(statusesOf(await lab.journal(), 'POST', UPLOAD)).toEqual([answered[kind]]);
    expect(mobileState(lab).builds).toBe(0);
  });

  const inviteSteps = [
    {
      name: 'creating the group',
      target: GROUPS,
      operation: 'createTesterGroup',
      effect: 'created the group',
      where: 'the tester groups in Sauce Labs mobile app distribution',
      outputs: {
        'build-id': '1',
        'invited-groups': '',
        'added-testers': '',
        'refused-testers': '',
        'created-groups': '',
      },
      notSent: [TESTERS, INVITES],
    },
    {
      name: 'adding the tester',
      target: TESTERS,
      operation: 'addTesters',
      effect: 'added the testers',
      where: 'the testers in Sauce Labs mobile app distribution',
      outputs: {
        'build-id': '1',
        'invited-groups': '',
        'added-testers': '',
        'refused-testers': '',
        'created-groups': 'launch',
      },
      notSent: [INVITES],
    },
    {
      name: 'inviting',
      target: INVITES,
      operation: 'inviteToBuild',
      effect: 'invited the testers',
      where: "the build's testers in Sauce Labs mobile app distribution",
      outputs: {
        'build-id': '1',
        'invited-groups': '',
        'added-testers': 'dave@example.com',
        'refused-testers': '',
        'created-groups': 'launch,nightly',
      },
      notSent: [],
    },
  ];
  const inviteCases = inviteSteps.flatMap((inviteStep) => kinds.map((kind) => ({ ...inviteStep, kind })));

  it.each(inviteCases)(
    'invite-testers, $name: $kind',
    async ({ target, kind, operation, effect, where, outputs, notSent }) => {
      const lab = await inviteLab();
      await lab.fault(faults[kind](target));
      const result = await step(lab, 'invite-testers', INVITE_INPUTS);
      expect(result.exitCode).toBe(1);
      expect(failureOf(result)).toMatch(mayHaveBeenDone(kind, operation, effect, where));
      expect(result.outputs).toEqual(outputs);
      const journal = await lab.journal();
      expect(statusesOf(journal, 'POST', target)).toEqual([answered[kind]]);
      for (const later of notSent) expect(requestsTo(journal, 'POST', later), later).toEqual([]);
      const state = mobileState(lab);
      expect(state.groups('launch')).toBe(target === GROUPS ? 0 : 1);
      expect(state.audits(AUDIT.added)).toBe(target === INVITES ? 1 : 0);
      expect(state.audits(AUDIT.invited)).toBe(0);
    },
  );

  const starts: {
    action: ActionName;
    inputs: Record<string, string>;
    start: string;
    operation: string;
    effect: string;
    where: string;
    /** The request that would follow what the start started: never sent. */
    follow: { method: string; path: string };
    nothingStarted: (lab: Lab) => void;
  }[] = [
    {
      action: 'run-suite-and-wait',
      inputs: SUITE_INPUTS,
      start: SUITE_RUN,
      operation: 'runSuite',
      effect: 'started the suite run',
      where: "the suite's runs in Sauce Labs AI test authoring (or the builds on the dashboard)",
      follow: { method: 'GET', path: JOBS },
      nothingStarted: (lab) => expect(lab.emulator.context.authoring.data.suiteRuns).toEqual([]),
    },
    {
      action: 'run-js-tests',
      inputs: JS_INPUTS,
      start: JS_START,
      operation: 'startJsTests',
      effect: 'started the jobs',
      where: 'the jobs on the Sauce Labs dashboard',
      follow: { method: 'POST', path: JS_STATUS },
      nothingStarted: (lab) => expect(lab.emulator.context.automation.data.jsTests).toEqual({}),
    },
  ];
  const startCases = starts.flatMap((row) => kinds.map((kind) => ({ ...row, kind })));

  it.each(startCases)(
    '$action, the start: $kind',
    async ({ action, inputs, start, operation, effect, where, follow, nothingStarted, kind }) => {
      const lab = await openLab();
      await lab.fault(faults[kind](start));
      const result = await step(lab, action, inputs);
      expect(result.exitCode).toBe(1);
      expect(failureOf(result)).toMatch(mayHaveBeenDone(kind, operation, effect, where));
      expect(result.outputs).toEqual({});
      const journal = await lab.journal();
      expect(statusesOf(journal, 'POST', start)).toEqual([answered[kind]]);
      expect(requestsTo(journal, follow.method, follow.path)).toEqual([]);
      nothingStarted(lab);
      expect(lab.jobs()).toEqual([]);
      expect(lab.leftRunning()).toEqual([]);
      expectIdlePost(result);
    },
  );
});
