/**
 * `npm run local-action -- <action> <.env file>`, as CONTRIBUTING.md shows it: each action's
 * TypeScript sources under `@github/local-action` (tsx, its stand-in for `@actions/core`), with the
 * `.env.example` the action ships pointed at this file's emulator. The outputs are read from the
 * table the tool prints, the summary from what the script prints after it; the post step must run
 * the post definition once, after the main step and with its state, not the main step again.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/lab.ts';

/** The address every `.env.example` names: the emulator as CONTRIBUTING.md starts it. */
const DOCUMENTED_URL = 'http://127.0.0.1:4545';

let emulator: RunningEmulator;
let work: string;
/** The runs' workspace (`GITHUB_WORKSPACE`): the sample APK, the JUnit reports, the results files. */
let workspace: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, jobDurationMs: 300 });
  work = await mkdtemp(path.join(os.tmpdir(), 'local-action-'));
  workspace = path.join(work, 'workspace');
  await mkdir(path.join(workspace, '.tmp'), { recursive: true });
  await createSampleApk(path.join(workspace, '.tmp', 'app-release.apk'), {
    packageId: 'com.example.local',
    name: 'Local Shop',
    version: '4.5.6',
    versionCode: 456,
  });
});

afterAll(async () => {
  await emulator?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

interface LocalRun {
  code: number | null;
  output: string;
  /** The log between the tool's "Running Action" and what follows it. */
  main: string;
  /** The log of the post step; empty when the tool ran none. */
  post: string;
  /** The tool's table of outputs. */
  outputs: Record<string, string>;
  /** What the script printed as the step summary. */
  summary: string;
}

/** Runs `npm run local-action -- <action> <.env>` with the action's `.env.example`, plus `extra` lines. */
async function localAction(action: string, extra: Record<string, string> = {}): Promise<LocalRun> {
  const example = await readFile(path.join(ROOT, 'actions', action, '.env.example'), 'utf8');
  expect(example, `${action}/.env.example points at the documented emulator`).toContain(DOCUMENTED_URL);
  const envFile = path.join(work, `${action}.env`);
  const lines = Object.entries(extra).map(([name, value]) => `${name}=${value}`);
  await writeFile(envFile, [example.replaceAll(DOCUMENTED_URL, emulator.url), ...lines, ''].join('\n'));
  const child = spawn('npm', ['run', '--silent', 'local-action', '--', action, envFile], {
    cwd: ROOT,
    env: {
      ...process.env,
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
      GITHUB_WORKSPACE: workspace,
      RUNNER_TEMP: work,
      FORCE_COLOR: '0',
    },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const section = (title: string): string => {
    const start = output.indexOf(title);
    if (start === -1) return '';
    const rest = output.slice(start + title.length);
    const end = rest.search(/={20,}\n\s+(Running Post Step|Action Outputs)\n/);
    return end === -1 ? rest : rest.slice(0, end);
  };
  const outputs: Record<string, string> = {};
  const table = output.slice(output.indexOf('Action Outputs'), output.indexOf('\nStep summary'));
  for (const [, name, value] of table.matchAll(/^│ \d+\s+│ '([^']+)'\s+│ '(.*)'\s+│$/gm)) {
    outputs[name as string] = value as string;
  }
  const summaryAt = output.indexOf('\nStep summary');
  return {
    code,
    output,
    main: section('Running Action'),
    post: section('Running Post Step'),
    outputs,
    summary: summaryAt === -1 ? '' : output.slice(summaryAt),
  };
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe.concurrent('npm run local-action', () => {
  it('upload-build uploads the workspace APK, then invite-testers invites to that build with its outputs', async () => {
    const upload = await localAction('upload-build');
    expect(upload.code, upload.output).toBe(0);
    expect(upload.outputs, upload.output).toMatchObject({
      'app-name': 'Local Shop',
      'app-version': '4.5.6',
      'build-id': expect.stringMatching(/^\d+$/),
      'project-id': expect.stringMatching(/^\d+$/),
    });
    expect(upload.summary).toContain('Uploaded Local Shop 4.5.6');
    expect(upload.output).not.toContain('demo-api-key');

    const invite = await localAction('invite-testers', {
      'INPUT_PROJECT-ID': upload.outputs['project-id'] as string,
      'INPUT_BUILD-ID': upload.outputs['build-id'] as string,
    });
    expect(invite.code, invite.output).toBe(0);
    expect(invite.outputs, invite.output).toMatchObject({
      'invited-groups': 'qa,local-testers',
      'added-testers': 'ana@example.com,ben@example.com',
      'refused-testers': '',
    });
    expect(invite.summary).toContain(`Invited testers to build ${upload.outputs['build-id']}`);
  });

  it('manage-tunnel waits for a running tunnel, and its post step deletes it (stop-on-exit: true)', async () => {
    const created = await fetch(`${emulator.url}/_emulator/tunnels`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ owner: 'demo', tunnel_identifier: 'local-action-tunnel', status: 'running' }),
    });
    const { id } = (await created.json()) as { id: string };

    const run = await localAction('manage-tunnel', {
      'INPUT_TUNNEL-NAME': 'local-action-tunnel',
      'INPUT_STOP-ON-EXIT': 'true',
    });
    expect(run.code, run.output).toBe(0);
    expect(run.outputs, run.output).toMatchObject({ 'tunnel-id': id, 'log-file': '' });
    expect(JSON.parse(run.outputs.tunnels ?? '[]')).toMatchObject([
      { id, tunnel_identifier: 'local-action-tunnel' },
    ]);
    expect(run.main).toContain(`Tunnel ${id} ("local-action-tunnel") is running.`);
    expect(run.post).toContain(`Deleted tunnel ${id} ("local-action-tunnel")`);
    expect(occurrences(run.output, 'is running.'), 'the post step ran the main step again').toBe(1);
    expect(run.summary).toContain('Tunnel local-action-tunnel is running');
    expect(run.summary).toContain(`Deleted tunnel ${id}.`);
    const { tunnels } = (await (await fetch(`${emulator.url}/_emulator/tunnels`)).json()) as {
      tunnels: { id: string; status: string }[];
    };
    expect(tunnels.find((tunnel) => tunnel.id === id)?.status).toBe('terminated');
  });

  it('run-js-tests runs the QUnit page on two platforms and writes its JUnit report; the post step has nothing to stop', async () => {
    const run = await localAction('run-js-tests');
    expect(run.code, run.output).toBe(0);
    expect(run.outputs, run.output).toMatchObject({ total: '2', passed: '2', failed: '0', flaky: '0' });
    expect(JSON.parse(run.outputs['job-ids'] ?? '[]')).toHaveLength(2);
    expect(occurrences(run.output, 'Started the JS tests'), 'the post step ran the main step again').toBe(1);
    expect(run.post).toContain('Nothing to clean up.');
    expect(run.summary).toContain('JS unit tests (qunit): all passed');
    const junit = await readFile(path.join(workspace, '.tmp', 'js-tests.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites[^>]* tests="2" failures="0"/);
  });

  it('run-suite-and-wait runs the Smoke suite through the tunnel, fails on its failing case with the JUnit report written; the post step has nothing to stop', async () => {
    const run = await localAction('run-suite-and-wait');
    expect(run.code, run.output).toBe(0);
    expect(run.outputs, run.output).toMatchObject({ total: '3', passed: '2', failed: '1' });
    expect(run.outputs['build-name']).toMatch(/^Smoke /);
    expect(run.main).toContain('Checkout fails');
    expect(occurrences(run.output, 'Started suite "Smoke"'), 'the post step ran the main step again').toBe(1);
    expect(run.post).toContain('Nothing to clean up.');
    expect(run.summary).toContain('Suite Smoke: 2 of 3 jobs passed');
    expect(run.summary).toContain('Run suite and wait: failed');
    const junit = await readFile(path.join(workspace, '.tmp', 'smoke.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites[^>]* tests="3" failures="1"/);
  });
});
