/**
 * The post step of run-suite-and-wait: stops what the saved state names and still runs, sends
 * nothing when the main step finished cleanly; and, through the runner-faithful harness running
 * the sources, a main step killed outright (SIGKILL) after its jobs were queued.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { memoryState } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import { runStep, sourceAction, type StepResult } from '@sauce-actions/action-harness';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, runPost, type PostDeps } from '../src/post.ts';
import { run } from '../src/run.ts';
import { STATE_KEY } from '../src/state.ts';
import { clientFor, closeClients, connection, journal, suiteInputs } from './helpers.ts';
import { GREEN_SUITE, seed } from './seed.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
let slow: RunningEmulator;
let fast: RunningEmulator;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  [slow, fast] = await Promise.all([
    startEmulator({ port: 0, jobDurationMs: 600_000 }),
    startEmulator({ port: 0, jobDurationMs: 300, seed: seed() }),
  ]);
});
afterAll(async () => {
  await Promise.all(cleanups.map((cleanup) => cleanup()));
  await closeClients();
  await Promise.all([slow?.close(), fast?.close()]);
});

async function unfinishedJobs(emulator: RunningEmulator, build: string): Promise<string[]> {
  const jobs = await clientFor(emulator).automation.jobs.list({ full: true, limit: 1000 });
  return jobs
    .filter((job) => job.build === build && (job.status === 'queued' || job.status === 'in progress'))
    .map((job) => job.id);
}

async function smokeId(emulator: RunningEmulator): Promise<string> {
  const page = await clientFor(emulator).authoring.testSuites.list({ search: 'Smoke' });
  const suite = page.items.find((item) => item.name === 'Smoke');
  if (!suite) throw new Error('no Smoke suite in the seed');
  return suite.id;
}

describe('run-suite-and-wait post step', () => {
  it('stops the jobs of the saved build that still run, including those no poll had seen', async () => {
    const client = clientFor(slow);
    const startedAtMs = Date.now();
    const answer = await client.authoring.testSuites.run(await smokeId(slow), { buildName: 'Killed main' });
    expect(await unfinishedJobs(slow, answer.buildName)).toHaveLength(3);
    const state = memoryState({
      [STATE_KEY]: JSON.stringify({
        region: 'us-west-1',
        apiUrl: slow.url,
        builds: [answer.buildName],
        jobIds: [],
        startedAtMs,
        minimumCount: answer.runCount,
      }),
    });
    expect(post.hasWork(state)).toBe(true);
    const deps: PostDeps & ReturnType<typeof testStepDeps> = { ...testStepDeps({ state }), client };
    const result = await runPost({ connection: connection(slow) }, deps);

    expect(result.failure).toBeUndefined();
    expect(result.summary).toContain('Run suite and wait: cleanup');
    expect(result.summary).toContain('(3 job(s) found): 3 unfinished job(s) were stopped');
    expect(deps.logger.lines('info')).toContain('Stopped 3 unfinished job(s).');
    expect(await unfinishedJobs(slow, answer.buildName)).toEqual([]);
  });

  it('does nothing, and sends nothing, when the main step finished cleanly', async () => {
    expect(post.hasWork(memoryState())).toBe(false);
    expect(post.hasWork(memoryState({ [STATE_KEY]: '' }))).toBe(false);
    expect(post.hasWork(memoryState({ [STATE_KEY]: 'not json' }))).toBe(false);

    // A main step that ran to its end leaves a cleared state.
    const client = clientFor(fast);
    const folder = await mkdtemp(path.join(os.tmpdir(), 'suite-post-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const main = { ...testStepDeps({ tempDir: folder }), client };
    const result = await run(suiteInputs(fast, { suite: GREEN_SUITE }), main);
    expect(result.failure).toBeUndefined();
    expect(main.state.get(STATE_KEY)).toBe('');
    expect(post.hasWork(main.state)).toBe(false);

    const before = (await journal(fast)).length;
    const answer = await runPost(
      { connection: connection(fast) },
      { ...testStepDeps({ state: main.state }), client },
    );
    expect(answer).toEqual({ outputs: {}, summary: '', annotations: [] });
    expect(await journal(fast)).toHaveLength(before);
  });
});

/** The action as the runner runs it, from its sources; removed after the tests. */
async function sourceActionDir(): Promise<string> {
  const actionDir = path.join(ROOT, 'actions', 'run-suite-and-wait');
  const dir = await sourceAction(actionDir, path.join(actionDir, 'src', 'main.ts'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('run-suite-and-wait killed outright', () => {
  let step: StepResult | undefined;

  it('leaves its jobs to the post step, which stops them', async () => {
    step = await runStep({
      actionDir: await sourceActionDir(),
      inputs: {
        suite: 'Smoke',
        'build-name': 'SIGKILL',
        'api-url': slow.url,
        username: 'demo',
        'access-key': 'demo-access-key',
        'poll-interval': '1s',
      },
      cancelOn: /Started suite "Smoke"/,
      cancelSignal: 'SIGKILL',
    });
    cleanups.push(() => step?.cleanup() ?? Promise.resolve());
    expect(step.cancelled).toBe(true);
    expect(step.signal).toBe('SIGKILL');
    expect(step.state[STATE_KEY]).toContain('"builds":["SIGKILL"]');
    expect(step.state[STATE_KEY]).not.toContain('demo-access-key');
    expect(step.post?.exitCode, step.post?.log).toBe(0);
    expect(step.post?.log).toContain('Stopped 3 unfinished job(s).');
    expect(step.post?.summary).toContain('3 unfinished job(s) were stopped');
    expect(await unfinishedJobs(slow, 'SIGKILL')).toEqual([]);
  });

  it('has nothing to clean up after a main step that ended on its own', async () => {
    const before = (await journal(fast)).length;
    const result = await runStep({
      actionDir: await sourceActionDir(),
      inputs: {
        suite: GREEN_SUITE,
        'api-url': fast.url,
        username: 'demo',
        'access-key': 'demo-access-key',
        'poll-interval': '1s',
      },
    });
    cleanups.push(() => result.cleanup());
    expect(result.success, result.log).toBe(true);
    expect(result.post?.exitCode).toBe(0);
    expect(result.post?.log).toContain('Nothing to clean up.');
    const stops = (await journal(fast)).slice(before).filter((entry) => entry.path.endsWith('/stop'));
    expect(stops).toEqual([]);
  });
});
