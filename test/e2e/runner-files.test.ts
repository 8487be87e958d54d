/**
 * The runner's files (`GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY`, `GITHUB_STATE`) that cannot be
 * written: the bundles run through the harness with one of them on a full device, a read-only
 * file, in a folder that does not exist, a named pipe nobody reads, or a folder. The step ends
 * without a stack trace, fails with an error naming the file and why, writes the other files, and
 * its log says what was done on the service; the post step stays the post step.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runStep, type FileCommand, type PhaseResult, type StepResult } from '@sauce-actions/action-harness';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOBILE, ROOT, SAUCE } from './support/lab.ts';

let emulator: RunningEmulator;
let work: string;
let workspace: string;
const steps: StepResult[] = [];
/** Files made immutable (`chattr +i`) for a read-only file under root, undone at the end. */
const immutable: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  work = await mkdtemp(path.join(os.tmpdir(), 'e2e-runner-files-'));
  workspace = path.join(work, 'workspace');
  mkdirSync(workspace);
  await createSampleApk(path.join(workspace, 'app.apk'), {
    packageId: 'com.example.files',
    name: 'Files Shop',
    version: '1.0.0',
    versionCode: 1,
  });
});

afterAll(async () => {
  for (const file of immutable) spawnSync('chattr', ['-i', file]);
  await Promise.all(steps.map((step) => step.cleanup()));
  await emulator?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Ways a runner's file can refuse to be written, each made fresh under `name`. */
const UNWRITABLE: Record<string, (name: string) => string> = {
  'a full device': () => '/dev/full',
  'a read-only file': (name) => readOnlyFile(path.join(work, `${name}-read-only`)),
  'a missing folder': (name) => path.join(work, `${name}-missing`, 'file'),
  'a named pipe nobody reads': (name) => {
    const file = path.join(work, `${name}-fifo`);
    expect(spawnSync('mkfifo', [file]).status).toBe(0);
    return file;
  },
  'a folder': (name) => {
    const folder = path.join(work, `${name}-folder`);
    mkdirSync(folder);
    return folder;
  },
};

/** A file this process cannot write: mode 0444, and immutable too when run as root, who ignores the mode. */
function readOnlyFile(file: string): string {
  writeFileSync(file, '');
  chmodSync(file, 0o444);
  if (writable(file)) {
    spawnSync('chattr', ['+i', file]);
    immutable.push(file);
  }
  if (writable(file)) return '/proc/version';
  return file;
}

function writable(file: string): boolean {
  try {
    appendFileSync(file, '');
    return true;
  } catch {
    return false;
  }
}

/** The step ended on its own, with an error that names the file, and no stack trace. */
function expectFileError(phase: PhaseResult, variable: string): void {
  expect(phase.timedOut, phase.log).toBe(false);
  expect(phase.exitCode, phase.log).toBe(1);
  expect(phase.stderr).not.toMatch(/^\s+at /m);
  const errors = phase.annotations.filter((annotation) => annotation.level === 'error');
  const named = errors.find((annotation) => annotation.message.includes(variable));
  expect(named?.message, phase.log).toMatch(/could not be written: .+\((E[A-Z]+)\)/);
}

const cases = Object.entries(UNWRITABLE);

describe.concurrent('upload-build with a runner file that cannot be written', () => {
  it.each(cases)(
    'GITHUB_OUTPUT on %s: the summary is written, the log has the outputs',
    async (kind, make) => {
      const name = `output-${kind.replaceAll(' ', '-')}`;
      const step = await upload({ output: make(name) });
      expectFileError(step, 'GITHUB_OUTPUT');
      expect(step.summary).toContain('Uploaded Files Shop 1.0.0');
      const buildId = /build-id=(\d+)/.exec(step.log)?.[1];
      expect(buildId, step.log).toBeDefined();
      expect(step.log).toContain(`Uploaded`);
    },
  );

  it.each(cases)('GITHUB_STEP_SUMMARY on %s: the outputs are written', async (kind, make) => {
    const name = `summary-${kind.replaceAll(' ', '-')}`;
    const step = await upload({ summary: make(name) });
    expectFileError(step, 'GITHUB_STEP_SUMMARY');
    expect(step.outputs['build-id']).toMatch(/^\d+$/);
    expect(step.log).toContain('Uploaded Files Shop 1.0.0');
  });
});

describe.concurrent(
  'manage-tunnel, whose post step deletes the tunnel, with a runner file that cannot be written',
  () => {
    it.each(cases)(
      'GITHUB_STATE on %s in both steps: the main step fails naming it, the post step runs no main step again',
      async (kind, make) => {
        const name = `state-${kind.replaceAll(' ', '-')}`;
        const tunnel = await runningTunnel(name);
        const step = await waitForTunnel(name, {
          main: { state: make(`${name}-main`) },
          post: { state: make(`${name}-post`) },
        });
        expectFileError(step, 'GITHUB_STATE');
        expect(step.log).toContain(`Tunnel ${tunnel} ("${name}") is running.`);
        expect(step.outputs['tunnel-id']).toBe(tunnel);
        expect(step.post?.exitCode, step.post?.log).toBe(0);
        expect(step.post?.log).not.toContain('is running.');
      },
    );

    it.each(cases)(
      "the post step's GITHUB_STEP_SUMMARY on %s: the tunnel is deleted, and the post step fails naming the file",
      async (kind, make) => {
        const name = `post-summary-${kind.replaceAll(' ', '-')}`;
        const tunnel = await runningTunnel(name);
        const step = await waitForTunnel(name, {
          post: { summary: make(name), output: make(`${name}-output`) },
        });
        expect(step.exitCode, step.log).toBe(0);
        const post = step.post as PhaseResult;
        expectFileError(post, 'GITHUB_STEP_SUMMARY');
        expect(post.log).toContain(`Deleted tunnel ${tunnel}`);
        expect(await tunnelStatus(tunnel)).toBe('terminated');
      },
    );
  },
);

async function upload(files: Partial<Record<FileCommand, string>>): Promise<StepResult> {
  const step = await runStep({
    actionDir: path.join(ROOT, 'actions', 'upload-build'),
    inputs: { 'api-url': emulator.url, ...MOBILE, file: 'app.apk' },
    workspace,
    fileCommands: { main: files },
    timeoutMs: 30_000,
  });
  steps.push(step);
  return step;
}

async function waitForTunnel(
  name: string,
  fileCommands: Partial<Record<PhaseResult['phase'], Partial<Record<FileCommand, string>>>>,
): Promise<StepResult> {
  const step = await runStep({
    actionDir: path.join(ROOT, 'actions', 'manage-tunnel'),
    inputs: {
      'api-url': emulator.url,
      ...SAUCE,
      operation: 'wait',
      'tunnel-name': name,
      'stop-on-exit': 'true',
      timeout: '30s',
      'poll-interval': '1s',
    },
    workspace,
    fileCommands,
    timeoutMs: 30_000,
  });
  steps.push(step);
  return step;
}

async function runningTunnel(name: string): Promise<string> {
  const created = await fetch(`${emulator.url}/_emulator/tunnels`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ owner: 'demo', tunnel_identifier: name, status: 'running' }),
  });
  return ((await created.json()) as { id: string }).id;
}

async function tunnelStatus(id: string): Promise<string | undefined> {
  const { tunnels } = (await (await fetch(`${emulator.url}/_emulator/tunnels`)).json()) as {
    tunnels: { id: string; status: string }[];
  };
  return tunnels.find((tunnel) => tunnel.id === id)?.status;
}
