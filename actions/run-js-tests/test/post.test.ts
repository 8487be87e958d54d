/**
 * The post step of run-js-tests: asks the status of the saved tests until their jobs are
 * assigned and stops them, sends nothing when the main step finished cleanly; and, through the
 * runner-faithful harness running the sources, a main step killed outright (SIGKILL).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { memoryState, type SauceConnection } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import { runStep, sourceAction, type StepResult } from '@sauce-actions/action-harness';
import { SauceClient } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, runPost, type PostDeps } from '../src/post.ts';
import { run } from '../src/run.ts';
import { STATE_KEY } from '../src/state.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
let queued: RunningEmulator;
let fast: RunningEmulator;
const clients: SauceClient[] = [];
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  [queued, fast] = await Promise.all([
    // Queued for the first fifth of a job (3 s here): the status answers `job not ready` meanwhile.
    startEmulator({ port: 0, jobDurationMs: 15_000 }),
    startEmulator({ port: 0, jobDurationMs: 300 }),
  ]);
});
afterAll(async () => {
  await Promise.all(cleanups.map((cleanup) => cleanup()));
  await Promise.all(clients.map((client) => client.close()));
  await Promise.all([queued?.close(), fast?.close()]);
});

function connection(emulator: RunningEmulator): SauceConnection {
  return {
    service: 'sauce',
    region: 'us-west-1',
    apiUrl: emulator.url,
    username: 'demo',
    accessKey: 'demo-access-key',
  };
}

function clientOf(emulator: RunningEmulator): SauceClient {
  const client = new SauceClient({
    region: 'us-west-1',
    apiUrl: emulator.url,
    username: 'demo',
    accessKey: 'demo-access-key',
  });
  clients.push(client);
  return client;
}

async function journal(emulator: RunningEmulator): Promise<{ method: string; path: string }[]> {
  const answer = await fetch(`${emulator.url}/_emulator/requests`);
  return ((await answer.json()) as { requests: { method: string; path: string }[] }).requests;
}

async function unfinishedJobs(emulator: RunningEmulator, build: string): Promise<string[]> {
  const jobs = await clientOf(emulator).automation.jobs.list({ full: true, limit: 1000 });
  return jobs
    .filter((job) => job.build === build && (job.status === 'queued' || job.status === 'in progress'))
    .map((job) => job.id);
}

const PLATFORMS = [
  ['Windows 11', 'chrome', 'latest'],
  ['Linux', 'firefox', '126'],
] as [string, string, string][];

describe('run-js-tests post step', () => {
  it('waits for the queued tests to get their jobs, and stops them', async () => {
    const client = clientOf(queued);
    const started = await client.automation.jsTests.start({
      platforms: PLATFORMS,
      url: 'https://example.com/tests.html',
      framework: 'qunit',
      build: 'js-post',
    });
    const testIds = started['js tests'];
    const status = await client.automation.jsTests.getStatus(testIds);
    expect(status['js tests'].map((t) => t.job_id)).toEqual(['job not ready', 'job not ready']);
    const state = memoryState({
      [STATE_KEY]: JSON.stringify({ region: 'us-west-1', apiUrl: queued.url, testIds, jobIds: [] }),
    });
    expect(post.hasWork(state)).toBe(true);
    const deps: PostDeps & ReturnType<typeof testStepDeps> = { ...testStepDeps({ state }), client };
    const result = await runPost({ connection: connection(queued) }, deps);

    expect(result.failure).toBeUndefined();
    expect(result.summary).toContain('2 unfinished job(s) were stopped');
    expect(deps.logger.lines('info')).toContain('Stopped 2 unfinished job(s).');
    expect(await unfinishedJobs(queued, 'js-post')).toEqual([]);
  });

  it('does nothing, and sends nothing, when the main step finished cleanly', async () => {
    expect(post.hasWork(memoryState())).toBe(false);
    expect(post.hasWork(memoryState({ [STATE_KEY]: '' }))).toBe(false);

    const client = clientOf(fast);
    const folder = await mkdtemp(path.join(os.tmpdir(), 'js-post-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const main = { ...testStepDeps({ tempDir: folder }), client };
    const result = await run(
      {
        connection: connection(fast),
        operation: 'run',
        prComment: false,
        url: 'https://example.com/tests.html',
        framework: 'qunit',
        platforms: PLATFORMS,
        tags: [],
        capabilities: {},
        failOnFailure: true,
        retries: 0,
        timeoutMs: 30_000,
        pollIntervalMs: 100,
      },
      main,
    );
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
  const actionDir = path.join(ROOT, 'actions', 'run-js-tests');
  const dir = await sourceAction(actionDir, path.join(actionDir, 'src', 'main.ts'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('run-js-tests killed outright', () => {
  let step: StepResult | undefined;

  it('leaves its queued tests to the post step, which stops their jobs once assigned', async () => {
    step = await runStep({
      actionDir: await sourceActionDir(),
      inputs: {
        url: 'https://example.com/tests.html',
        framework: 'qunit',
        platforms: 'Windows 11 / chrome / latest\nLinux / firefox / 126',
        build: 'js-sigkill',
        'api-url': queued.url,
        username: 'demo',
        'access-key': 'demo-access-key',
        'poll-interval': '1s',
      },
      cancelOn: /Started the JS tests/,
      cancelSignal: 'SIGKILL',
      timeoutMs: 60_000,
    });
    cleanups.push(() => step?.cleanup() ?? Promise.resolve());
    expect(step.cancelled).toBe(true);
    expect(step.signal).toBe('SIGKILL');
    expect(JSON.parse(step.state[STATE_KEY] ?? '{}')).toMatchObject({ apiUrl: queued.url });
    expect(step.state[STATE_KEY]).not.toContain('demo-access-key');
    expect(step.post?.exitCode, step.post?.log).toBe(0);
    expect(step.post?.log).toContain('Stopped 2 unfinished job(s).');
    expect(await unfinishedJobs(queued, 'js-sigkill')).toEqual([]);
  });
});
