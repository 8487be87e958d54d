/**
 * The GitLab pipeline of docs/ci-pipelines.md run as GitLab would run it, by gitlab-ci-local (its shell
 * executor), with the template it includes over http and the command line it clones from a
 * repository at tag `v1` that holds this checkout's bundles, against the emulator. Only the
 * placeholders are filled in (`<owner>`'s addresses) and `$SAUCE_ACTIONS` gets the emulator's
 * address and short waits; the rest runs as written: the release pipeline of a tag (the build, the
 * upload, the invitation) and the scheduled one (Sauce Connect, the Smoke suite and its reports).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@sauce-actions/action-harness';
import { SauceClient } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishBuild, tarGz } from '../../actions/manage-tunnel/test/archives.ts';
import { writeFakeSauceConnect } from '../../actions/manage-tunnel/test/fake-sc.ts';
import { gitlabTemplate } from '../support/doc-pipelines.ts';
import {
  commitAll,
  git,
  gitlabCiLocal,
  gitlabProject,
  serveGitlabTemplate,
  type GitlabRun,
} from '../support/gitlab-ci-local.ts';
import { CLI } from './support/cli.ts';

/** The accounts of the emulator's default seed: public demo values, as masked CI/CD variables hold keys. */
const CI_VARIABLES = {
  SAUCE_USERNAME: 'demo',
  SAUCE_ACCESS_KEY: 'demo-access-key',
  SAUCE_APPDIST_API_KEY: 'demo-api-key',
  SAUCE_APPDIST_EMAIL: 'demo@example.com',
};

let emulator: RunningEmulator;
let templates: { base: string; close(): Promise<void> };
let root: string;
let repository: string;
let shim: string;

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build the bundles (npm run build)`);
  await promisify(execFile)('rsync', ['--version']).catch(() => {
    throw new Error('gitlab-ci-local copies the project with rsync: install it (apt-get install rsync)');
  });
  root = await mkdtemp(path.join(os.tmpdir(), 'gitlab-pipeline-'));
  emulator = await startEmulator({ port: 0, jobDurationMs: 300 });

  // sauce-actions at its release tag: this checkout's bundles, which the template clones.
  repository = path.join(root, 'sauce-actions');
  await cp(path.dirname(CLI), path.join(repository, 'dist'), { recursive: true });
  await commitAll(repository, 'Release');
  await git(['tag', 'v1'], { cwd: repository });

  // The template at the address the pipeline includes it from, `<owner>`'s raw files of the tag.
  templates = await serveGitlabTemplate();

  // Sauce Connect as the listing publishes it, at the version the template asks for.
  const sc = await writeFakeSauceConnect(root);
  const version = String(gitlabTemplate().inputs['sauce-connect-version']?.default);
  await publishBuild(emulator.url, version, tarGz([{ name: 'sc', body: await readFile(sc), mode: 0o755 }]));

  // `$SAUCE_ACTIONS` as the template sets it, with the emulator's address and short waits added.
  shim = path.join(root, 'sauce-actions-against-the-emulator');
  await writeFile(
    shim,
    [
      '#!/bin/sh',
      'action=$1',
      'shift',
      'case "$action" in',
      '  manage-tunnel) set -- --poll-interval 1s --status-address "localhost:$SC_STATUS_PORT" "$@" ;;',
      '  run-suite-and-wait) set -- --poll-interval 1s "$@" ;;',
      'esac',
      'exec node .sauce-actions/dist/cli.js "$action" --api-url "$EMULATOR_URL" "$@"',
      '',
    ].join('\n'),
  );
  await chmod(shim, 0o755);
});

afterAll(async () => {
  await templates?.close();
  await emulator?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

interface PipelineRun extends GitlabRun {
  dir: string;
}

/** The document's pipeline run by gitlab-ci-local in a project of its own, with `variables`. */
async function runPipeline(name: string, variables: Record<string, string>): Promise<PipelineRun> {
  const dir = path.join(root, name);
  await gitlabProject(dir, {
    templateBase: templates.base,
    repository: `file://${repository}`,
    scripts: {
      // The project's own build: here it makes a sample APK where Gradle puts the release build.
      gradlew: [
        '#!/bin/sh',
        'set -e',
        'mkdir -p app/build/outputs/apk/release',
        'cp "$SAMPLE_APK" app/build/outputs/apk/release/app-release.apk',
        '',
      ].join('\n'),
    },
  });
  const apk = path.join(root, `${name}.apk`);
  await createSampleApk(apk, {
    packageId: 'com.example.shop',
    name: 'Shop',
    version: '2.3.0',
    versionCode: 230,
  });
  const predefined = {
    ...variables,
    // gitlab-ci-local gives a job with an image the folder of a container, `/builds/<group>/<project>`,
    // even when its shell executor runs the job here: the folder it runs in, as on a runner.
    CI_PROJECT_DIR: dir,
  };
  const run = await gitlabCiLocal(
    dir,
    ['--force-shell-executor'],
    {
      ...CI_VARIABLES,
      ...predefined,
      SAUCE_ACTIONS: shim,
      EMULATOR_URL: emulator.url,
      FAKE_SC_EMULATOR: emulator.url,
      SC_STATUS_PORT: String(await freePort()),
      SAMPLE_APK: apk,
    },
    Object.keys(predefined),
  );
  return { ...run, dir };
}

/** What a job of the pipeline kept as artifacts, relative to its folder. */
async function artifactsOf(run: PipelineRun, job: string): Promise<string[]> {
  const dir = path.join(run.dir, '.gitlab-ci-local', 'artifacts', job);
  return (await readdir(dir, { recursive: true })).map((file) => file.split(path.sep).join('/')).sort();
}

/** The clone of a tag explains detached HEADs unless told not to; a quiet clone prints nothing. */
function expectQuietClones(run: PipelineRun): void {
  expect(run.output).toMatch(/\$ git .*clone --quiet --depth 1 --branch "v1"/);
  expect(run.output).not.toMatch(/detached HEAD|Note: switching to/);
}

describe.runIf(process.platform !== 'win32')(
  'the GitLab pipeline of docs/ci-pipelines.md, under gitlab-ci-local',
  () => {
    it('a tag: builds the APK, uploads it and invites the testers, quietly, and keeps what they wrote', async () => {
      const run = await runPipeline('release', { CI_COMMIT_TAG: 'v2.3.0' });
      expect(run.code, run.output).toBe(0);
      expect(run.output).toMatch(/PASS +build-apk/);
      expect(run.output).toMatch(/PASS +release-upload/);
      expect(run.output).not.toContain('nightly-suite');
      expectQuietClones(run);
      // The invitation's outputs, kept as an artifact: the group made for the tester is named too.
      expect(await artifactsOf(run, 'release-upload')).toEqual([
        'invite.env',
        'invite.md',
        'upload.json',
        'upload.md',
      ]);
      const artifacts = path.join(run.dir, '.gitlab-ci-local', 'artifacts', 'release-upload');
      const upload = JSON.parse(await readFile(path.join(artifacts, 'upload.json'), 'utf8')) as Record<
        string,
        string
      >;
      expect(upload).toMatchObject({ 'app-name': 'Shop', 'app-version': '2.3.0' });
      expect(await readFile(path.join(artifacts, 'invite.env'), 'utf8')).toBe(
        `build-id=${upload['build-id']}\ninvited-groups=qa,release\nadded-testers=release-manager@example.com\nrefused-testers=\ncreated-groups=release\n`,
      );
      // The service's own view: the tester is invited to the build the upload made.
      const client = new SauceClient({
        apiUrl: emulator.url,
        email: 'demo@example.com',
        apiKey: 'demo-api-key',
      });
      try {
        const { testers } = await client.mobile.testers.list({ buildId: upload['build-id'] as string });
        expect(testers.find((t) => t.email === 'release-manager@example.com')?.isInvitedToBuild).toBe(true);
      } finally {
        await client.close();
      }
    });

    it('a schedule: Sauce Connect of the cached version, the Smoke suite, its reports and results kept though it fails', async () => {
      const run = await runPipeline('nightly', { CI_PIPELINE_SOURCE: 'schedule' });
      // The Smoke suite's "Checkout fails" fails by design: the job fails, and keeps its reports.
      expect(run.code, run.output).toBe(1);
      expect(run.output).toMatch(/FAIL +nightly-suite/);
      expect(run.output).not.toMatch(/build-apk|release-upload/);
      expectQuietClones(run);
      const version = String(gitlabTemplate().inputs['sauce-connect-version']?.default);
      expect(run.output).toContain(`Downloading Sauce Connect ${version} from ${emulator.url}`);
      expect(run.output).toContain('Sauce Connect stopped.');
      const pipelineId = /Tunnel \w+ \("gitlab-(\d+)"\) is running/.exec(run.output)?.[1];
      expect(pipelineId).toMatch(/^\d+$/);
      const tunnels = Object.values(emulator.context.automation.data.tunnels);
      expect(tunnels.find((t) => t.tunnel_identifier === `gitlab-${pipelineId}`)?.status).toBe('terminated');
      // Its tool cache, in the project where the cache keyed by the version keeps it.
      expect(await readdir(path.join(run.dir, '.sauce-tools', 'sauce-connect'))).toEqual([
        expect.stringMatching(new RegExp(`^${version.replaceAll('.', '\\.')}-sha256-[0-9a-f]{64}$`)),
      ]);
      const kept = await artifactsOf(run, 'nightly-suite');
      expect(kept).toEqual(
        expect.arrayContaining([
          'reports/smoke.md',
          'reports/smoke.xml',
          'tunnel.out',
          expect.stringMatching(
            /^sauce-actions-output\/run-suite-and-wait-\w+\/run-suite-and-wait-results\.json$/,
          ),
          expect.stringMatching(
            new RegExp(
              `^sauce-actions-output/manage-tunnel-\\w+/sauce-connect-gitlab-${pipelineId}-\\d+\\.log$`,
            ),
          ),
        ]),
      );
      const artifacts = path.join(run.dir, '.gitlab-ci-local', 'artifacts', 'nightly-suite');
      const junit = await readFile(path.join(artifacts, 'reports', 'smoke.xml'), 'utf8');
      expect(junit.match(/<testcase /g)).toHaveLength(3);
      expect(junit.match(/<failure /g)).toHaveLength(1);
      const results = kept.find((file) => file.endsWith('results.json')) as string;
      expect(JSON.parse(await readFile(path.join(artifacts, results), 'utf8'))).toMatchObject({
        buildName: `nightly ${pipelineId}`,
      });
    });
  },
);
