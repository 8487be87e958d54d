/**
 * CONTRIBUTING.md's "Debugging an action locally": each action's TypeScript sources under
 * `@github/local-action` (tsx, its stand-in for `@actions/core`), with the `.env.example` the
 * action ships pointed at this file's emulator. Both documented commands are run, each from the
 * repository's root and from an action's folder: `npm run local-action -- <action> <.env file>`
 * and the tool's own `npx local-action <action path> src/local-action.ts <.env file> [--post
 * src/local-action-post.ts]`. The workspace is the root unless the run names one; the summary is
 * read from the log, where the step shows it; the post step must run the post definition once,
 * after the main step and with its state, not the main step again.
 *
 * Each run is a few processes (npm, the tool, tsx, `npm ls`) and most of a CPU second: the five
 * runs are independent of each other (invite-testers invites to a build this file uploads itself)
 * and run side by side, and each waits for its process to end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SauceClient } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOBILE, ROOT } from './support/lab.ts';

/** The address every `.env.example` names: the emulator as CONTRIBUTING.md starts it. */
const DOCUMENTED_URL = 'http://127.0.0.1:4545';
/** A safety net only: the runs end on their own, and each test waits for its run's exit. */
const TIMEOUT_MS = 300_000;
const MAIN_ENTRY = 'src/local-action.ts';
const POST_ENTRY = 'src/local-action-post.ts';

let emulator: RunningEmulator;
let work: string;
/** The workspace the runs that name one use (`GITHUB_WORKSPACE`): their JUnit reports. */
let workspace: string;
/** A folder of this file's own under the root's `.tmp/`, where a run that names no workspace looks. */
let inRoot: string;
/** The build invite-testers invites to. */
let build: { projectId: string; buildId: string };
const running = new Set<ChildProcess>();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, jobDurationMs: 300 });
  work = await mkdtemp(path.join(os.tmpdir(), 'local-action-'));
  workspace = path.join(work, 'workspace');
  await mkdir(path.join(workspace, '.tmp'), { recursive: true });
  await mkdir(path.join(ROOT, '.tmp'), { recursive: true });
  inRoot = await mkdtemp(path.join(ROOT, '.tmp', 'local-action-'));
  const apk = path.join(inRoot, 'app-release.apk');
  await createSampleApk(apk, {
    packageId: 'com.example.local',
    name: 'Local Shop',
    version: '4.5.6',
    versionCode: 456,
  });
  const sauce = new SauceClient({
    email: MOBILE.email,
    apiKey: MOBILE['api-key'],
    mobileUrl: emulator.url,
    uploadUrl: emulator.url,
  });
  const uploaded = await sauce.mobile.upload(apk);
  build = { projectId: String(uploaded.project_id), buildId: String(uploaded.build_id) };
});

afterAll(async () => {
  // A run cut short by the safety net leaves nothing running: each is a process group of its own.
  for (const child of running) if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  await emulator?.close();
  if (work) await rm(work, { recursive: true, force: true });
  if (inRoot) await rm(inRoot, { recursive: true, force: true });
});

/** `npm run local-action -- <action> <.env file>`. */
const npmRun = (action: string, envFile: string): string[] => [
  'npm',
  'run',
  '--silent',
  'local-action',
  '--',
  action,
  envFile,
];

/** The tool's own command, as its README writes it: the entries relative to the action's folder. */
function npxLocalAction(actionPath: string, envFile: string, post: boolean): string[] {
  return ['npx', 'local-action', actionPath, MAIN_ENTRY, envFile, ...(post ? ['--post', POST_ENTRY] : [])];
}

interface LocalRun {
  code: number | null;
  output: string;
  /** The log between the tool's "Running Action" and what follows it. */
  main: string;
  /** The log of the post step; empty when the tool ran none. */
  post: string;
  /** The tool's table of outputs. */
  outputs: Record<string, string>;
  /** The steps' `Step summary` groups in the log, one after the other. */
  summary: string;
}

interface Launch {
  action: string;
  /** The command, given the `.env` file as it is to be typed. */
  command: (envFile: string) => string[];
  /** Where it is typed, relative to the root. */
  cwd: string;
  /** Lines that replace the example's own of the same names. */
  set?: Record<string, string>;
  /** The `.env` file in the root's `.tmp/`, typed relative to the root rather than absolute. */
  envFromRoot?: boolean;
  /** Whether the run names this file's workspace; else the root is the workspace. */
  namesWorkspace?: boolean;
}

/** Runs a documented command with the action's `.env.example`, pointed at this file's emulator. */
async function localAction(launch: Launch): Promise<LocalRun> {
  const { action, set = {} } = launch;
  const example = await readFile(path.join(ROOT, 'actions', action, '.env.example'), 'utf8');
  expect(example, `${action}/.env.example points at the documented emulator`).toContain(DOCUMENTED_URL);
  const lines = example
    .replaceAll(DOCUMENTED_URL, emulator.url)
    .split('\n')
    .filter((line) => !Object.keys(set).some((name) => line.startsWith(`${name}=`)));
  const envFile = path.join(launch.envFromRoot ? inRoot : work, `${action}.env`);
  await writeFile(
    envFile,
    [...lines, ...Object.entries(set).map(([name, value]) => `${name}=${value}`), ''].join('\n'),
  );
  const [command, ...args] = launch.command(launch.envFromRoot ? path.relative(ROOT, envFile) : envFile);
  const child = spawn(command as string, args, {
    cwd: path.join(ROOT, launch.cwd),
    detached: true,
    env: {
      ...runnerFreeEnv(),
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
      ...(launch.namesWorkspace ? { GITHUB_WORKSPACE: workspace } : {}),
      RUNNER_TEMP: work,
      FORCE_COLOR: '0',
    },
  });
  running.add(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  }).finally(() => running.delete(child));
  return parseRun(code, output);
}

/** This process's environment without a runner's: the test may itself run in a GitHub job. */
function runnerFreeEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(GITHUB_|INPUT_|STATE_|ACTIONS_|RUNNER_)/.test(name)),
  );
}

function parseRun(code: number | null, output: string): LocalRun {
  const section = (title: string): string => {
    const start = output.indexOf(title);
    if (start === -1) return '';
    const rest = output.slice(start + title.length);
    const end = rest.search(/={20,}\n\s+(Running Post Step|Action Outputs)\n/);
    return end === -1 ? rest : rest.slice(0, end);
  };
  const outputs: Record<string, string> = {};
  for (const [, name, value] of output
    .slice(output.indexOf('Action Outputs'))
    .matchAll(/^│ \d+\s+│ '([^']+)'\s+│ '(.*)'\s+│$/gm)) {
    outputs[name as string] = value as string;
  }
  const summary = [...output.matchAll(/::group::Step summary\n([\s\S]*?)::endgroup::/g)]
    .map((match) => (match[1] as string).replace(/^::info::/gm, ''))
    .join('');
  return {
    code,
    output,
    main: section('Running Action'),
    post: section('Running Post Step'),
    outputs,
    summary,
  };
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

it('CONTRIBUTING.md writes the commands this file runs', async () => {
  const contributing = await readFile(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  const example = 'actions/run-js-tests/.env.example';
  for (const command of [
    npmRun('run-js-tests', example),
    npxLocalAction('actions/run-js-tests', example, true),
    npxLocalAction('.', '.env.example', true),
  ]) {
    expect(contributing).toContain(command.filter((arg) => arg !== '--silent').join(' '));
  }
  expect(contributing).toMatch(/^cd actions\/run-js-tests$/m);
});

describe.concurrent('@github/local-action', () => {
  it(
    "upload-build, the tool started in the action's folder with no workspace named, uploads the root's APK and logs its summary",
    async () => {
      const upload = await localAction({
        action: 'upload-build',
        command: (envFile) => npxLocalAction('.', envFile, false),
        cwd: 'actions/upload-build',
        set: { INPUT_FILE: path.relative(ROOT, path.join(inRoot, 'app-release.apk')) },
      });
      expect(upload.code, upload.output).toBe(0);
      expect(upload.outputs, upload.output).toMatchObject({
        'app-name': 'Local Shop',
        'app-version': '4.5.6',
        'build-id': expect.stringMatching(/^\d+$/),
        'project-id': expect.stringMatching(/^\d+$/),
      });
      expect(upload.summary, upload.output).toContain('<h2>Uploaded Local Shop 4.5.6</h2>');
      expect(upload.output).not.toContain('demo-api-key');
    },
    TIMEOUT_MS,
  );

  it(
    "invite-testers, npm run typed in the action's folder with the .env file as CONTRIBUTING.md writes it, invites to a build",
    async () => {
      const invite = await localAction({
        action: 'invite-testers',
        command: (envFile) => npmRun('invite-testers', envFile),
        cwd: 'actions/invite-testers',
        envFromRoot: true,
        set: { 'INPUT_PROJECT-ID': build.projectId, 'INPUT_BUILD-ID': build.buildId },
      });
      expect(invite.code, invite.output).toBe(0);
      expect(invite.outputs, invite.output).toMatchObject({
        'invited-groups': 'qa,local-testers',
        'added-testers': 'ana@example.com,ben@example.com',
        'refused-testers': '',
      });
      expect(invite.summary, invite.output).toContain(`Invited testers to build ${build.buildId}`);
    },
    TIMEOUT_MS,
  );

  it(
    "manage-tunnel, the tool started in the action's folder, waits for a running tunnel, and its post step deletes it (stop-on-exit: true)",
    async () => {
      const created = await fetch(`${emulator.url}/_emulator/tunnels`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ owner: 'demo', tunnel_identifier: 'local-action-tunnel', status: 'running' }),
      });
      const { id } = (await created.json()) as { id: string };

      const run = await localAction({
        action: 'manage-tunnel',
        command: (envFile) => npxLocalAction('.', envFile, true),
        cwd: 'actions/manage-tunnel',
        namesWorkspace: true,
        set: { 'INPUT_TUNNEL-NAME': 'local-action-tunnel', 'INPUT_STOP-ON-EXIT': 'true' },
      });
      expect(run.code, run.output).toBe(0);
      expect(run.outputs, run.output).toMatchObject({ 'tunnel-id': id, 'log-file': '' });
      expect(JSON.parse(run.outputs.tunnels ?? '[]')).toMatchObject([
        { id, tunnel_identifier: 'local-action-tunnel' },
      ]);
      expect(run.main).toContain(`Tunnel ${id} ("local-action-tunnel") is running.`);
      expect(run.post).toContain(`Deleted tunnel ${id} ("local-action-tunnel")`);
      expect(occurrences(run.output, 'is running.'), 'the post step ran the main step again').toBe(1);
      expect(run.summary, run.output).toContain('Tunnel local-action-tunnel is running');
      expect(run.summary).toContain(`Deleted tunnel ${id}.`);
      const { tunnels } = (await (await fetch(`${emulator.url}/_emulator/tunnels`)).json()) as {
        tunnels: { id: string; status: string }[];
      };
      expect(tunnels.find((tunnel) => tunnel.id === id)?.status).toBe('terminated');
    },
    TIMEOUT_MS,
  );

  it(
    'run-js-tests, the tool started in the root with --post relative to the action, runs the QUnit page on two platforms; the post step has nothing to stop',
    async () => {
      const run = await localAction({
        action: 'run-js-tests',
        command: (envFile) => npxLocalAction('actions/run-js-tests', envFile, true),
        cwd: '.',
        namesWorkspace: true,
      });
      expect(run.code, run.output).toBe(0);
      expect(run.outputs, run.output).toMatchObject({ total: '2', passed: '2', failed: '0', flaky: '0' });
      expect(JSON.parse(run.outputs['job-ids'] ?? '[]')).toHaveLength(2);
      expect(occurrences(run.output, 'Started the JS tests'), 'the post step ran the main step again').toBe(
        1,
      );
      expect(run.post).toContain('Nothing to clean up.');
      expect(run.summary, run.output).toContain('JS unit tests (qunit): all passed');
      const junit = await readFile(path.join(workspace, '.tmp', 'js-tests.xml'), 'utf8');
      expect(junit).toMatch(/<testsuites[^>]* tests="2" failures="0"/);
    },
    TIMEOUT_MS,
  );

  it(
    'run-suite-and-wait, npm run in the root, fails on its failing case with the JUnit report written; the post step has nothing to stop',
    async () => {
      const run = await localAction({
        action: 'run-suite-and-wait',
        command: (envFile) => npmRun('run-suite-and-wait', envFile),
        cwd: '.',
        namesWorkspace: true,
      });
      expect(run.code, run.output).toBe(0);
      expect(run.outputs, run.output).toMatchObject({ total: '3', passed: '2', failed: '1' });
      expect(run.outputs['build-name']).toMatch(/^Smoke /);
      expect(run.main).toContain('Checkout fails');
      expect(occurrences(run.output, 'Started suite "Smoke"'), 'the post step ran the main step again').toBe(
        1,
      );
      expect(run.post).toContain('Nothing to clean up.');
      expect(run.summary, run.output).toContain('Suite Smoke: 2 of 3 jobs passed');
      expect(run.summary).toContain('Run suite and wait: failed');
      const junit = await readFile(path.join(workspace, '.tmp', 'smoke.xml'), 'utf8');
      expect(junit).toMatch(/<testsuites[^>]* tests="3" failures="1"/);
    },
    TIMEOUT_MS,
  );
});
