/**
 * What the fault matrix's files (`test/e2e/fault-matrix/`) share: the paths the steps call on the
 * emulator, the actions' inputs and what they output, the steps' workspace, and the checks of how a
 * step ended and of what the service was left with.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_CONTEXT } from '@sauce-actions/action-harness';
import { githubRunKey, runToken } from '@sauce-actions/action-kit';
import { SauceClient } from '@sauce-actions/api';
// The sample writers are not among the emulator's package exports.
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  answeredRequests,
  closeLabs,
  errorsOf,
  leakedSecrets,
  MOBILE,
  openLab,
  SAUCE,
  type ActionName,
  type Lab,
  type StepExtras,
  type StepRun,
} from './lab.ts';

/** Smoke's default build in the harness's run: run 1, attempt 1, and the token of the run's identity. */
export const SMOKE_BUILD = `Smoke #1.1 · ${runToken(
  githubRunKey(DEFAULT_CONTEXT.serverUrl, DEFAULT_CONTEXT.repository, DEFAULT_CONTEXT.runId)!,
)}`;
export {
  CASES,
  GROUPS,
  INVITES,
  JOB_STOP,
  JOBS,
  JS_START,
  JS_STATUS,
  SUITE_RUN,
  SUITES,
  TESTERS,
  TUNNEL_DELETE,
  TUNNELS,
  UPLOAD,
} from './routes.ts';

/** Smoke has a failing case: with `fail-on-failure: false` a finished run is a green step. */
export const SUITE_INPUTS = { ...SAUCE, suite: 'Smoke', 'poll-interval': '1s' };
export const SUITE_GREEN = { ...SUITE_INPUTS, 'fail-on-failure': 'false' };
export const JS_INPUTS = {
  ...SAUCE,
  url: 'https://example.com/tests.html',
  framework: 'custom',
  platforms: 'Windows 11 / chrome / latest\nLinux / firefox / 126',
  'poll-interval': '1s',
};
export const JS_PLATFORMS = ['Windows 11 / chrome / latest', 'Linux / firefox / 126'];
export const UPLOAD_INPUTS = { 'api-key': MOBILE['api-key'], file: 'app-release.apk' };
/** One request of each kind: a group to create (`launch`), a tester to add, then the invitation. */
export const INVITE_INPUTS = {
  ...MOBILE,
  'project-id': '1',
  'build-id': '1',
  groups: 'qa, launch',
  'create-groups': 'true',
  testers: 'dave@example.com',
  'tester-group': 'nightly',
};
export const INVITED = {
  'build-id': '1',
  'invited-groups': 'qa,launch,nightly',
  'added-testers': 'dave@example.com',
  'refused-testers': '',
  // `launch` by the step, `nightly` by the service when the tester was added to it.
  'created-groups': 'launch,nightly',
};
export const TUNNEL_INPUTS = { ...SAUCE, 'tunnel-name': 'demo-tunnel', 'poll-interval': '1s' };

/** Jobs that end before the first poll (a second after the start, the shortest poll-interval). */
export const SHORT_JOBS_MS = 500;

/** Audit kinds of the mobile emulator: testers added to a group, groups invited to a build. */
export const AUDIT = { invited: 1200, added: 1201 } as const;

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

/** The step's failure: the first error annotation. */
export function failureOf(result: StepRun): string {
  return errorsOf(result)[0] ?? '';
}

/** The heading of the summary's last section: the failure's, when the step failed. */
export function lastHeading(result: StepRun): string | undefined {
  return [...result.summary.matchAll(/<h2>(.*?)<\/h2>/g)].at(-1)?.[1];
}

/** A post step that found nothing to clean up, and sent nothing. */
export function expectIdlePost(result: StepRun): void {
  expect(result.post?.exitCode, result.post?.log).toBe(0);
  expect(result.post?.log).toContain('Nothing to clean up.');
  expect(answeredRequests(result.post?.stdout ?? '')).toEqual([]);
}

/** What the mobile store holds: builds, a group by name, and audit entries by kind. */
export function mobileState(lab: Lab): {
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

/** The ids of a `job-ids` output, sorted. */
export function sortedIds(jobIds: string | undefined): string[] {
  return (JSON.parse(jobIds ?? '[]') as string[]).sort();
}

/** The ids of the jobs the step created, sorted. */
export function jobIdsOf(lab: Lab): string[] {
  return lab
    .jobs()
    .map((job) => job.id)
    .sort();
}

/** A step's outputs: exactly these, or at least these. */
export type ExpectedOutputs = { exactly: Record<string, string> } | { including: Record<string, string> };

export function expectOutputs(result: StepRun, outputs: ExpectedOutputs): void {
  if ('exactly' in outputs) expect(result.outputs).toEqual(outputs.exactly);
  else expect(result.outputs).toMatchObject(outputs.including);
}
