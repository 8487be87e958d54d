/**
 * End to end: a release pipeline that knows git, on the committed bundles against the emulator.
 * The workspace is a git repository the test makes (five commits); the builds carry the CI
 * system's metadata without any `metadata` input, `release-notes: auto` lists the commits since
 * the last build, a pull request's build is tagged and found again by invite-testers with
 * `build-id: latest`, and `oidc: github` signs in with the job's ID token from a stand-in of the
 * runner's token service.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  createGitWorkspace,
  runStep,
  startIdTokenService,
  type ContextOverrides,
  type GitWorkspace,
  type IdTokenStandIn,
  type StepResult,
} from '@sauce-actions/action-harness';
import { SauceClient } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputLines, runCli } from './support/cli.ts';
import { errorsOf, ROOT, warningsOf } from './support/lab.ts';

const API_KEY = 'demo-api-key';
const EMAIL = 'demo@example.com';
const REPOSITORY = 'octo/shop';

let emulator: RunningEmulator;
let idTokens: IdTokenStandIn;
let root: string;
let repo: GitWorkspace;
/** The five commits, oldest first. */
const commits: string[] = [];
const steps: StepResult[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  idTokens = await startIdTokenService({ repository: REPOSITORY });
  root = await mkdtemp(path.join(os.tmpdir(), 'e2e-release-'));
  await mkdir(path.join(root, 'repo'));
  repo = await createGitWorkspace(path.join(root, 'repo'));
  await createSampleApk(path.join(repo.dir, 'app-release.apk'), {
    packageId: 'com.example.shop',
    name: 'Shop',
    version: '3.1.0',
    versionCode: 310,
  });
});

afterAll(async () => {
  await Promise.all(steps.map((step) => step.cleanup()));
  await idTokens?.close();
  await emulator?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

async function step(
  action: string,
  inputs: Record<string, string>,
  options: {
    context?: ContextOverrides;
    event?: unknown;
    env?: Record<string, string>;
    workspace?: string;
  } = {},
): Promise<StepResult> {
  const result = await runStep({
    actionDir: path.join(ROOT, 'actions', action),
    inputs: { 'api-url': emulator.url, ...inputs },
    workspace: options.workspace ?? repo.dir,
    context: { repository: REPOSITORY, ...options.context },
    ...(options.event !== undefined ? { event: options.event } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
  });
  steps.push(result);
  return result;
}

/** The build as the service stores it (its release notes are not among a build's fields). */
function stored(buildId: string) {
  const build = emulator.context.mobile.data.builds.find((b) => String(b.id) === buildId);
  if (!build) throw new Error(`no build ${buildId}`);
  return build;
}

async function uploadRequests(): Promise<number> {
  const { requests } = (await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as {
    requests: { path: string }[];
  };
  return requests.filter((entry) => entry.path.startsWith('/api/upload')).length;
}

const line = (hash: string, subject: string) => `${hash.slice(0, 7)} ${subject}`;

describe('a release pipeline in a git repository', () => {
  it('gives the second build the commits since the first one as release notes, and both the CI metadata', async () => {
    commits.push(await repo.commit('Start the shop'), await repo.commit('Login screen'));
    const first = await step(
      'upload-build',
      { file: 'app-release.apk', 'api-key': API_KEY, email: EMAIL },
      { context: { sha: commits[1]!, runId: '101' } },
    );
    expect(errorsOf(first)).toEqual([]);
    expect(first.exitCode).toBe(0);

    commits.push(
      await repo.commit('Cart: keep items across sessions'),
      await repo.commit('Checkout with saved cards', 'Longer explanation in the body.'),
      await repo.commit('Fix the crash on rotation'),
    );
    const second = await step(
      'upload-build',
      { file: 'app-release.apk', 'api-key': API_KEY, email: EMAIL, 'release-notes': 'auto' },
      { context: { sha: commits[4]!, runId: '102' } },
    );
    expect(errorsOf(second)).toEqual([]);
    expect(warningsOf(second)).toEqual([]);
    expect(second.exitCode).toBe(0);

    const firstId = first.outputs['build-id']!;
    const secondId = second.outputs['build-id']!;
    expect(second.outputs['project-id']).toBe(first.outputs['project-id']);
    expect(stored(secondId).changelog).toBe(
      [
        line(commits[4]!, 'Fix the crash on rotation'),
        line(commits[3]!, 'Checkout with saved cards'),
        line(commits[2]!, 'Cart: keep items across sessions'),
      ].join('\n'),
    );
    expect(second.summary).toContain(
      `<td>Release notes</td><td>3 commits since build ${firstId} (${commits[1]!.slice(0, 7)})</td>`,
    );

    const client = new SauceClient({ apiUrl: emulator.url, apiKey: API_KEY, email: EMAIL });
    try {
      for (const [buildId, sha, runId] of [
        [firstId, commits[1]!, '101'],
        [secondId, commits[4]!, '102'],
      ] as const) {
        const { build } = await client.mobile.builds.get(first.outputs['project-id']!, buildId);
        expect(build.metadata, `metadata of build ${buildId}`).toEqual({
          commit: sha,
          branch: 'main',
          repository: `https://github.com/${REPOSITORY}`,
          'run-url': `https://github.com/${REPOSITORY}/actions/runs/${runId}`,
        });
      }
    } finally {
      await client.close();
    }
    for (const key of ['commit', 'branch', 'repository', 'run-url']) {
      expect(first.summary).toContain(`<td>${key}</td>`);
    }
  });

  it("tags a pull request's build pr-<number>, and invite-testers with `build-id: latest` invites groups to it", async () => {
    const event = {
      pull_request: {
        number: 42,
        title: 'Saved cards at checkout',
        html_url: `https://github.com/${REPOSITORY}/pull/42`,
        head: { sha: commits[4], ref: 'saved-cards' },
      },
    };
    const upload = await step(
      'upload-build',
      { file: 'app-release.apk', 'api-key': API_KEY, email: EMAIL, 'release-notes': 'auto' },
      {
        context: {
          eventName: 'pull_request',
          ref: 'refs/pull/42/merge',
          headRef: 'saved-cards',
          runId: '103',
        },
        event,
      },
    );
    expect(errorsOf(upload)).toEqual([]);
    const buildId = upload.outputs['build-id']!;
    expect(stored(buildId).tags).toEqual(['pr-42']);
    expect(stored(buildId).metadata).toMatchObject({ branch: 'saved-cards', 'pull-request': '42' });
    expect(stored(buildId).changelog).toBe(
      `Saved cards at checkout (#42)\nhttps://github.com/${REPOSITORY}/pull/42\n\nNo new commits since build ${Number(buildId) - 1} (${commits[4]!.slice(0, 7)}).`,
    );

    // A build uploaded later, of another branch, is not the pull request's.
    const other = await step(
      'upload-build',
      { file: 'app-release.apk', 'api-key': API_KEY, email: EMAIL, tags: 'main' },
      { context: { sha: commits[4]!, runId: '104' } },
    );
    expect(other.exitCode).toBe(0);

    const invite = await step('invite-testers', {
      'project-id': upload.outputs['project-id']!,
      'build-id': 'latest',
      tags: 'pr-42',
      groups: 'qa',
      email: EMAIL,
      'api-key': API_KEY,
    });
    expect(errorsOf(invite)).toEqual([]);
    expect(invite.outputs['build-id']).toBe(buildId);
    expect(invite.outputs['invited-groups']).toBe('qa');
    const invited = emulator.context.mobile.data.invites.filter((entry) => String(entry.buildId) === buildId);
    expect(invited.length).toBeGreaterThan(0);
  });

  it('in a shallow clone warns that `fetch-depth: 0` is needed, and still uploads with the last commit', async () => {
    const shallow = await repo.clone(path.join(root, 'shallow'), { depth: 1 });
    await createSampleApk(path.join(shallow.dir, 'app-release.apk'), {
      packageId: 'com.example.shop',
      name: 'Shop',
      version: '3.1.1',
      versionCode: 311,
    });
    const before = await uploadRequests();
    const upload = await step(
      'upload-build',
      { file: 'app-release.apk', 'api-key': API_KEY, email: EMAIL, 'release-notes': 'auto' },
      { context: { sha: commits[4]! }, workspace: shallow.dir },
    );
    expect(upload.exitCode).toBe(0);
    expect(errorsOf(upload)).toEqual([]);
    expect(warningsOf(upload)).toEqual([expect.stringContaining('`fetch-depth: 0`')]);
    expect(await uploadRequests()).toBe(before + 1);
    expect(stored(upload.outputs['build-id']!).changelog).toBe(
      line(commits[4]!, 'Fix the crash on rotation'),
    );
  });
});

describe('keyless sign-in, `oidc: github`', () => {
  // The inputs the READMEs document, and the emulator's demo account: no `oidc-audience`.
  const inputs = {
    file: 'app-release.apk',
    oidc: 'github',
    'oidc-config-key': 'demo-oidc-config',
  };

  it("uploads with the job's ID token and no API key, the token masked", async () => {
    const upload = await step('upload-build', inputs, { env: idTokens.env, context: { sha: commits[4]! } });
    expect(errorsOf(upload)).toEqual([]);
    expect(upload.exitCode).toBe(0);
    expect(upload.outputs['build-id']).toMatch(/^\d+$/);
    expect(idTokens.requests.at(-1)).toEqual({ audience: 'sauce-labs', authorized: true, status: 200 });
    const token = idTokens.issued.at(-1)!;
    expect(upload.masks).toContain(token);
    for (const written of [upload.unmaskedLog, JSON.stringify(upload.outputs), upload.summary]) {
      expect(written).not.toContain(token);
      expect(written).not.toContain(idTokens.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN);
    }
  });

  it('for another audience is refused as a token, naming its audience and issuer and the inputs', async () => {
    const before = await uploadRequests();
    const upload = await step(
      'upload-build',
      { ...inputs, 'oidc-audience': 'https://github.com/octo' },
      { env: idTokens.env, context: { sha: commits[4]! } },
    );
    expect(upload.exitCode).toBe(1);
    expect(idTokens.requests.at(-1)).toEqual({
      audience: 'https://github.com/octo',
      authorized: true,
      status: 200,
    });
    expect(await uploadRequests()).toBe(before + 1);
    const [error, ...others] = errorsOf(upload);
    expect(others).toEqual([]);
    expect(error).toMatch(
      /^Sauce Labs refused the OIDC token \(no API key was sent\): uploadBuild: 401 code 5 /,
    );
    expect(error).toContain(
      'The token was issued for the audience (`aud`) "https://github.com/octo" by the issuer (`iss`) "https://token.actions.githubusercontent.com".',
    );
    expect(error).toContain('`oidc-config-key`');
    expect(error).toContain('`oidc-audience` sets it (default `sauce-labs`)');
    expect(error).not.toContain('API key was refused');
    const token = idTokens.issued.at(-1)!;
    expect(upload.masks).toContain(token);
    for (const written of [upload.unmaskedLog, JSON.stringify(upload.outputs), upload.summary]) {
      expect(written).not.toContain(token);
      expect(written).not.toContain(token.split('.')[1]);
    }
  });

  it('without `id-token: write` fails before any upload, naming the permission', async () => {
    const before = await uploadRequests();
    const asked = idTokens.requests.length;
    const upload = await step('upload-build', inputs);
    expect(upload.exitCode).toBe(1);
    expect(errorsOf(upload)).toEqual([expect.stringContaining('`permissions: id-token: write`')]);
    expect(errorsOf(upload)[0]).toContain('Input "oidc"');
    expect(await uploadRequests()).toBe(before);
    expect(idTokens.requests.length).toBe(asked);
  });

  it('on the command line is refused with exit 2, naming what to pass instead', async () => {
    const before = await uploadRequests();
    const cli = await runCli(
      [
        'upload-build',
        '--file',
        'app-release.apk',
        '--oidc',
        'github',
        '--oidc-config-key',
        'demo-oidc-config',
        '--api-url',
        emulator.url,
      ],
      { cwd: repo.dir, env: idTokens.env },
    );
    expect(cli.code, cli.stderr).toBe(2);
    expect(cli.stderr).toContain('Input "oidc" is `github`, which only a step on the GitHub runner can use');
    expect(await uploadRequests()).toBe(before);
  });
});

describe('the command line on another CI system', () => {
  it('attaches what GitLab CI says of the pipeline, and lists the commits since the last build', async () => {
    const gitlab = {
      GITLAB_CI: 'true',
      CI_COMMIT_SHA: commits[4]!,
      CI_COMMIT_BRANCH: 'main',
      CI_COMMIT_REF_NAME: 'main',
      CI_PROJECT_URL: 'https://gitlab.example.com/shop/app',
      CI_PIPELINE_URL: 'https://gitlab.example.com/shop/app/-/pipelines/900',
      CI_PIPELINE_SOURCE: 'push',
    };
    const cli = await runCli(
      [
        'upload-build',
        '--file',
        'app-release.apk',
        '--api-key',
        API_KEY,
        '--email',
        EMAIL,
        '--release-notes',
        'auto',
        '--api-url',
        emulator.url,
      ],
      { cwd: repo.dir, env: gitlab },
    );
    expect(cli.code, cli.stderr).toBe(0);
    const build = stored(outputLines(cli.stdout)['build-id']!);
    expect(build.metadata).toEqual({
      commit: commits[4],
      branch: 'main',
      repository: 'https://gitlab.example.com/shop/app',
      'run-url': 'https://gitlab.example.com/shop/app/-/pipelines/900',
    });
    expect(build.changelog).toMatch(/^No new commits since build \d+ \(/);
  });
});
