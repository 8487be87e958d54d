/**
 * The engine's record for the post step, through each test action against an emulator whose jobs
 * outlast the test: a main step killed outright (SIGKILL, the runner running the sources) leaves
 * the state it saved once its start answered, from which the post step stops the jobs; and jobs
 * the main step could not stop are left in the state to the post step, which stops them.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { runStep, sourceAction } from '@sauce-actions/action-harness';
import { memoryState } from '@sauce-actions/action-kit';
import { describe, expect, it } from 'vitest';
import { connection } from '../../actions/run-suite-and-wait/test/helpers.ts';
import { ROOT } from '../e2e/support/lab.ts';
import { addFault } from '../support/emulators.ts';
import { ADAPTERS } from './support/adapters.ts';
import { cancellation, jobsOf, leftRunning, onFirst, scenarioLab } from './support/lab.ts';

describe.each(ADAPTERS)('$name', (adapter) => {
  const lab = scenarioLab(adapter, adapter.longJobsMs);

  it('finds nothing to stop in a state that is missing, cleared or malformed', () => {
    for (const state of [
      memoryState(),
      ...['', 'not json', '{"apiUrl":1}'].map((text) => memoryState({ [adapter.stateKey]: text })),
    ]) {
      expect(adapter.post.hasLeftRunning(state)).toBe(false);
    }
  });

  it('killed outright once its start answered: the post step reads the state saved then, and stops the jobs', async () => {
    const emulator = lab.emulator();
    const actionDir = path.join(ROOT, 'actions', adapter.name);
    const dir = await sourceAction(actionDir, path.join(actionDir, 'src', 'main.ts'));
    const step = await runStep({
      actionDir: dir,
      inputs: { ...adapter.stepInputs('Killed'), 'api-url': emulator.url },
      cancelOn: new RegExp(adapter.started.source, 'm'),
      cancelSignal: 'SIGKILL',
      timeoutMs: 120_000,
    }).finally(() => rm(dir, { recursive: true, force: true }));
    try {
      expect(step.signal, step.log).toBe('SIGKILL');
      const saved = step.state[adapter.stateKey] ?? '';
      // A poll may have named the jobs too before the kill landed.
      const { jobIds: _seen, ...started } = adapter.savedAtStart('Killed');
      expect(JSON.parse(saved || '{}')).toMatchObject({
        region: 'us-west-1',
        apiUrl: emulator.url,
        ...started,
      });
      expect(saved).not.toContain('demo-access-key');
      expect(step.post?.exitCode, step.post?.log).toBe(0);
      expect(step.post?.log).toContain(`Stopped ${adapter.jobs} unfinished job(s).`);
      expect(step.post?.summary).toContain(`${adapter.jobs} unfinished job(s) were stopped`);
      expect(jobsOf(emulator, 'Killed')).toHaveLength(adapter.jobs);
      expect(leftRunning(emulator, 'Killed')).toEqual([]);
    } finally {
      await step.cleanup();
    }
  });

  it('leaves the jobs it could not stop to the post step, which stops them', async () => {
    const emulator = lab.emulator();
    await addFault(emulator, { method: 'PUT', path: '/\\/stop$/', status: 403, times: 1000 });
    const { signal, cancel } = cancellation();
    const main = lab.deps({ signal, onLine: onFirst(adapter.started, cancel) });
    const result = await adapter.run(emulator, main, { build: 'Stops refused' });

    expect(result.failure?.kind).toBe('cancelled');
    expect(leftRunning(emulator, 'Stops refused')).toHaveLength(adapter.jobs);
    expect(JSON.parse(main.state.get(adapter.stateKey))).toMatchObject({ apiUrl: emulator.url });
    expect(adapter.post.hasLeftRunning(main.state)).toBe(true);

    await fetch(`${emulator.url}/_emulator/faults`, { method: 'DELETE' });
    const post = await adapter.post.run(
      { connection: connection(emulator) },
      { ...lab.deps(), state: main.state },
    );
    expect(post.failure).toBeUndefined();
    expect(post.summary).toContain(`${adapter.jobs} unfinished job(s) were stopped`);
    expect(leftRunning(emulator, 'Stops refused')).toEqual([]);
  });
});
