/**
 * The fault matrix, end to end: every action's committed bundle, run as the runner runs it (post
 * step included) against an emulator of its own, under refused inputs, rate limits, service errors
 * and cut connections, answers slower than `timeout`, and the runner's cancellation at each stage.
 * Each case checks the exit code, the message (what happened, and what to do), the outputs, and
 * what the service was left with: the journal of requests, no duplicate build or run, and no job
 * left queued or running.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SauceClient } from '@sauce-actions/api';
// The sample writers are not among the emulator's package exports.
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answeredRequests,
  closeLabs,
  errorsOf,
  leakedSecrets,
  MOBILE,
  openLab,
  requestsTo,
  SAUCE,
  statusesOf,
  type ActionName,
  type FaultSpec,
  type JournalEntry,
  type Lab,
  type StepExtras,
  type StepRun,
} from './support/lab.ts';

const SMOKE_ID = '3e0a6b2d-8c41-4f7a-9b5e-6d2c1a0f9e01';
const SMOKE_BUILD = 'Smoke #1.1';
const SUITES = '/v1/ai-authoring/testsuites';
const CASES = '/v1/ai-authoring/testcases';
const SUITE_RUN = `/v1/ai-authoring/testsuites/${SMOKE_ID}/run`;
const JOBS = '/rest/v1/demo/jobs';
const JOB_STOP = /^\/rest\/v1\/demo\/jobs\/[0-9a-f]{32}\/stop$/;
const JS_START = '/rest/v1/demo/js-tests';
const JS_STATUS = '/rest/v1/demo/js-tests/status';
const TUNNELS = '/rest/v1/demo/tunnels';
const TUNNEL_DELETE = /^\/rest\/v1\/demo\/tunnels\/[^/]+$/;
const UPLOAD = '/api/upload/';
const GROUPS = '/api/1/testers/groups';
const TESTERS = '/api/1/testers/';
const INVITES = '/api/1/projects/1/builds/1/invites/';

/** Smoke has a failing case: with `fail-on-failure: false` a finished run is a green step. */
const SUITE_INPUTS = { ...SAUCE, suite: 'Smoke', 'poll-interval': '1s' };
const SUITE_GREEN = { ...SUITE_INPUTS, 'fail-on-failure': 'false' };
const JS_INPUTS = {
  ...SAUCE,
  url: 'https://example.com/tests.html',
  framework: 'custom',
  platforms: 'Windows 11 / chrome / latest\nLinux / firefox / 126',
  'poll-interval': '1s',
};
const JS_PLATFORMS = ['Windows 11 / chrome / latest', 'Linux / firefox / 126'];
const UPLOAD_INPUTS = { 'api-key': MOBILE['api-key'], file: 'app-release.apk' };
/** One request of each kind: a group to create (`launch`), a tester to add, then the invitation. */
const INVITE_INPUTS = {
  ...MOBILE,
  'project-id': '1',
  'build-id': '1',
  groups: 'qa, launch',
  'create-groups': 'true',
  testers: 'dave@example.com',
  'tester-group': 'nightly',
};
const INVITED = {
  'build-id': '1',
  'invited-groups': 'qa,launch,nightly',
  'added-testers': 'dave@example.com',
  'refused-testers': '',
  // `launch` by the step, `nightly` by the service when the tester was added to it.
  'created-groups': 'launch,nightly',
};
const TUNNEL_INPUTS = { ...SAUCE, 'tunnel-name': 'demo-tunnel', 'poll-interval': '1s' };

/** Jobs that end before the first poll (a second after the start, the shortest poll-interval). */
const SHORT_JOBS_MS = 500;

/** Audit kinds of the mobile emulator: testers added to a group, groups invited to a build. */
const AUDIT = { invited: 1200, added: 1201 } as const;
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type CancelSignal = (typeof SIGNALS)[number];

let workspace: string;

beforeAll(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'e2e-fault-matrix-'));
  await createSampleApk(path.join(workspace, 'app-release.apk'), {
    packageId: 'com.example.demo',
    name: 'Demo Shop',
    version: '1.4.2',
    versionCode: 42,
  });
  await mkdir(path.join(workspace, 'builds'));
  await mkdir(path.join(workspace, 'reports'));
});

afterAll(async () => {
  await closeLabs();
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

/** Runs a step in the shared workspace and checks that no key leaked in any phase. */
async function step(
  lab: Lab,
  action: ActionName,
  inputs: Record<string, string>,
  extras: StepExtras = {},
): Promise<StepRun> {
  const result = await lab.step(action, inputs, { workspace, ...extras });
  expect(leakedSecrets(result), `a key leaked in ${action}`).toEqual([]);
  return result;
}

/** The step's failure: the first error annotation. */
function failureOf(result: StepRun): string {
  return errorsOf(result)[0] ?? '';
}

/** The heading of the summary's last section: the failure's, when the step failed. */
function lastHeading(result: StepRun): string | undefined {
  return [...result.summary.matchAll(/<h2>(.*?)<\/h2>/g)].at(-1)?.[1];
}

/** A post step that found nothing to clean up, and sent nothing. */
function expectIdlePost(result: StepRun): void {
  expect(result.post?.exitCode, result.post?.log).toBe(0);
  expect(result.post?.log).toContain('Nothing to clean up.');
  expect(answeredRequests(result.post?.stdout ?? '')).toEqual([]);
}

/** Every journal entry came from the main step: each answered request there logged one line. */
function expectOnlyMainRequests(result: StepRun, journal: readonly JournalEntry[]): void {
  expect(journal.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual(
    answeredRequests(result.stdout),
  );
}

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

/** What the mobile store holds: builds, a group by name, and audit entries by kind. */
function mobileState(lab: Lab): {
  builds: number;
  groups: (name: string) => number;
  audits: (kind: number) => number;
} {
  const { data } = lab.emulator.context.mobile;
  return {
    builds: data.builds.length,
    groups: (name) => data.groups.filter((group) => group.name === name).length,
    audits: (kind) => data.audits.filter((audit) => audit.actionType === kind).length,
  };
}

/** A lab with one uploaded build (project 1, build 1) and a clear journal, for invite-testers. */
async function inviteLab(): Promise<Lab> {
  const lab = await openLab();
  const client = new SauceClient({ apiUrl: lab.url, email: MOBILE.email, apiKey: MOBILE['api-key'] });
  try {
    const uploaded = await client.mobile.upload(path.join(workspace, 'app-release.apk'), {});
    expect([uploaded.project_id, uploaded.build_id].map(String)).toEqual(['1', '1']);
  } finally {
    await client.close();
  }
  await lab.clearJournal();
  return lab;
}

/** The ids of a `job-ids` output, sorted. */
function sortedIds(jobIds: string | undefined): string[] {
  return (JSON.parse(jobIds ?? '[]') as string[]).sort();
}

/** The ids of the jobs the step created, sorted. */
function jobIdsOf(lab: Lab): string[] {
  return lab
    .jobs()
    .map((job) => job.id)
    .sort();
}

/** A step's outputs: exactly these, or at least these. */
type ExpectedOutputs = { exactly: Record<string, string> } | { including: Record<string, string> };

function expectOutputs(result: StepRun, outputs: ExpectedOutputs): void {
  if ('exactly' in outputs) expect(result.outputs).toEqual(outputs.exactly);
  else expect(result.outputs).toMatchObject(outputs.including);
}

describe.concurrent('bad inputs are refused before any request', { timeout: 60_000 }, () => {
  const cases: {
    action: ActionName;
    base: Record<string, string>;
    bad: { inputs: Record<string, string>; input: string; problem: RegExp }[];
  }[] = [
    {
      action: 'upload-build',
      base: UPLOAD_INPUTS,
      bad: [
        {
          inputs: { timeout: '2147484' },
          input: 'timeout',
          problem: /has 2147484, which is longer than 24h/,
        },
        { inputs: { timeout: '-5' }, input: 'timeout', problem: /has "-5", which is not a duration/ },
        { inputs: { file: 'builds' }, input: 'file', problem: /names \S*builds, which is not a file/ },
        { inputs: { notify: 'maybe' }, input: 'notify', problem: /has "maybe", which is not a boolean/ },
        {
          inputs: { 'landing-page-mode': 'public' },
          input: 'landing-page-mode',
          problem: /has "public"\. Allowed: `open`, `closed`/,
        },
      ],
    },
    {
      action: 'invite-testers',
      base: { ...MOBILE, 'project-id': '1', 'build-id': '1', groups: 'qa' },
      bad: [
        {
          inputs: { 'project-id': 'abc' },
          input: 'project-id',
          problem: /has "abc", which is not a positive whole number/,
        },
        {
          inputs: { 'build-id': '1.5' },
          input: 'build-id',
          problem: /has "1\.5", which is not a positive whole number/,
        },
        {
          inputs: { testers: 'not-an-email', 'tester-group': 'nightly' },
          input: 'testers',
          problem: /has an invalid email: "not-an-email"/,
        },
        { inputs: { notify: 'maybe' }, input: 'notify', problem: /has "maybe", which is not a boolean/ },
      ],
    },
    {
      action: 'run-suite-and-wait',
      base: SUITE_INPUTS,
      bad: [
        {
          inputs: { timeout: '2147484' },
          input: 'timeout',
          problem: /has 2147484, which is longer than 24h/,
        },
        {
          inputs: { 'poll-interval': '0' },
          input: 'poll-interval',
          problem: /has 0, which is shorter than 1s/,
        },
        {
          inputs: { suite: '', 'test-cases': 'not-a-case-id' },
          input: 'test-cases',
          problem: /has item 1 "not-a-case-id", which is not 24 hexadecimal digits/,
        },
        {
          inputs: { 'junit-file': 'reports' },
          input: 'junit-file',
          problem: /names "[^"]*reports", which is a folder/,
        },
        {
          inputs: { 'stop-on-cancel': 'maybe' },
          input: 'stop-on-cancel',
          problem: /has "maybe", which is not a boolean/,
        },
      ],
    },
    {
      action: 'run-js-tests',
      base: JS_INPUTS,
      bad: [
        { inputs: { timeout: '-5' }, input: 'timeout', problem: /has "-5", which is not a duration/ },
        {
          inputs: { 'poll-interval': '0' },
          input: 'poll-interval',
          problem: /has 0, which is shorter than 1s/,
        },
        {
          inputs: { 'max-duration': '99h' },
          input: 'max-duration',
          problem: /has 99h, which is longer than 3h/,
        },
        {
          inputs: { 'junit-file': 'reports' },
          input: 'junit-file',
          problem: /names "[^"]*reports", which is a folder/,
        },
      ],
    },
    {
      action: 'manage-tunnel',
      base: TUNNEL_INPUTS,
      bad: [
        {
          inputs: { 'stop-on-exit': 'maybe' },
          input: 'stop-on-exit',
          problem: /has "maybe"\. Allowed: `started`/,
        },
        {
          inputs: { timeout: '2147484' },
          input: 'timeout',
          problem: /has 2147484, which is longer than 24h/,
        },
        {
          inputs: { 'poll-interval': '0' },
          input: 'poll-interval',
          problem: /has 0, which is shorter than 1s/,
        },
        {
          inputs: { operation: 'restart' },
          input: 'operation',
          problem: /has "restart"\. Allowed: `wait`, `list`, `stop`, `start`/,
        },
      ],
    },
  ];

  it.each(cases)('$action', async ({ action, base, bad }) => {
    const lab = await openLab();
    await lab.clearJournal();
    for (const { inputs, input, problem } of bad) {
      const result = await step(lab, action, { ...base, ...inputs });
      const what = `${action} with ${JSON.stringify(inputs)}`;
      expect(result.exitCode, what).toBe(1);
      const errors = errorsOf(result);
      expect(errors, what).toHaveLength(1);
      expect(errors[0], what).toMatch(new RegExp(`^Input "${input}" `));
      expect(errors[0], what).toMatch(problem);
      expect(errors[0], what).toMatch(/Fix the input and run the step again\.$/);
      expect(result.outputs, what).toEqual({});
      expect(lastHeading(result), what).toMatch(/: bad input$/);
      if (result.post) expectIdlePost(result);
      expect(await lab.journal(), what).toEqual([]);
    }
    expect(lab.jobs()).toEqual([]);
    expect(mobileState(lab).builds).toBe(0);
  });
});

describe.concurrent('429 on each POST: waited out, sent again, done once', { timeout: 60_000 }, () => {
  const rows: {
    name: string;
    action: ActionName;
    lab: () => Promise<Lab>;
    inputs: Record<string, string>;
    /** The POSTs answered 429 once: each is sent again, once. */
    sentTwice: string[];
    /** The answer the second time, when it is always the same. */
    answered?: number;
    outputs: ExpectedOutputs;
    /** What the service is left with, and what the step said. */
    then: (lab: Lab, result: StepRun) => void;
  }[] = [
    {
      name: 'upload-build',
      action: 'upload-build',
      lab: () => openLab(),
      inputs: UPLOAD_INPUTS,
      sentTwice: [UPLOAD],
      answered: 200,
      outputs: {
        including: { 'build-id': '1', 'project-id': '1', 'app-name': 'Demo Shop', 'app-version': '1.4.2' },
      },
      then: (lab, result) => {
        expect(result.log).toContain(
          'uploadBuild: 429 Too Many Requests; retrying in 1.0s, as the service asked',
        );
        expect(mobileState(lab).builds).toBe(1);
      },
    },
    {
      name: 'invite-testers: creating the group, adding the tester, inviting',
      action: 'invite-testers',
      lab: inviteLab,
      inputs: INVITE_INPUTS,
      sentTwice: [GROUPS, TESTERS, INVITES],
      outputs: { exactly: INVITED },
      then: (lab) => {
        const state = mobileState(lab);
        expect(state.groups('launch')).toBe(1);
        expect(state.audits(AUDIT.added)).toBe(1);
        expect(state.audits(AUDIT.invited)).toBe(1);
      },
    },
    {
      name: 'run-suite-and-wait: the suite run',
      action: 'run-suite-and-wait',
      lab: () => openLab({ jobDurationMs: SHORT_JOBS_MS }),
      inputs: SUITE_GREEN,
      sentTwice: [SUITE_RUN],
      answered: 200,
      outputs: { including: { 'build-name': SMOKE_BUILD, total: '3', passed: '2', failed: '1' } },
      then: (lab, result) => {
        expect(lab.emulator.context.authoring.data.suiteRuns).toHaveLength(1);
        expect(lab.jobs()).toHaveLength(3);
        expect(sortedIds(result.outputs['job-ids'])).toEqual(jobIdsOf(lab));
        expect(lab.leftRunning()).toEqual([]);
        expectIdlePost(result);
      },
    },
    {
      name: 'run-js-tests: the start',
      action: 'run-js-tests',
      lab: () => openLab({ jobDurationMs: SHORT_JOBS_MS }),
      inputs: JS_INPUTS,
      sentTwice: [JS_START],
      answered: 200,
      outputs: { including: { total: '2', passed: '2', failed: '0' } },
      then: (lab, result) => {
        expect(Object.keys(lab.emulator.context.automation.data.jsTests)).toHaveLength(2);
        expect(sortedIds(result.outputs['job-ids'])).toEqual(jobIdsOf(lab));
        expect(lab.leftRunning()).toEqual([]);
        expectIdlePost(result);
      },
    },
  ];

  it.each(rows)('$name', async ({ action, lab: open, inputs, sentTwice, answered, outputs, then }) => {
    const lab = await open();
    await lab.fault(
      ...sentTwice.map((target): FaultSpec => ({ method: 'POST', path: target, status: 429, retryAfter: 1 })),
    );
    const result = await step(lab, action, inputs);
    expect(result.exitCode, result.log).toBe(0);
    expectOutputs(result, outputs);
    const journal = await lab.journal();
    for (const target of sentTwice) {
      const statuses = statusesOf(journal, 'POST', target);
      expect(statuses, target).toHaveLength(2);
      expect(statuses[0], target).toBe(429);
      if (answered !== undefined) expect(statuses[1], target).toBe(answered);
      expect(statuses[1], target).toBeGreaterThanOrEqual(200);
      expect(statuses[1], target).toBeLessThan(300);
    }
    then(lab, result);
  });
});

describe.concurrent('503 bursts and cut connections on reads: retried', { timeout: 60_000 }, () => {
  const faults = {
    '503 twice': (method: string, faultPath: string | RegExp): FaultSpec => ({
      method,
      path: faultPath,
      status: 503,
      times: 2,
    }),
    'a cut connection': (method: string, faultPath: string | RegExp): FaultSpec => ({
      method,
      path: faultPath,
      drop: true,
    }),
  };
  const expected = { '503 twice': [503, 503, 200], 'a cut connection': [0, 200] };
  const kinds = Object.keys(faults) as (keyof typeof faults)[];

  it.each(kinds)('upload-build, listing the tester groups: %s', async (kind) => {
    const lab = await openLab();
    await lab.fault(faults[kind]('GET', GROUPS));
    const result = await step(lab, 'upload-build', { ...UPLOAD_INPUTS, email: MOBILE.email, groups: 'qa' });
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs).toMatchObject({ 'build-id': '1', 'project-id': '1' });
    // The groups were checked, not skipped with a warning.
    expect(result.annotations.filter((a) => a.level === 'warning').map((a) => a.message)).not.toContainEqual(
      expect.stringContaining('Could not check the tester groups'),
    );
    const journal = await lab.journal();
    expect(statusesOf(journal, 'GET', GROUPS)).toEqual(expected[kind]);
    expect(statusesOf(journal, 'POST', UPLOAD)).toEqual([200]);
    expect(mobileState(lab).builds).toBe(1);
  });

  it.each(kinds)('invite-testers, listing the tester groups: %s', async (kind) => {
    const lab = await inviteLab();
    await lab.fault(faults[kind]('GET', GROUPS));
    const result = await step(lab, 'invite-testers', INVITE_INPUTS);
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs).toEqual(INVITED);
    const journal = await lab.journal();
    // Listed twice: before creating the group, and after adding the tester.
    expect(statusesOf(journal, 'GET', GROUPS)).toEqual([...expected[kind], 200]);
    for (const target of [GROUPS, TESTERS, INVITES])
      expect(requestsTo(journal, 'POST', target)).toHaveLength(1);
    expect(mobileState(lab).audits(AUDIT.invited)).toBe(1);
  });

  it.each(kinds)(
    'run-suite-and-wait, finding the suite, its cases and listing the jobs: %s',
    async (kind) => {
      const lab = await openLab({ jobDurationMs: SHORT_JOBS_MS });
      await lab.fault(faults[kind]('GET', SUITES), faults[kind]('GET', CASES), faults[kind]('GET', JOBS));
      const result = await step(lab, 'run-suite-and-wait', SUITE_GREEN);
      expect(result.exitCode, result.log).toBe(0);
      expect(result.outputs).toMatchObject({
        'build-name': SMOKE_BUILD,
        total: '3',
        passed: '2',
        failed: '1',
      });
      const journal = await lab.journal();
      for (const target of [SUITES, CASES])
        expect(statusesOf(journal, 'GET', target), target).toEqual(expected[kind]);
      expect(statusesOf(journal, 'GET', JOBS).slice(0, expected[kind].length)).toEqual(expected[kind]);
      expect(statusesOf(journal, 'POST', SUITE_RUN)).toEqual([200]);
      expect(lab.emulator.context.authoring.data.suiteRuns).toHaveLength(1);
      expect(lab.jobs()).toHaveLength(3);
      expect(lab.leftRunning()).toEqual([]);
    },
  );

  it.each(kinds)('run-js-tests, asking the status (a POST that only reads): %s', async (kind) => {
    const lab = await openLab({ jobDurationMs: SHORT_JOBS_MS });
    await lab.fault(faults[kind]('POST', JS_STATUS));
    const result = await step(lab, 'run-js-tests', JS_INPUTS);
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs).toMatchObject({ total: '2', passed: '2', failed: '0' });
    const journal = await lab.journal();
    expect(statusesOf(journal, 'POST', JS_STATUS).slice(0, expected[kind].length)).toEqual(expected[kind]);
    expect(statusesOf(journal, 'POST', JS_START)).toEqual([200]);
    expect(lab.jobs()).toHaveLength(2);
    expect(lab.leftRunning()).toEqual([]);
  });

  it.each(kinds)('manage-tunnel wait, listing the tunnels: %s', async (kind) => {
    const lab = await openLab();
    await lab.fault(faults[kind]('GET', TUNNELS));
    const demo = lab.emulator.context.automation.tunnels
      .all()
      .find((t) => t.tunnel_identifier === 'demo-tunnel');
    const result = await step(lab, 'manage-tunnel', TUNNEL_INPUTS);
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs['tunnel-id']).toBe(demo?.id);
    expect(statusesOf(await lab.journal(), 'GET', TUNNELS)).toEqual(expected[kind]);
    expectIdlePost(result);
  });

  it.each(kinds)('manage-tunnel stop, deleting the tunnel (idempotent): %s', async (kind) => {
    const lab = await openLab();
    const tunnel = lab.emulator.context.automation.tunnels.create({
      owner: 'demo',
      tunnel_identifier: 'ci-tunnel',
    });
    await lab.fault(faults[kind]('DELETE', TUNNEL_DELETE));
    const result = await step(lab, 'manage-tunnel', {
      ...SAUCE,
      operation: 'stop',
      'tunnel-name': 'ci-tunnel',
    });
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs['tunnel-id']).toBe(tunnel.id);
    expect(statusesOf(await lab.journal(), 'DELETE', TUNNEL_DELETE)).toEqual(expected[kind]);
    expect(lab.emulator.context.automation.tunnels.get(tunnel.id)?.status).toBe('terminated');
    expect(
      lab.emulator.context.automation.tunnels.of('demo').filter((t) => t.status === 'terminated'),
    ).toHaveLength(1);
  });
});

describe.concurrent('503 and cut connections on POSTs that create: sent once', { timeout: 60_000 }, () => {
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

// The answers come long after the `timeout` of 3 s, so that the steps' ends tell the one from the
// other even where a loaded machine takes seconds to start the steps' processes.
const LATE_MS = 20_000;

describe.concurrent('an answer slower than `timeout`', { timeout: 60_000 }, () => {
  const TUNNEL_OUTPUTS = { exactly: { 'tunnel-id': '', tunnels: '[]', 'log-file': '' } };
  const rows: {
    name: string;
    action: ActionName;
    jobDurationMs?: number;
    late: FaultSpec;
    inputs: Record<string, string>;
    /** The step ends on its own `timeout` of 3 s, well before the late answer. */
    withinMs: number;
    failure: RegExp;
    heading?: string;
    outputs: ExpectedOutputs;
    then: (lab: Lab, result: StepRun) => Promise<void>;
  }[] = [
    {
      name: 'upload-build: the upload is not taken in time',
      action: 'upload-build',
      late: { method: 'POST', path: UPLOAD, delayMs: LATE_MS },
      inputs: UPLOAD_INPUTS,
      withinMs: 12_000,
      failure:
        /^The service did not take app-release\.apk within 3s of receiving it \(`timeout`\)\. It may still store the build: check the project's builds in Sauce Labs mobile app distribution before uploading again\. Raise `timeout`/,
      heading: 'Upload build: timed out',
      outputs: { exactly: {} },
      then: async (lab) => {
        expect(requestsTo(await lab.journal(), 'POST', UPLOAD)).toHaveLength(1);
        expect(mobileState(lab).builds).toBe(0);
      },
    },
    {
      name: 'run-suite-and-wait: the job listing',
      action: 'run-suite-and-wait',
      late: { method: 'GET', path: JOBS, delayMs: LATE_MS },
      inputs: SUITE_INPUTS,
      withinMs: 14_000,
      failure: new RegExp(
        `^Timed out while waiting for build "${SMOKE_BUILD}": 0 of 3 job\\(s\\) finished \\(0 passed, 0 failed\\); 3 did not finish and 3 were stopped\\. Raise \`timeout\` \\(now 3s\\)`,
      ),
      heading: 'Run suite and wait: timed out',
      outputs: { including: { 'build-name': SMOKE_BUILD, total: '3', passed: '0', failed: '0' } },
      then: async (lab, result) => {
        expect(sortedIds(result.outputs['job-ids'])).toEqual(jobIdsOf(lab));
        expect(lab.jobs().map((job) => job.stoppedMs !== null)).toEqual([true, true, true]);
        expect(lab.leftRunning()).toEqual([]);
        expect(requestsTo(await lab.journal(), 'PUT', JOB_STOP)).toHaveLength(3);
        expectIdlePost(result);
      },
    },
    {
      name: 'run-js-tests: the status',
      action: 'run-js-tests',
      // Queued for the first 4 s: the stop waits for each job to be assigned.
      jobDurationMs: 20_000,
      late: { method: 'POST', path: JS_STATUS, delayMs: LATE_MS },
      inputs: JS_INPUTS,
      withinMs: 15_000,
      failure:
        /^The JS tests did not finish within the timeout \(\d+s\)\. No platform finished\. Did not finish: Windows 11 \/ chrome \/ latest \(stopped before it finished\); Linux \/ firefox \/ 126 \(stopped before it finished\)\. Raise `timeout`/,
      heading: 'Run JS tests: timed out',
      outputs: { including: { total: '2', passed: '0', failed: '0' } },
      then: async (lab, result) => {
        expect(sortedIds(result.outputs['job-ids'])).toEqual(jobIdsOf(lab));
        expect(lab.jobs().map((job) => job.stoppedMs !== null)).toEqual([true, true]);
        expect(lab.leftRunning()).toEqual([]);
        expectIdlePost(result);
      },
    },
    {
      name: 'manage-tunnel list: the listing',
      action: 'manage-tunnel',
      late: { method: 'GET', path: TUNNELS, delayMs: LATE_MS },
      inputs: { ...SAUCE, operation: 'list' },
      withinMs: 12_000,
      failure:
        /^Timed out: the `timeout` of 3s passed during listTunnels\. Raise `timeout` if the step needs longer\.$/,
      outputs: TUNNEL_OUTPUTS,
      then: async (_lab, result) => expectIdlePost(result),
    },
    {
      name: 'manage-tunnel wait: the listing',
      action: 'manage-tunnel',
      late: { method: 'GET', path: TUNNELS, delayMs: LATE_MS },
      inputs: TUNNEL_INPUTS,
      withinMs: 12_000,
      failure:
        /^The tunnel named "demo-tunnel" of user demo was not running within 3s \(no answer yet\)\. .*raise `timeout`/,
      outputs: TUNNEL_OUTPUTS,
      then: async (_lab, result) => expectIdlePost(result),
    },
  ];

  it.each(rows)(
    '$name',
    async ({ action, jobDurationMs, late, inputs, withinMs, failure, heading, outputs, then }) => {
      const lab = await openLab(jobDurationMs !== undefined ? { jobDurationMs } : {});
      await lab.fault(late);
      const result = await step(lab, action, { ...inputs, timeout: '3s' });
      expect(result.exitCode).toBe(1);
      expect(result.elapsedMs).toBeLessThan(withinMs);
      expect(failureOf(result)).toMatch(failure);
      if (heading !== undefined) expect(lastHeading(result)).toBe(heading);
      expectOutputs(result, outputs);
      await then(lab, result);
    },
  );
});

/** How the runner's cancellation reaches a step at one stage: faults that hold it there, and the trigger. */
interface Stage {
  name: string;
  faults: (signal: CancelSignal) => FaultSpec[];
  cancel: Omit<StepExtras, 'cancelSignal'>;
  /** Whether the start request was carried out (then its jobs exist, and must have been stopped). */
  started: boolean;
  /** Whether the step has nothing left to do once cancelled: it ends within moments of the signal. */
  quick?: boolean;
  /** A line the step must not have printed (a progress line, when the cancel came first). */
  notPrinted?: RegExp;
  printed?: RegExp;
}

/**
 * How long a held request takes to be answered: long enough for the cancel to land while it is
 * pending. After SIGINT the step has 10 s before the kill; after SIGTERM only 2.5 s, in which it
 * must also find and stop what was started, so the hold is short.
 */
const hold = (signal: CancelSignal): number => (signal === 'SIGINT' ? 2000 : 400);
/** A held start request is also answered within the 2.5 s the step waits for a start's answer once cancelled. */
const startHold = (signal: CancelSignal): number => (signal === 'SIGINT' ? 700 : 400);

/**
 * Checks how a cancelled main step ended, and tells whether it reported: exit 1, its failure
 * written. With SIGINT it must. With SIGTERM the harness repeats the signal at once and kills 2.5 s
 * later, while the step stops listening to signals as soon as its work is done, before it
 * publishes (packages/action-kit/src/hosts/github-host.ts, runStep): a step with nothing left to do
 * (`quick`) can then be ended by the repeated signal, or by the kill while it waits out its start
 * grace, without a report. What it did is then told by the service's state alone.
 */
function expectCancelled(result: StepRun, signal: CancelSignal, quick = false): boolean {
  expect(result.cancelled, 'the cancel was triggered').toBe(true);
  if (signal === 'SIGTERM' && quick && result.exitCode === null) {
    expect(['SIGTERM', 'SIGKILL']).toContain(result.signal);
    return false;
  }
  expect(result.signal, result.log).toBeNull();
  expect(result.exitCode, result.log).toBe(1);
  return true;
}

describe.concurrent('run-suite-and-wait cancelled by the runner', { timeout: 60_000 }, () => {
  const stages: Stage[] = [
    {
      name: 'before the start request',
      faults: () => [{ method: 'GET', path: CASES, delayMs: 3000 }],
      cancel: { cancelOn: /^::debug::GET \/v1\/ai-authoring\/testsuites\?\S* -> 200 /m },
      started: false,
      quick: true,
    },
    {
      // The start follows the listing of the suite's cases without a pause: the signal, sent once
      // that listing is answered, reaches the step after the start request went out.
      name: 'during the start request',
      faults: (signal) => [{ method: 'POST', path: SUITE_RUN, delayMs: startHold(signal) }],
      cancel: { cancelOn: /^::debug::GET \/v1\/ai-authoring\/testcases\?\S* -> 200 /m },
      started: true,
    },
    {
      name: 'before the first listing',
      faults: (signal) => [{ method: 'GET', path: JOBS, delayMs: hold(signal) }],
      cancel: { cancelOn: /^::debug::POST \S+\/run -> 200 /m },
      started: true,
      notPrinted: /^\d+ of 3 jobs: /m,
    },
    {
      name: 'while waiting',
      faults: () => [],
      cancel: { cancelOn: /^\d+ of 3 jobs: /m },
      started: true,
      printed: /^3 of 3 jobs: /m,
    },
  ];
  const cases = stages.flatMap((stage) => SIGNALS.map((signal) => ({ ...stage, signal })));

  it.each(cases)('$signal $name', async ({ signal, faults, cancel, started, quick, notPrinted, printed }) => {
    const lab = await openLab();
    await lab.fault(...faults(signal));
    const result = await step(lab, 'run-suite-and-wait', SUITE_INPUTS, { ...cancel, cancelSignal: signal });
    const reported = expectCancelled(result, signal, quick);
    if (notPrinted) expect(result.stdout).not.toMatch(notPrinted);
    if (printed) expect(result.stdout).toMatch(printed);
    const journal = await lab.journal();
    if (!started) {
      if (reported) {
        expect(failureOf(result)).toMatch(
          new RegExp(`^Cancelled: the run was cancelled \\(${signal}\\) during listTestCases\\.$`),
        );
        expect(lastHeading(result)).toBe('Run suite and wait: cancelled');
        expect(result.outputs).toEqual({});
      }
      expect(requestsTo(journal, 'POST', SUITE_RUN)).toEqual([]);
      expect(lab.emulator.context.authoring.data.suiteRuns).toEqual([]);
      expect(lab.jobs()).toEqual([]);
    } else {
      expect(failureOf(result)).toMatch(
        new RegExp(
          `^Cancelled while (starting the runs of|waiting for) build "${SMOKE_BUILD}": 0 of 3 job\\(s\\) finished \\(0 passed, 0 failed\\); 3 did not finish and 3 were stopped\\.$`,
        ),
      );
      expect(lastHeading(result)).toBe('Run suite and wait: cancelled');
      expect(result.summary).toContain('3 stopped');
      expect(statusesOf(journal, 'POST', SUITE_RUN)).toEqual([200]);
      expect(lab.emulator.context.authoring.data.suiteRuns).toHaveLength(1);
      expect(result.outputs).toMatchObject({
        'build-name': SMOKE_BUILD,
        total: '3',
        passed: '0',
        failed: '0',
      });
      const jobs = lab.jobs();
      expect(jobs).toHaveLength(3);
      expect(sortedIds(result.outputs['job-ids'])).toEqual(jobIdsOf(lab));
      // Stopped by the step, not ended on their own.
      expect(jobs.map((job) => job.stoppedMs !== null)).toEqual([true, true, true]);
      const stops = requestsTo(journal, 'PUT', JOB_STOP).map((entry) => entry.path);
      expect(stops.sort()).toEqual(jobs.map((job) => `${JOBS}/${job.id}/stop`).sort());
    }
    expect(lab.leftRunning()).toEqual([]);
    expectIdlePost(result);
  });
});

describe.concurrent('run-js-tests cancelled by the runner', { timeout: 60_000 }, () => {
  const stages: Stage[] = [
    {
      // The start is the step's first request: it is held by a 429 whose Retry-After outlasts the
      // start's grace, so the cancel comes before the service carried anything out.
      name: 'before the start request',
      faults: () => [{ method: 'POST', path: JS_START, status: 429, retryAfter: 5 }],
      cancel: { cancelOn: /^::debug::POST \/rest\/v1\/demo\/js-tests -> 429 /m },
      started: false,
      quick: true,
    },
    {
      // Cancelled as the step announces the start, which it sends whatever comes after that line
      // (the request outlives a cancellation by a grace period): the answer comes after the signal.
      name: 'during the start request',
      faults: (signal) => [{ method: 'POST', path: JS_START, delayMs: startHold(signal) }],
      cancel: { cancelOn: /^Starting custom tests of /m },
      started: true,
    },
    {
      name: 'before the first status',
      faults: (signal) => [{ method: 'POST', path: JS_STATUS, delayMs: hold(signal) }],
      cancel: { cancelOn: /^::debug::POST \/rest\/v1\/demo\/js-tests -> 200 /m },
      started: true,
      notPrinted: /platforms finished: /,
    },
    {
      name: 'while waiting',
      faults: () => [],
      cancel: { cancelOn: /^\d+ of 2 platforms finished: /m },
      started: true,
      printed: /^0 of 2 platforms finished: /m,
    },
  ];
  const cases = stages.flatMap((stage) => SIGNALS.map((signal) => ({ ...stage, signal })));

  it.each(cases)('$signal $name', async ({ signal, faults, cancel, started, quick, notPrinted, printed }) => {
    // A job is queued for a fifth of its duration and gets its id only then: it can be stopped
    // within the step's stopping time after SIGINT (6 s), or before the kill that follows SIGTERM
    // (2.5 s), and well before it would end on its own.
    const lab = await openLab({ jobDurationMs: signal === 'SIGINT' ? 15_000 : 2000 });
    await lab.fault(...faults(signal));
    const result = await step(lab, 'run-js-tests', JS_INPUTS, { ...cancel, cancelSignal: signal });
    const reported = expectCancelled(result, signal, quick);
    if (notPrinted) expect(result.stdout).not.toMatch(notPrinted);
    if (printed) expect(result.stdout).toMatch(printed);
    const journal = await lab.journal();
    if (!started) {
      if (reported) {
        expect(failureOf(result)).toBe(`Cancelled: the run was cancelled (${signal}) during startJsTests.`);
        expect(lastHeading(result)).toBe('Run JS tests: cancelled');
        expect(result.outputs).toEqual({});
      }
      // Refused once, never sent again.
      expect(statusesOf(journal, 'POST', JS_START)).toEqual([429]);
      expect(lab.emulator.context.automation.data.jsTests).toEqual({});
      expect(lab.jobs()).toEqual([]);
    } else {
      expect(failureOf(result)).toBe(
        `The run was cancelled before the JS tests finished. No platform finished. Did not finish: ${JS_PLATFORMS.map((p) => `${p} (stopped before it finished)`).join('; ')}.`,
      );
      expect(lastHeading(result)).toBe('Run JS tests: cancelled');
      expect(statusesOf(journal, 'POST', JS_START)).toEqual([200]);
      expect(Object.keys(lab.emulator.context.automation.data.jsTests)).toHaveLength(2);
      expect(result.outputs).toMatchObject({ total: '2', passed: '0', failed: '0' });
      const jobs = lab.jobs();
      expect(jobs).toHaveLength(2);
      expect(sortedIds(result.outputs['job-ids'])).toEqual(jobIdsOf(lab));
      expect(jobs.map((job) => job.stoppedMs !== null)).toEqual([true, true]);
      const stops = requestsTo(journal, 'PUT', JOB_STOP).map((entry) => entry.path);
      expect(stops.sort()).toEqual(jobs.map((job) => `${JOBS}/${job.id}/stop`).sort());
    }
    expect(lab.leftRunning()).toEqual([]);
    expectIdlePost(result);
  });
});

describe.concurrent('a start held by a 429 is not sent after a cancel', { timeout: 60_000 }, () => {
  // The start request outlives a cancellation by a grace period, so that an answer on its way is
  // not lost; the cancellation still ends the client's wait for the Retry-After of a 429, and the
  // start is not sent again (the client's `sendUntil`).
  const rows: {
    action: ActionName;
    jobDurationMs?: number;
    inputs: Record<string, string>;
    start: string;
    cancelOn: RegExp;
    failure: RegExp;
    nothingStarted: (lab: Lab) => void;
  }[] = [
    {
      action: 'run-suite-and-wait',
      inputs: SUITE_INPUTS,
      start: SUITE_RUN,
      cancelOn: /^::debug::POST \S+\/run -> 429 /m,
      failure: /^Cancelled: the run was cancelled \(SIGINT\) during runSuite\./,
      nothingStarted: (lab) => expect(lab.emulator.context.authoring.data.suiteRuns).toEqual([]),
    },
    {
      action: 'run-js-tests',
      jobDurationMs: 20_000,
      inputs: JS_INPUTS,
      start: JS_START,
      cancelOn: /^::debug::POST \/rest\/v1\/demo\/js-tests -> 429 /m,
      failure: /^Cancelled: the run was cancelled \(SIGINT\) during startJsTests\.$/,
      nothingStarted: () => {},
    },
  ];

  it.each(rows)(
    '$action',
    async ({ action, jobDurationMs, inputs, start, cancelOn, failure, nothingStarted }) => {
      const lab = await openLab(jobDurationMs !== undefined ? { jobDurationMs } : {});
      await lab.fault({ method: 'POST', path: start, status: 429, retryAfter: 2 });
      const result = await step(lab, action, inputs, { cancelOn });
      expect(expectCancelled(result, 'SIGINT')).toBe(true);
      expect(statusesOf(await lab.journal(), 'POST', start)).toEqual([429]);
      nothingStarted(lab);
      expect(lab.jobs()).toEqual([]);
      expect(failureOf(result)).toMatch(failure);
    },
  );
});

describe.concurrent('manage-tunnel wait cancelled by the runner', { timeout: 60_000 }, () => {
  const stages = [
    {
      // Cancelled as the inputs are read (the key is masked at once): the first listing, if it went
      // out before the signal, is held unanswered.
      name: 'before the first listing is answered',
      tunnel: 'demo-tunnel',
      faults: [{ method: 'GET', path: TUNNELS, delayMs: 4000 }],
      cancel: { cancelOn: /^::add-mask::/m },
      listings: [0, 1],
    },
    {
      name: 'while waiting',
      tunnel: 'ci-tunnel',
      faults: [],
      cancel: { cancelOn: /^Waiting for the tunnel named "ci-tunnel": \w+ booting$/m },
      listings: [1, Infinity],
    },
  ];
  const cases = stages.flatMap((stage) => SIGNALS.map((signal) => ({ ...stage, signal })));

  it.each(cases)('$signal $name', async ({ signal, tunnel, faults, cancel, listings }) => {
    const lab = await openLab();
    const booting = lab.emulator.context.automation.tunnels.create({
      owner: 'demo',
      tunnel_identifier: 'ci-tunnel',
      status: 'booting',
    });
    await lab.fault(...faults);
    const result = await step(
      lab,
      'manage-tunnel',
      // With `true` even a tunnel it only waited for is stopped after the job: here it found none.
      { ...TUNNEL_INPUTS, 'tunnel-name': tunnel, 'stop-on-exit': 'true' },
      { ...cancel, cancelSignal: signal },
    );
    if (expectCancelled(result, signal, true)) {
      expect(failureOf(result)).toBe(
        'The run was cancelled during `wait`; the post step stops whatever this step had started.',
      );
      expect(result.outputs).toEqual({ 'tunnel-id': '', tunnels: '[]', 'log-file': '' });
    }
    const journal = await lab.journal();
    const listed = requestsTo(journal, 'GET', TUNNELS).length;
    expect(listed).toBeGreaterThanOrEqual(listings[0]!);
    expect(listed).toBeLessThanOrEqual(listings[1]!);
    expect(requestsTo(journal, 'DELETE', TUNNEL_DELETE)).toEqual([]);
    const tunnels = lab.emulator.context.automation.tunnels.all();
    expect(tunnels.find((t) => t.tunnel_identifier === 'demo-tunnel')?.status).toBe('running');
    expect(tunnels.find((t) => t.id === booting.id)?.status).toBe('booting');
    expectIdlePost(result);
  });
});

describe.concurrent('the post step', { timeout: 60_000 }, () => {
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
