/**
 * The GitLab pipeline of docs/ci-pipelines.md run as GitLab would run it, by gitlab-ci-local (its shell
 * executor), with the template it includes over http and the command line it clones from a
 * repository at tag `v1` that holds this checkout's bundles, against the emulator. Only the
 * placeholders are filled in (`<owner>`'s addresses) and `$SAUCE_ACTIONS` gets the emulator's
 * address and short waits; the rest runs as written: the release pipeline of a tag (the build, the
 * upload, the invitation) and the scheduled one (the Regression suite in two shards of `parallel: 2`,
 * each with its Sauce Connect, then one report of both, found in the service by their build name).
 */
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@sauce-actions/action-harness';
import { SauceClient } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishBuild, tarGz } from '../../actions/manage-tunnel/test/archives.ts';
import { writeFakeSauceConnect } from '../../actions/manage-tunnel/test/fake-sc.ts';
import { gitlabTemplate, PLACEHOLDERS } from '../support/doc-pipelines.ts';
import {
  commitAll,
  git,
  gitlabCiLocal,
  gitlabProject,
  serveGitlabTemplate,
  type GitlabRun,
} from '../support/gitlab-ci-local.ts';
import { endTestProcesses } from '../support/test-processes.ts';
import { CLI } from './support/cli.ts';

/**
 * The bound of a whole pipeline, gitlab-ci-local's jobs one after another: what they take depends
 * on the machine's load (the schedule's took 26 s to 40 s on two cores at a load of 15 to 30), so
 * the bound is far from it; at the bound the test's signal stops gitlab-ci-local and its jobs.
 */
const PIPELINE_BOUND = 600_000;

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
  root = await mkdtemp(path.join(os.tmpdir(), 'gitlab-pipeline-'));
  await mkdir(path.join(root, 'sc-pids'));
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
      // Jobs side by side on one machine: each shard's Sauce Connect answers on a port of its own.
      'port=$(echo "$SC_STATUS_PORTS" | cut -d " " -f "${CI_NODE_INDEX:-1}")',
      'case "$action" in',
      '  manage-tunnel) set -- --poll-interval 1s --status-address "localhost:$port" "$@" ;;',
      '  run-suite-and-wait) set -- --poll-interval 1s "$@" ;;',
      'esac',
      'exec node .sauce-actions/dist/cli.js "$action" --api-url "$EMULATOR_URL" "$@"',
      '',
    ].join('\n'),
  );
  await chmod(shim, 0o755);
});

afterAll(async () => {
  // Sauce Connect runs in a process group of its own: one a stopped pipeline left is ended here.
  for (const pid of root ? await readdir(path.join(root, 'sc-pids')).catch(() => []) : []) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // It has ended.
    }
  }
  // A test that timed out leaves gitlab-ci-local writing in the folders about to be removed.
  await endTestProcesses();
  await templates?.close();
  await emulator?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

interface PipelineRun extends GitlabRun {
  dir: string;
}

/** The document's pipeline run by gitlab-ci-local in a project of its own, with `variables`. */
async function runPipeline(
  name: string,
  variables: Record<string, string>,
  signal: AbortSignal,
): Promise<PipelineRun> {
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
  // As they are, the rest: gitlab-ci-local names in CI_PROJECT_DIR a job's folder in a container,
  // `/builds/<group>/<project>`, even when its shell executor runs the job in a folder of its own,
  // where the cache is restored and saved from; the template must not depend on that name.
  const predefined = { ...variables };
  const ports = [await freePort(), await freePort()];
  while (ports[1] === ports[0]) ports[1] = await freePort();
  const run = await gitlabCiLocal(
    dir,
    // Each job in a copy of the project of its own, as on a runner: jobs side by side each clone
    // the command line, and each keeps its own files.
    ['--force-shell-executor', '--shell-isolation'],
    {
      ...CI_VARIABLES,
      ...predefined,
      SAUCE_ACTIONS: shim,
      EMULATOR_URL: emulator.url,
      FAKE_SC_EMULATOR: emulator.url,
      FAKE_SC_PIDS: path.join(root, 'sc-pids'),
      SC_STATUS_PORTS: ports.join(' '),
      SAMPLE_APK: apk,
    },
    Object.keys(predefined),
    signal,
  );
  return { ...run, dir };
}

/**
 * The folder of a job's artifacts, which gitlab-ci-local names after the job with each run of
 * characters other than letters, digits, `_` and `-` base64url-encoded (`nightly-suite: [1/2]`).
 */
function artifactsDir(run: PipelineRun, job: string): string {
  const folder = job.replace(/[^\w-]+/g, (characters) => Buffer.from(characters).toString('base64url'));
  return path.join(run.dir, '.gitlab-ci-local', 'artifacts', folder);
}

/** What a job of the pipeline kept as artifacts, relative to its folder. */
async function artifactsOf(run: PipelineRun, job: string): Promise<string[]> {
  const dir = artifactsDir(run, job);
  return (await readdir(dir, { recursive: true })).map((file) => file.split(path.sep).join('/')).sort();
}

/** The `<testcase>` elements of a JUnit report, by name: each one's body. */
function junitCases(xml: string): Map<string, string[]> {
  const cases = new Map<string, string[]>();
  for (const match of xml.matchAll(
    /<testcase\b[^>]*\bname="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g,
  )) {
    const name = match[1] as string;
    cases.set(name, [...(cases.get(name) ?? []), match[2] ?? '']);
  }
  return cases;
}

/** The clone of a tag explains detached HEADs unless told not to; a quiet clone prints nothing. */
function expectQuietClones(run: PipelineRun): void {
  expect(run.output).toMatch(/\$ git .*clone --quiet --depth 1 --branch "v1"/);
  expect(run.output).not.toMatch(/detached HEAD|Note: switching to/);
}

/**
 * A pipeline of two jobs that extend the template and keep `.sauce-actions` in a cache, as a
 * project may to save the clone: the first leaves a file in it that no clone has, the second
 * gets the folder back from the cache before its clone, as a retried job or a shell runner's
 * folder has it.
 */
const CACHED_CLONE = `include:
  - remote: ${PLACEHOLDERS.templateBase}v1/templates/gitlab/sauce-actions.gitlab-ci.yml
    inputs:
      repository: ${PLACEHOLDERS.repository}

stages: [first, again]

.clone-cached:
  extends: .sauce-actions
  cache:
    key: the-clone
    paths: [.sauce-actions/]

first:
  extends: .clone-cached
  stage: first
  script:
    - echo left over > .sauce-actions/left-over

again:
  extends: .clone-cached
  stage: again
  script:
    - test -f .sauce-actions/dist/cli.js
    - test ! -e .sauce-actions/left-over
    - echo "clone at $(git -C .sauce-actions describe --tags)"
`;

describe.runIf(process.platform !== 'win32')('the GitLab template, under gitlab-ci-local', () => {
  it(
    'clones the command line afresh where a cache or an earlier run left .sauce-actions',
    { timeout: PIPELINE_BOUND },
    async ({ signal }) => {
      const dir = path.join(root, 'cached-clone');
      await gitlabProject(dir, {
        templateBase: templates.base,
        repository: `file://${repository}`,
        pipeline: CACHED_CLONE,
      });
      const run = await gitlabCiLocal(dir, ['--force-shell-executor', '--shell-isolation'], {}, [], signal);
      expect(run.code, run.output).toBe(0);
      // The second job got the first one's folder from the cache, and cloned the tag over it.
      expect(run.output).toMatch(/^again +imported cache 'the-clone'/m);
      expect(run.output).toMatch(/PASS +again/);
      expect(run.output).toContain('clone at v1');
      expect(run.output).not.toContain('already exists and is not an empty directory');
    },
  );
});

describe.runIf(process.platform !== 'win32')(
  'the GitLab pipeline of docs/ci-pipelines.md, under gitlab-ci-local',
  () => {
    it(
      'a tag: builds the APK, uploads it and invites the testers, quietly, and keeps what they wrote',
      { timeout: PIPELINE_BOUND },
      async ({ signal }) => {
        const run = await runPipeline('release', { CI_COMMIT_TAG: 'v2.3.0' }, signal);
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
        const artifacts = artifactsDir(run, 'release-upload');
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
      },
    );

    it(
      'a schedule: the Regression suite in two shards, each with its tunnel, and one report of both that each case is in once',
      { timeout: PIPELINE_BOUND },
      async ({ signal }) => {
        const run = await runPipeline('nightly', { CI_PIPELINE_SOURCE: 'schedule' }, signal);
        // Case 07 fails once and passes on its retry: the shards and the report pass.
        expect(run.code, run.output).toBe(0);
        const shards = ['nightly-suite: [1/2]', 'nightly-suite: [2/2]'];
        for (const job of [...shards, 'suite-report']) {
          expect(run.output).toMatch(new RegExp(`PASS +${job.replace(/[[\]]/g, '\\$&')}`));
        }
        expect(run.output).not.toMatch(/build-apk|release-upload/);
        expectQuietClones(run);
        const version = String(gitlabTemplate().inputs['sauce-connect-version']?.default);
        expect(run.output).toContain(`Downloading Sauce Connect ${version} from ${emulator.url}`);
        // Each shard started its own tunnel, ran half the suite in it, and stopped it.
        const pipelineId = /Tunnel \w+ \("gitlab-(\d+)-1"\) is running/.exec(run.output)?.[1];
        expect(pipelineId).toMatch(/^\d+$/);
        const tunnels = Object.values(emulator.context.automation.data.tunnels);
        for (const [index, job] of shards.entries()) {
          const tunnel = `gitlab-${pipelineId}-${index + 1}`;
          expect(run.output).toContain(`${job} > Sauce Connect stopped.`);
          expect(run.output).toContain(
            `${job} > Started 6 test case(s) of suite "Regression" (shard ${index + 1}/2)`,
          );
          expect(tunnels.filter((t) => t.tunnel_identifier === tunnel).map((t) => t.status)).toEqual([
            'terminated',
          ]);
          const kept = await artifactsOf(run, job);
          expect(kept).toEqual(
            expect.arrayContaining([
              `reports/regression-${index + 1}.md`,
              'tunnel.out',
              expect.stringMatching(
                /^sauce-actions-output\/run-suite-and-wait-\w+\/run-suite-and-wait-results\.json$/,
              ),
              expect.stringMatching(
                new RegExp(`^sauce-actions-output/manage-tunnel-\\w+/sauce-connect-${tunnel}-\\d+\\.log$`),
              ),
            ]),
          );
          const results = kept.find((file) => file.endsWith('results.json')) as string;
          expect(
            JSON.parse(await readFile(path.join(artifactsDir(run, job), results), 'utf8')),
          ).toMatchObject({
            buildName: expect.stringMatching(new RegExp(`^nightly ${pipelineId}\\b`)),
          });
        }
        // Sauce Connect in the cache keyed by its version, which the shards saved.
        const cache = path.join(run.dir, '.gitlab-ci-local', 'cache', `sauce-connect-${version}`);
        expect(await readdir(path.join(cache, '.sauce-tools', 'sauce-connect'))).toEqual([
          expect.stringMatching(new RegExp(`^${version.replaceAll('.', '\\.')}-sha256-[0-9a-f]{64}$`)),
        ]);
        // The report: what it found of both shards by their build name, nothing of their files.
        const kept = await artifactsOf(run, 'suite-report');
        expect(kept.filter((file) => !file.endsWith('/'))).toEqual([
          'reports',
          'reports/regression.md',
          'reports/regression.xml',
          'sauce-actions-output',
          expect.stringMatching(/^sauce-actions-output\/run-suite-and-wait-\w+$/),
          expect.stringMatching(
            /^sauce-actions-output\/run-suite-and-wait-\w+\/run-suite-and-wait-results\.json$/,
          ),
        ]);
        const artifacts = artifactsDir(run, 'suite-report');
        const junit = junitCases(await readFile(path.join(artifacts, 'reports', 'regression.xml'), 'utf8'));
        const names = Array.from({ length: 12 }, (_, i) => `Case ${String(i + 1).padStart(2, '0')}`);
        expect([...junit.keys()].sort()).toEqual(names);
        for (const name of names) expect(junit.get(name), name).toHaveLength(1);
        expect(junit.get('Case 07')?.[0]).toContain('<flakyFailure');
        expect([...junit.values()].flat().join('')).not.toMatch(/<failure|<error/);
        const summary = await readFile(path.join(artifacts, 'reports', 'regression.md'), 'utf8');
        expect(summary).toContain('Suite Regression: 12 of 12 jobs passed');
        expect(summary).toContain('12 jobs, 12 passed, 0 failed, 1 flaky');
        const results = kept.find((file) => file.endsWith('results.json')) as string;
        expect(JSON.parse(await readFile(path.join(artifacts, results), 'utf8'))).toMatchObject({
          buildName: `nightly ${pipelineId}`,
        });
      },
    );
  },
);
