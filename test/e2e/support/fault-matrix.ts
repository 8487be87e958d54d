/**
 * What the fault matrix's files (`test/e2e/fault-matrix/`) share: the actions' inputs and what
 * they output, the steps' workspace, and the row of a table (a step against a lab with faults, and
 * how it must end) with the one runner of every row.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_CONTEXT } from '@sauce-actions/action-harness';
import { githubRunKey, runToken } from '@sauce-actions/action-kit';
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
  SAUCE,
  statusesOf,
  type ActionName,
  type FaultSpec,
  type JournalEntry,
  type Lab,
  type StepExtras,
  type StepRun,
} from './lab.ts';
import { JOB_STOP, JOBS } from './routes.ts';

const { serverUrl, repository, runId } = DEFAULT_CONTEXT;
const RUN_TOKEN = runToken(githubRunKey(serverUrl, repository, runId)!);
/** Smoke's default build in the harness's run: run `run` (1 unless set), attempt 1, and the run's token. */
export const smokeBuild = (run = 1): string => `Smoke #${run}.1 · ${RUN_TOKEN}`;
export const SMOKE_BUILD = smokeBuild();

const SUITE_INPUTS = { ...SAUCE, suite: 'Smoke', 'poll-interval': '1s' };
export const JS_PLATFORMS = ['Windows 11 / chrome / latest', 'Linux / firefox / 126'];
const JS_INPUTS = {
  ...SAUCE,
  url: 'https://example.com/tests.html',
  framework: 'custom',
  platforms: JS_PLATFORMS.join('\n'),
  'poll-interval': '1s',
};
/** Jobs that end before the first poll (a second after the start, the shortest poll-interval). */
const SHORT_JOBS = { jobDurationMs: 500 };

/** Each action with its inputs against the default seed (and the lab it needs), to spread into a row. */
export const STEP = {
  upload: { action: 'upload-build', inputs: { 'api-key': MOBILE['api-key'], file: 'app-release.apk' } },
  /** One request of each kind: a group to create (`launch`), a tester to add, then the invitation. */
  invite: {
    action: 'invite-testers',
    lab: inviteLab,
    inputs: {
      ...MOBILE,
      'project-id': '1',
      'build-id': '1',
      groups: 'qa, launch',
      'create-groups': 'true',
      testers: 'dave@example.com',
      'tester-group': 'nightly',
    },
  },
  suite: { action: 'run-suite-and-wait', inputs: SUITE_INPUTS },
  /** Smoke has a failing case: with `fail-on-failure: false` and jobs that end at once, a green step. */
  suiteGreen: {
    action: 'run-suite-and-wait',
    lab: SHORT_JOBS,
    inputs: { ...SUITE_INPUTS, 'fail-on-failure': 'false' },
  },
  js: { action: 'run-js-tests', inputs: JS_INPUTS },
  /** The JS tests pass on every platform: with jobs that end at once, a green step. */
  jsGreen: { action: 'run-js-tests', lab: SHORT_JOBS, inputs: JS_INPUTS },
  tunnel: {
    action: 'manage-tunnel',
    inputs: { ...SAUCE, 'tunnel-name': 'demo-tunnel', 'poll-interval': '1s' },
  },
} satisfies Record<string, Pick<Row, 'action' | 'inputs' | 'lab'>>;

/** invite-testers' outputs when all went well. */
export const INVITED = {
  'build-id': '1',
  'invited-groups': 'qa,launch,nightly',
  'added-testers': 'dave@example.com',
  'refused-testers': '',
  // `launch` by the step, `nightly` by the service when the tester was added to it.
  'created-groups': 'launch,nightly',
};

let workspace: string;

/**
 * The steps' workspace, for the tests of the file that calls it: a sample build
 * (`app-release.apk`) and the folders `builds` and `reports`; after the tests, the file's labs are
 * closed and the workspace removed.
 */
export function withWorkspace(): void {
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
}

/** Runs a step in the shared workspace and checks that no key leaked in any phase. */
export async function step(
  lab: Lab,
  action: ActionName,
  inputs: Record<string, string>,
  extras: StepExtras = {},
): Promise<StepRun> {
  const result = await lab.step(action, inputs, { workspace, ...extras });
  expect(leakedSecrets(result), `a key leaked in ${action}`).toEqual([]);
  return result;
}

/** What the mobile store holds: builds, groups by name, and audit entries of a kind. */
export function mobileState(lab: Lab) {
  const { data } = lab.emulator.context.mobile;
  const kinds = { invited: 1200, 'added testers': 1201 };
  return {
    builds: data.builds.length,
    groups: (name: string) => data.groups.filter((group) => group.name === name).length,
    audits: (kind: keyof typeof kinds) =>
      data.audits.filter((audit) => audit.actionType === kinds[kind]).length,
  };
}

/** A lab with one uploaded build (project 1, build 1) and a clear journal, for invite-testers. */
export async function inviteLab(): Promise<Lab> {
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

/** The account's tunnels: a lab with `ci-tunnel` in this state beside the seed's running `demo-tunnel`, and one by name. */
export const tunnels = {
  labWithCi: (status: 'booting' | 'running') => async (): Promise<Lab> => {
    const lab = await openLab();
    lab.emulator.context.automation.tunnels.create({ owner: 'demo', tunnel_identifier: 'ci-tunnel', status });
    return lab;
  },
  named: (lab: Lab, name: string): { id: string; status: string } | undefined =>
    lab.emulator.context.automation.tunnels.all().find((t) => t.tunnel_identifier === name),
};

/**
 * The statuses requests of one method to a matching path were answered, in order (0: the
 * connection was cut, [] none was sent); with `first`, the first of them (the polls after vary).
 */
export type Sent = [method: string, path: string | RegExp, statuses: number[], first?: 'first' | undefined];

/** A row of a table of the matrix: a step against a lab with faults, and how it must end. */
export interface Row {
  name: string;
  action: ActionName;
  inputs: Record<string, string>;
  /** A fresh lab with these options, or one the function made ready. */
  lab?: Parameters<typeof openLab>[0] | (() => Promise<Lab>);
  faults?: FaultSpec[];
  extras?: StepExtras | ((lab: Lab) => StepExtras);
  /** The main step's exit code (0 unless set), or a check of how it ended that tells whether it reported. */
  exit?: number | ((result: StepRun) => boolean);
  /** How long the runner may take for the step, its post phase included. */
  withinMs?: number;
  /** What a step that reported said: its failure (the first error), the summary's last heading. */
  failure?: string | RegExp;
  heading?: string | RegExp;
  /** Its outputs: exactly these, or at least these. */
  outputs?: Record<string, string>;
  outputsIncluding?: Record<string, string>;
  /** Lines the main step's log must show, and must not. */
  logged?: RegExp[];
  notLogged?: RegExp[];
  sent?: Sent[];
  /**
   * The jobs the step started, each stopped by a stop request (`stopped`) or none stopped: none is
   * left running, and a step that reported names them all in `job-ids`.
   */
  jobs?: number;
  stopped?: boolean;
  /** The post step: found nothing to clean up and sent nothing, or ended well with these in its log. */
  post?: 'idle' | string[];
  /** What else the service was left with, and what else the step said. */
  then?: (lab: Lab, result: StepRun, journal: JournalEntry[]) => unknown;
}

/** A table: its rows, run concurrently, each a test named by the row (in the file's `withWorkspace`). */
export function describeRows(title: string, rows: Row[], options: { timeout?: number } = {}): void {
  describe.concurrent(title, options, () => {
    it.each(rows)('$name', runRow);
  });
}

/** Runs a row: opens its lab, injects its faults, runs its step, and checks all the row names. */
async function runRow(row: Row): Promise<void> {
  const lab = typeof row.lab === 'function' ? await row.lab() : await openLab(row.lab);
  await lab.fault(...(row.faults ?? []));
  const extras = typeof row.extras === 'function' ? row.extras(lab) : row.extras;
  const result = await step(lab, row.action, row.inputs, extras);
  const exit = row.exit ?? 0;
  const reported = typeof exit === 'function' ? exit(result) : true;
  if (typeof exit === 'number') expect(result.exitCode, result.log).toBe(exit);
  if (row.withinMs !== undefined) expect(result.elapsedMs).toBeLessThan(row.withinMs);
  const said = (text: string | undefined, expected: string | RegExp | undefined, what: string) => {
    if (typeof expected === 'string') expect(text, what).toBe(expected);
    else if (expected) expect(text, what).toMatch(expected);
  };
  if (reported) {
    said(errorsOf(result)[0], row.failure, 'the failure');
    said([...result.summary.matchAll(/<h2>(.*?)<\/h2>/g)].at(-1)?.[1], row.heading, 'the last heading');
    if (row.outputs) expect(result.outputs).toEqual(row.outputs);
    if (row.outputsIncluding) expect(result.outputs).toMatchObject(row.outputsIncluding);
  }
  for (const line of row.logged ?? []) expect(result.log).toMatch(line);
  for (const line of row.notLogged ?? []) expect(result.log).not.toMatch(line);
  const journal = await lab.journal();
  for (const [method, target, statuses, first] of row.sent ?? []) {
    const answered = statusesOf(journal, method, target);
    expect(first ? answered.slice(0, statuses.length) : answered, `${method} ${target}`).toEqual(statuses);
  }
  if (row.jobs !== undefined) {
    const jobs = lab.jobs();
    const ids = jobs.map((job) => job.id).sort();
    expect(ids, 'the jobs the step started').toHaveLength(row.jobs);
    if (reported) expect((JSON.parse(result.outputs['job-ids'] ?? '[]') as string[]).sort()).toEqual(ids);
    expect(jobs.filter((job) => job.stoppedMs !== null)).toHaveLength(row.stopped ? row.jobs : 0);
    const stops = journal.filter((e) => e.method === 'PUT' && JOB_STOP.test(e.path)).map((e) => e.path);
    expect(stops.sort()).toEqual(row.stopped ? ids.map((id) => `${JOBS}/${id}/stop`) : []);
    expect(lab.leftRunning()).toEqual([]);
  }
  if (row.post !== undefined) expect(result.post?.exitCode, result.post?.log).toBe(0);
  for (const line of row.post === 'idle' ? ['Nothing to clean up.'] : (row.post ?? [])) {
    expect(result.post?.log).toContain(line);
  }
  if (row.post === 'idle') expect(answeredRequests(result.post?.stdout ?? '')).toEqual([]);
  await row.then?.(lab, result, journal);
}
