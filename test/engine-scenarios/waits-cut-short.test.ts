/**
 * The engine's wait, cut short, through each test action against an emulator whose jobs outlast
 * the test: cancelled once the start answered (before any listing) or once a progress line was
 * logged, or timed out during a listing; what was started is found and stopped, and the state
 * named it meanwhile. With `stop-on-cancel: false` the jobs are found, reported and left running.
 */
import { wholeText } from '@sauce-actions/action-kit';
import { describe, expect, it } from 'vitest';
import { journal } from '../support/emulators.ts';
import { ADAPTERS } from './support/adapters.ts';
import {
  cancellation,
  expectStopped,
  hold,
  leftRunning,
  onFirst,
  requestsSince,
  scenarioLab,
} from './support/lab.ts';

const STOP = { method: 'PUT', path: /\/jobs\/[0-9a-f]{32}\/stop$/ };

describe.each(ADAPTERS)('$name', (adapter) => {
  const lab = scenarioLab(adapter, adapter.longJobsMs);

  it('cancelled after the start, before the first listing: stops what the start answered, which the state named', async () => {
    const emulator = lab.emulator();
    const { signal, cancel } = cancellation();
    let saved = '';
    const deps = lab.deps({
      signal,
      onLine: (line) => {
        if (adapter.started.test(line)) cancel();
        if (line.startsWith('Cancelled: stopping the ')) saved ||= deps.state.get(adapter.stateKey);
      },
    });
    const result = await adapter.run(emulator, deps, { build: 'Before listing' });

    expect(deps.logger.lines().filter((line) => adapter.progress.test(line))).toEqual([]);
    // What the post step would stop, had the step been killed: where it runs and what names it.
    expect(JSON.parse(saved)).toMatchObject({
      region: 'us-west-1',
      apiUrl: emulator.url,
      ...adapter.savedAtStart('Before listing'),
    });
    expect(saved).not.toContain('demo-access-key');
    await expectStopped(adapter, lab, { build: 'Before listing', deps, result }, 'cancelled');
  });

  it('cancelled while following, once a progress line was logged: stops the jobs it saw', async () => {
    const { signal, cancel } = cancellation();
    const deps = lab.deps({ signal, onLine: onFirst(adapter.progress, cancel) });
    const result = await adapter.run(lab.emulator(), deps, { build: 'While following' });

    expect(deps.logger.lines().filter((line) => adapter.progress.test(line))).toHaveLength(1);
    await expectStopped(adapter, lab, { build: 'While following', deps, result }, 'cancelled');
  });

  it('timed out during a listing: stops the jobs on a deadline of its own and fails naming `timeout`', async () => {
    const emulator = lab.emulator();
    const since = (await journal(emulator)).length;
    await hold(emulator, adapter.listing, 60_000);
    const deps = lab.deps();
    const result = await adapter.run(emulator, deps, { build: 'Slow listing', timeoutMs: 5000 });

    // The held listing was cut at the deadline; the jobs were found and stopped after it.
    const [listing] = await requestsSince(emulator, adapter.listing, since);
    expect(listing?.status).toBe(0);
    expect(result.annotations).toEqual([]);
    await expectStopped(adapter, lab, { build: 'Slow listing', deps, result }, 'timeout');
  });

  it.skipIf(!adapter.stopOnCancel)(
    'with stop-on-cancel false: finds and reports the jobs, leaves them running, and leaves nothing to the post step',
    async () => {
      const emulator = lab.emulator();
      const since = (await journal(emulator)).length;
      const { signal, cancel } = cancellation();
      const deps = lab.deps({ signal, onLine: onFirst(adapter.started, cancel) });
      const result = await adapter.run(emulator, deps, { build: 'Left running', stopOnCancel: false });

      expect(result.failure?.kind).toBe('cancelled');
      expect(result.failure?.message).toMatch(
        /: 0 of 3 job\(s\) finished \(0 passed, 0 failed\); 3 did not finish\.$/,
      );
      expect(result.outputs).toMatchObject({ total: adapter.jobs });
      for (const line of adapter.words.summary.leftRunning) expect(wholeText(result.summary)).toContain(line);
      expect(leftRunning(emulator, 'Left running')).toHaveLength(adapter.jobs);
      expect(await requestsSince(emulator, STOP, since)).toEqual([]);
      expect(deps.state.saved.has(adapter.stateKey)).toBe(false);
    },
  );
});
