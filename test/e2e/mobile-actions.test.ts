/**
 * End to end: the committed bundles of upload-build and invite-testers, run through the
 * runner-faithful harness against the emulator, as a workflow would run them.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runStep, type StepResult } from '@sauce-actions/action-harness';
import { SauceClient } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requestArrives, statusesOf, type JournalEntry } from './support/lab.ts';
// The sample writers are not among the emulator's package exports.
import { createSampleApk } from '@sauce-actions/emulator/samples';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const API_KEY = 'demo-api-key';
const WRONG_KEY = 'wrong-key-0f3c9a';
const EMAIL = 'demo@example.com';
/** Every form in which a key could leak: as is, URL-encoded, inside a Basic header. */
const OIDC_TOKEN = 'demo-oidc-token';
const SECRETS = [API_KEY, WRONG_KEY, OIDC_TOKEN, Buffer.from(`${EMAIL}:${API_KEY}`).toString('base64')];

let emulator: RunningEmulator;
let workspace: string;
const steps: StepResult[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  workspace = await mkdtemp(path.join(os.tmpdir(), 'e2e-mobile-'));
  await createSampleApk(path.join(workspace, 'app-release.apk'), {
    packageId: 'com.example.demo',
    name: 'Demo Shop',
    version: '1.4.2',
    versionCode: 42,
  });
  await writeFile(path.join(workspace, 'notes.md'), 'Faster checkout.\n');
  await writeFile(path.join(workspace, 'mapping.txt'), 'com.example.demo.A -> a:\n');
});

afterEach(async () => {
  await fetch(`${emulator.url}/_emulator/faults`, { method: 'DELETE' });
});

afterAll(async () => {
  await Promise.all(steps.map((step) => step.cleanup()));
  await emulator?.close();
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

async function step(
  action: string,
  inputs: Record<string, string>,
  env: Record<string, string> = {},
): Promise<StepResult> {
  const result = await runStep({
    actionDir: path.join(ROOT, 'actions', action),
    inputs: { 'api-url': emulator.url, ...inputs },
    env,
    workspace,
  });
  steps.push(result);
  expectNoSecret(result);
  return result;
}

/** Nothing the step printed or wrote holds a key, even before the runner's masking. */
function expectNoSecret(result: StepResult): void {
  for (const phase of [result, result.post].filter((p) => p !== undefined)) {
    const written = [
      phase.unmaskedLog,
      JSON.stringify(phase.outputs),
      JSON.stringify(phase.state),
      phase.summary,
      JSON.stringify(phase.annotations),
    ].join('\n');
    for (const secret of SECRETS)
      expect(written, `a key leaked in ${result.metadata.name}`).not.toContain(secret);
  }
}

function errorsOf(result: StepResult): string[] {
  return result.annotations.filter((a) => a.level === 'error').map((a) => a.message);
}

async function addFault(fault: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${emulator.url}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fault),
  });
  expect(response.ok).toBe(true);
}

async function uploadRequests(): Promise<number> {
  const journal = (await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as unknown;
  const entries = Array.isArray(journal) ? journal : ((journal as { requests?: unknown[] }).requests ?? []);
  return entries.filter((entry) => String((entry as { path?: string }).path).startsWith('/api/upload'))
    .length;
}

describe('upload-build then invite-testers', () => {
  it('uploads, then invites with the first step outputs', async () => {
    const upload = await step('upload-build', {
      file: '*.apk',
      'api-key': API_KEY,
      groups: 'qa',
      tags: 'nightly, e2e',
      'release-notes-file': 'notes.md',
      metadata: 'commit=abc123\nrun=7',
    });
    expect(errorsOf(upload)).toEqual([]);
    expect(upload.exitCode).toBe(0);
    const out = upload.outputs;
    expect(out['build-id']).toMatch(/^\w+$/);
    expect(out['project-id']).toMatch(/^\w+$/);
    expect(out['app-name']).toBe('Demo Shop');
    expect(out['app-version']).toBe('1.4.2');
    for (const name of ['build-url', 'download-page-url', 'landing-page-url']) {
      expect(out[name], name).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      expect(upload.summary).toContain(`href="${out[name]!.replace(/&/g, '&amp;')}"`);
    }
    expect(upload.summary).toContain('Invite testers</a>');
    expect(upload.summary).toContain('Demo Shop');
    expect(upload.masks).toContain(API_KEY);

    // The key comes from the environment here, as a workflow's `env:` would give it.
    const invite = await step(
      'invite-testers',
      {
        'project-id': out['project-id']!,
        'build-id': out['build-id']!,
        email: EMAIL,
        groups: 'qa',
        testers: 'dave@example.com\nerin@example.com',
        'tester-group': 'nightly',
        comment: 'Please try the checkout',
      },
      { SAUCE_APPDIST_API_KEY: API_KEY },
    );
    expect(errorsOf(invite)).toEqual([]);
    expect(invite.exitCode).toBe(0);
    expect(invite.outputs['invited-groups']).toBe('qa,nightly');
    expect(invite.outputs['added-testers']).toBe('dave@example.com,erin@example.com');
    expect(invite.outputs['refused-testers']).toBe('');
    expect(invite.summary).toContain('<li>dave@example.com</li>');

    // The service's own view: the new testers are invited to the build.
    const client = new SauceClient({ apiUrl: emulator.url, email: EMAIL, apiKey: API_KEY });
    try {
      const testers = (await client.mobile.testers.list({ buildId: out['build-id']! })).testers;
      const dave = testers.find((t) => t.email === 'dave@example.com');
      expect(dave?.isInvitedToBuild).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('upload-build with OIDC', () => {
  it('uploads with a bearer token and a symbols file, then invites with the token too', async () => {
    const oidc = { 'oidc-token': OIDC_TOKEN, 'oidc-config-key': 'demo-oidc-config' };
    const upload = await step('upload-build', {
      file: 'app-release.apk',
      'symbols-file': 'mapping.txt',
      ...oidc,
    });
    expect(errorsOf(upload)).toEqual([]);
    expect(upload.exitCode).toBe(0);
    expect(upload.masks).toContain(OIDC_TOKEN);
    const invite = await step('invite-testers', {
      'project-id': upload.outputs['project-id']!,
      'build-id': upload.outputs['build-id']!,
      groups: 'beta',
      ...oidc,
    });
    expect(errorsOf(invite)).toEqual([]);
    expect(invite.outputs['invited-groups']).toBe('beta');
  });
});

describe('upload-build failures', () => {
  it('fails on a missing file before sending anything', async () => {
    const before = await uploadRequests();
    const result = await step('upload-build', { file: 'missing.apk', 'api-key': API_KEY });
    expect(result.exitCode).toBe(1);
    expect(errorsOf(result)).toEqual([
      expect.stringMatching(/^Input "file" names .*missing\.apk, which does not exist/),
    ]);
    expect(await uploadRequests()).toBe(before);
  });

  it('fails without any key, naming the input and the variable', async () => {
    const result = await step('upload-build', { file: 'app-release.apk' });
    expect(result.exitCode).toBe(1);
    expect(errorsOf(result)[0]).toContain('SAUCE_APPDIST_API_KEY');
  });

  it('explains a wrong key with the region used and the other ones', async () => {
    const result = await step('upload-build', { file: 'app-release.apk', 'api-key': WRONG_KEY });
    expect(result.exitCode).toBe(1);
    const [message] = errorsOf(result);
    expect(message).toContain('(code 5)');
    expect(message).toContain('region us-east-1');
    expect(message).toContain('eu-central-1, legacy');
    expect(result.masks).toContain(WRONG_KEY);
  });

  it('refuses a wrong key with a 60 MiB file without sending the file', async () => {
    await mkdir(path.join(workspace, 'large'));
    await createSampleApk(path.join(workspace, 'large', 'big.apk'), {
      packageId: 'com.example.big',
      name: 'Big',
      version: '1.0',
      versionCode: 1,
      padding: 60 * 1024 * 1024,
    });
    const before = await uploadRequests();
    const wrong = await step('upload-build', { file: 'large/big.apk', 'api-key': WRONG_KEY, email: EMAIL });
    expect(wrong.exitCode).toBe(1);
    expect(errorsOf(wrong)[0]).toMatch(/^The API key was refused by the service at .* \(code 5\)/);
    expect(await uploadRequests()).toBe(before);
    // Without the email only the upload can tell, and the log says so.
    const unchecked = await step('upload-build', { file: 'large/big.apk', 'api-key': WRONG_KEY });
    expect(unchecked.exitCode).toBe(1);
    expect(unchecked.log).toContain('The API key is checked only by the upload itself: set `email`');
    expect(await uploadRequests()).toBe(before + 1);
    const right = await step('upload-build', { file: 'large/big.apk', 'api-key': API_KEY, email: EMAIL });
    expect(right.exitCode).toBe(0);
    expect(right.outputs['app-name']).toBe('Big');
    expect(right.log).toContain('Uploading large/big.apk (60.0 MiB');
  });

  it.each([
    [
      1,
      'Missing parameter: app_name',
      /code 1\): a required parameter is missing\. The service said: Missing parameter: app_name\./,
    ],
    [5, 'Invalid API key', /\(code 5\)\..*`region`/],
    [105, 'Invalid file', /could not read app-release\.apk as an app \(code 105\)/],
  ])('words failure code %i as what to do', async (code, message, pattern) => {
    await addFault({
      method: 'POST',
      path: '/api/upload/',
      status: 200,
      body: { status: 'fail', code, message },
    });
    const result = await step('upload-build', { file: 'app-release.apk', 'api-key': API_KEY });
    expect(result.exitCode).toBe(1);
    expect(errorsOf(result)).toEqual([expect.stringMatching(pattern)]);
    expect(result.summary).toContain('<h2>Upload build: refused by Sauce Labs</h2>');
  });

  it('tells service trouble apart from the user mistakes, and never sends an upload twice', async () => {
    await addFault({
      method: 'POST',
      path: '/api/upload/',
      status: 503,
      body: { status: 'fail', message: 'down' },
      times: 3,
    });
    const before = await uploadRequests();
    const result = await step('upload-build', { file: 'app-release.apk', 'api-key': API_KEY });
    expect(result.exitCode).toBe(1);
    expect(errorsOf(result)[0]).toMatch(
      /^Sauce Labs failed while handling the request: uploadBuild: 503 down; the service may have carried it out, so it was not sent again .* check the project's builds/,
    );
    expect(result.summary).toContain('service trouble');
    expect((await uploadRequests()) - before).toBe(1);
  });
});

describe('upload-build cancellation', () => {
  it("stops a slow upload on the runner's SIGINT and fails the step at once", async () => {
    // Held a minute, and cancelled once it reached the service: the step ends before the answer.
    await addFault({ method: 'POST', path: '/api/upload/', delayMs: 60_000 });
    await fetch(`${emulator.url}/_emulator/requests`, { method: 'DELETE' });
    const result = await runStep({
      actionDir: path.join(ROOT, 'actions', 'upload-build'),
      inputs: { 'api-url': emulator.url, file: 'app-release.apk', 'api-key': API_KEY },
      workspace,
      cancelWhen: requestArrives(emulator.url, 'POST', '/api/upload/'),
    });
    steps.push(result);
    expectNoSecret(result);
    expect(result.cancelled).toBe(true);
    expect(result.killed).toBe(false);
    expect(result.exitCode).toBe(1);
    expect(errorsOf(result)[0]).toMatch(/^Cancelled/);
    const journal = await fetch(`${emulator.url}/_emulator/requests`).then(
      async (response) => ((await response.json()) as { requests: JournalEntry[] }).requests,
    );
    expect(statusesOf(journal, 'POST', '/api/upload/')).toEqual([0]);
  });
});

describe('invite-testers failures', () => {
  it('refuses an invalid email before sending anything', async () => {
    const result = await step('invite-testers', {
      'project-id': '1',
      'build-id': '1',
      email: EMAIL,
      'api-key': API_KEY,
      testers: 'frank@example.com, not-an-email',
      'tester-group': 'nightly',
    });
    expect(result.exitCode).toBe(1);
    expect(errorsOf(result)).toEqual([
      expect.stringContaining('Input "testers" has an invalid email: "not-an-email"'),
    ]);
  });

  it('refuses an unknown group unless told to create it', async () => {
    const upload = await step('upload-build', { file: 'app-release.apk', 'api-key': API_KEY });
    const ids = {
      'project-id': upload.outputs['project-id']!,
      'build-id': upload.outputs['build-id']!,
      email: EMAIL,
      'api-key': API_KEY,
    };
    const refused = await step('invite-testers', { ...ids, groups: 'qa, no-such-group' });
    expect(refused.exitCode).toBe(1);
    expect(errorsOf(refused)[0]).toMatch(
      /Unknown tester group: no-such-group \(the account has: .*qa.*\)\..*create-groups: true/,
    );

    const created = await step('invite-testers', {
      ...ids,
      groups: 'qa, no-such-group',
      'create-groups': 'true',
    });
    expect(errorsOf(created)).toEqual([]);
    expect(created.outputs['created-groups']).toBe('no-such-group');
    expect(created.outputs['invited-groups']).toBe('qa,no-such-group');
  });

  it('names the id inputs when the build does not exist', async () => {
    const result = await step('invite-testers', {
      'project-id': '999',
      'build-id': '998',
      email: EMAIL,
      'api-key': API_KEY,
      groups: 'qa',
    });
    expect(result.exitCode).toBe(1);
    expect(errorsOf(result)[0]).toMatch(
      /^Build 998 of project 999 was not found: check `project-id` and `build-id`/,
    );
  });

  it('fails with a wrong key, pointing at the credentials', async () => {
    const result = await step('invite-testers', {
      'project-id': '1',
      'build-id': '1',
      email: EMAIL,
      'api-key': WRONG_KEY,
      groups: 'qa',
    });
    expect(result.exitCode).toBe(1);
    expect(errorsOf(result)[0]).toMatch(
      /401 .*The credentials were refused: check the key \(and the user name or email/,
    );
  });
});
