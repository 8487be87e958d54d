/**
 * `.github/workflows/e2e.yml` run here as the runner would run it, since the workflow itself only
 * runs on GitHub: each job, for each matrix combination of this machine's OS, in a workspace of
 * its own; its `uses: ./actions/<name>` steps through the action harness and its `run:` steps in
 * bash, with the `${{ ... }}` expressions it uses resolved (`steps.<id>.outputs.<name>`, `env.X`,
 * `matrix.X`), outputs passed from step to step and `GITHUB_ENV` carried to the next steps. The
 * emulator is started by the test, with short jobs; the workflow's own start step runs once on
 * its own, to prove its wait for the ready line.
 */
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import { setTimeout } from 'node:timers/promises';
import path from 'node:path';
import { parseKeyValueFile, runStep, type StepResult } from '@sauce-actions/action-harness';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { runBashStep, type BashStepRun } from '../support/bash-step.ts';
import { ourActionName, ROOT, type Job, type Step } from '../support/workflows.ts';

const WORKFLOW_FILE = path.join(ROOT, '.github', 'workflows', 'e2e.yml');
const workflow = parse(await readFile(WORKFLOW_FILE, 'utf8')) as {
  env?: Record<string, unknown>;
  jobs: Record<string, Job & { strategy?: { matrix?: Record<string, unknown> } }>;
};
const RUNNER_OS = { linux: 'ubuntu-latest', darwin: 'macos-latest', win32: 'windows-latest' }[
  process.platform as 'linux' | 'darwin' | 'win32'
];
/** `run:` steps whose work is already done here: the checkout's dependencies are installed. */
const DONE_HERE = new Set(['npm ci']);

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Every combination of a job's matrix (no `include` or `exclude` in this workflow), on this OS only. */
function combinations(matrix: Record<string, unknown> | undefined): Record<string, string>[] {
  let all: Record<string, string>[] = [{}];
  for (const [key, values] of Object.entries(matrix ?? {})) {
    if (!Array.isArray(values)) throw new Error(`matrix.${key}: only lists are understood here`);
    const kept = key === 'os' ? values.filter((value) => value === RUNNER_OS) : values;
    all = all.flatMap((combination) => kept.map((value) => ({ ...combination, [key]: String(value) })));
  }
  return all;
}

interface Scope {
  env: Record<string, string>;
  matrix: Record<string, string>;
  outputs: Map<string, Record<string, string>>;
}

/** Replaces each `${{ ... }}`; an expression this workflow is not expected to use is an error. */
function resolve(text: unknown, scope: Scope, where: string): string {
  return String(text).replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_whole, expression: string) => {
    let match = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
    if (match) {
      const outputs = scope.outputs.get(match[1] as string);
      if (!outputs) throw new Error(`${where}: ${expression} reads a step that has not run`);
      return outputs[match[2] as string] ?? '';
    }
    match = /^(env|matrix)\.([\w-]+)$/.exec(expression);
    const value = match ? scope[match[1] as 'env' | 'matrix'][match[2] as string] : undefined;
    if (value === undefined) throw new Error(`${where}: cannot resolve \${{ ${expression} }}`);
    return value;
  });
}

function resolveMap(map: unknown, scope: Scope, where: string): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries((map ?? {}) as Record<string, unknown>)) {
    resolved[name] = resolve(value, scope, `${where} ${name}`);
  }
  return resolved;
}

/** A workspace that looks like the checkout to a `run:` step: the repository's installed dependencies. */
async function makeWorkspace(): Promise<{ workspace: string; runnerTemp: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'e2e-workflow-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const workspace = path.join(root, 'workspace');
  const runnerTemp = path.join(root, 'temp');
  await mkdir(workspace);
  await mkdir(runnerTemp);
  await symlink(path.join(ROOT, 'node_modules'), path.join(workspace, 'node_modules'), 'junction');
  return { workspace, runnerTemp };
}

interface JobRun {
  steps: { name: string; result?: StepResult; bash?: BashStepRun }[];
  outputs: Map<string, Record<string, string>>;
}

/** Runs one job of the workflow for one matrix combination, against its own emulator. */
async function runJob(jobName: string, matrix: Record<string, string>): Promise<JobRun> {
  const job = workflow.jobs[jobName] as Job;
  const emulator: RunningEmulator = await startEmulator({ port: 0, jobDurationMs: 300 });
  cleanups.push(() => emulator.close());
  const { workspace, runnerTemp } = await makeWorkspace();
  const scope: Scope = { env: {}, matrix, outputs: new Map() };
  Object.assign(
    scope.env,
    resolveMap(workflow.env, scope, 'env'),
    resolveMap(job.env, scope, `${jobName} env`),
  );
  const run: JobRun = { steps: [], outputs: scope.outputs };
  for (const [index, step] of (job.steps ?? []).entries()) {
    const name = `${jobName} step ${step.id ?? index + 1}`;
    if ('if' in step) throw new Error(`${name}: \`if\` is not understood here`);
    const stepScope: Scope = { ...scope, env: { ...scope.env } };
    Object.assign(stepScope.env, resolveMap(step.env, stepScope, `${name} env`));
    if (typeof step.uses === 'string') {
      const action = ourActionName(step.uses);
      if (action === undefined) continue; // checkout and setup-node: the checkout and its Node are this repository's.
      const result = await runStep({
        actionDir: path.join(ROOT, 'actions', action),
        inputs: resolveMap(step.with, stepScope, `${name} with`),
        // One RUNNER_TEMP for the whole job, as on the runner: steps see each other's files there.
        env: { ...stepScope.env, RUNNER_TEMP: runnerTemp },
        workspace,
        tempDir: path.dirname(workspace),
        ...(typeof step.id === 'string' ? { id: step.id } : {}),
      });
      cleanups.push(() => result.cleanup());
      run.steps.push({ name, result });
      expect(result.exitCode, `${name} (${action}):\n${result.log}`).toBe(0);
      if (typeof step.id === 'string') scope.outputs.set(step.id, result.outputs);
      Object.assign(scope.env, parseKeyValueFile(await readFile(result.files.env, 'utf8')));
      continue;
    }
    const script = String(step.run);
    if (DONE_HERE.has(script.trim())) continue;
    if (step.id === 'emulator') {
      // Started by the test instead (short jobs); the step's `url` output is its address.
      expect(script).toContain('echo "url=$url" >>"$GITHUB_OUTPUT"');
      scope.outputs.set('emulator', { url: emulator.url });
      continue;
    }
    const bash = await runBashStep(resolve(script, stepScope, name), {
      workspace,
      runnerTemp,
      env: stepScope.env,
    });
    run.steps.push({ name, bash });
    expect(bash.code, `${name}:\n${bash.output}`).toBe(0);
    Object.assign(scope.env, bash.env);
  }
  return run;
}

describe.runIf(RUNNER_OS !== undefined)('the e2e workflow, run here', () => {
  const jobs = Object.entries(workflow.jobs).flatMap(([name, job]) =>
    combinations(job.strategy?.matrix).map((matrix) => ({ name, matrix })),
  );

  it('has the release pipeline and the nightly pipeline in two shards, on three runner OSes', () => {
    expect(jobs.map(({ name, matrix }) => `${name} ${JSON.stringify(matrix)}`)).toEqual([
      `release {"os":"${RUNNER_OS}"}`,
      `nightly {"os":"${RUNNER_OS}","shard":"1"}`,
      `nightly {"os":"${RUNNER_OS}","shard":"2"}`,
    ]);
    for (const job of Object.values(workflow.jobs)) {
      expect(job.strategy?.matrix?.os).toEqual(['ubuntu-latest', 'macos-latest', 'windows-latest']);
      expect(job.defaults).toEqual({ run: { shell: 'bash' } });
    }
  });

  it.concurrent.each(jobs.map((job) => [`${job.name} ${Object.values(job.matrix).join(' ')}`, job] as const))(
    '%s: every step green, outputs passed on and checked by its last step',
    async (_title, { name, matrix }) => {
      const run = await runJob(name, matrix);
      const last = run.steps.at(-1);
      expect(last?.name).toMatch(/step \d+$/);
      // The last step checked each output it names: one "ok" line per check, and no error.
      expect(last?.bash?.output).not.toContain('::error::');
      expect(last?.bash?.output.match(/^ok /gm)?.length ?? 0).toBeGreaterThanOrEqual(7);
      if (name === 'release') {
        const upload = run.outputs.get('upload') ?? {};
        const invite = run.steps.find((step) => step.name === 'release step invite')?.result;
        expect(upload['build-id']).toMatch(/^\d+$/);
        // invite-testers got the build from upload-build's outputs.
        expect(invite?.log).toContain(upload['build-id']);
        expect(run.outputs.get('invite')?.['invited-groups']).toBe('qa,e2e-testers');
      } else {
        expect(run.outputs.get('tunnel')?.['tunnel-id']).not.toBe('');
        expect(run.outputs.get('regression')).toMatchObject({ total: '6', passed: '6', failed: '0' });
        expect(run.outputs.get('js')).toMatchObject({ total: '2', passed: '2' });
      }
    },
  );

  it('the check step fails when an output is not what it expects', async () => {
    const job = workflow.jobs.release as Job;
    const check = (job.steps ?? []).at(-1) as Step & { run: string; env: Record<string, string> };
    const { workspace, runnerTemp } = await makeWorkspace();
    const outputs = new Map([
      ['upload', { 'build-id': '12', 'project-id': '3', 'app-name': 'Demo Shop', 'app-version': '2.3.0' }],
      [
        'invite',
        { 'invited-groups': 'qa', 'added-testers': 'dave@example.com', 'created-groups': 'e2e-testers' },
      ],
      ['promote', { decision: 'promoted', ring: 'qa' }],
    ]);
    const scope: Scope = { env: {}, matrix: {}, outputs };
    const env = {
      ...resolveMap(check.env, scope, 'check env'),
      BUILD_URL: 'http://127.0.0.1/projects/3/builds/12',
    };
    const bash = await runBashStep(check.run, { workspace, runnerTemp, env });
    expect(bash.code).toBe(1);
    expect(bash.output).toContain("::error::invited-groups is 'qa', expected qa,e2e-testers");
  });

  it('its emulator step waits for the ready line and hands the address to the next steps', async () => {
    const job = workflow.jobs.release as Job;
    const start = (job.steps ?? []).find((step) => step.id === 'emulator') as Step & { run: string };
    const { workspace, runnerTemp } = await makeWorkspace();
    const bash = await runBashStep(start.run, { workspace, runnerTemp, env: {}, detached: true });
    // The emulator it left running in the background shares the step's process group: ended,
    // and waited for until the group is gone, so that nothing of it outlives the file.
    cleanups.push(async () => {
      if (bash.pid === undefined) return;
      const group = -bash.pid;
      // Whether a signal reached the group: false once every process of it is gone.
      const alive = (signal: NodeJS.Signals | 0 = 0): boolean => {
        try {
          process.kill(group, signal);
          return true;
        } catch {
          return false;
        }
      };
      alive('SIGTERM');
      // A safety net, not a wait the test depends on: a group that ignores SIGTERM is killed.
      const killAt = performance.now() + 10_000;
      while (alive() && performance.now() < killAt + 5000) {
        if (performance.now() > killAt) alive('SIGKILL');
        await setTimeout(20);
      }
    });
    expect(bash.code, bash.output).toBe(0);
    expect(bash.outputs.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${bash.outputs.url}/_emulator/health`);
    expect(health.status).toBe(200);
  });
});
