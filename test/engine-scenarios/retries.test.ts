/**
 * The engine's retries (`retries: 1`), through each test action against an emulator with short
 * jobs: an item that fails and then passes is flaky and the step passes; one that fails every
 * attempt fails it, each attempt reported; a retry the service refuses to start leaves the items
 * as they were, with a warning saying why.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { wholeText } from '@sauce-actions/action-kit';
import { describe, expect, it } from 'vitest';
import { addFault, journal } from '../support/emulators.ts';
import { ADAPTERS } from './support/adapters.ts';
import { onFirst, requestsSince, scenarioLab } from './support/lab.ts';

/** The attempts of an item in the summary: a link to each job, with its outcome. */
const ATTEMPTS = /1: <a href="[^"]*\/tests\/(\w+)">\1<\/a> ❌<br>2: <a href="[^"]*\/tests\/(\w+)">\2<\/a> ✅/;

describe.each(ADAPTERS)('$name', (adapter) => {
  const lab = scenarioLab(adapter, 300);

  it('runs an item that failed again: passing then, it is flaky, counted, linked and warned about, and the step passes', async () => {
    const emulator = lab.emulator();
    const since = (await journal(emulator)).length;
    const junitFile = path.join(lab.folder(), 'flaky.xml');
    const { item: flaky, failing, make, undo } = adapter.flaky;
    const deps = lab.deps({ onLine: onFirst(adapter.started, () => make(emulator, 'Flaky')) });
    const result = await adapter
      .run(emulator, deps, { build: 'Flaky', failing, retries: 1, junitFile })
      .finally(() => undo?.(emulator));

    expect(result.failure).toBeUndefined();
    expect(result.outputs).toMatchObject({ total: adapter.jobs, passed: adapter.jobs, failed: 0, flaky: 1 });
    const ids = JSON.parse(result.outputs['job-ids']) as string[];
    expect(ids).toHaveLength(adapter.jobs + 1);
    // The retry started the failed item alone.
    const { retryStart } = adapter;
    expect(await requestsSince(emulator, retryStart, since)).toHaveLength(retryStart.before + 1);
    expect(deps.logger.lines()).toContainEqual(
      expect.stringMatching(new RegExp(`^Running 1 failed .* again, attempt 2 of 2 at most: ${flaky}\\.?$`)),
    );
    const summary = wholeText(result.summary);
    expect(summary).toContain(`${flaky}<br><sub>flaky: failed on attempt 1, passed on attempt 2`);
    expect(summary).toContain('of the 1 run again, 1 passed on a retry (flaky), 0 failed every attempt.');
    const [, first = '', second = ''] = ATTEMPTS.exec(summary) ?? [];
    expect(ids.indexOf(second)).toBe(ids.indexOf(first) + 1);
    expect(result.annotations).toEqual([
      expect.objectContaining({ level: 'warning', title: `Flaky job: ${flaky}` }),
    ]);
    const junit = await readFile(junitFile, 'utf8');
    expect(junit).toContain('failures="0" errors="0"');
    expect(junit.match(/<flakyFailure message="attempt 1: /g)).toHaveLength(1);
    expect(junit).not.toContain('<failure');
  });

  it('an item that fails every attempt fails the step, with each attempt reported', async () => {
    const junitFile = path.join(lab.folder(), 'failing.xml');
    const result = await adapter.run(lab.emulator(), lab.deps(), {
      build: 'Fails twice',
      failing: true,
      retries: 1,
      junitFile,
    });

    const failed = adapter.failingItems;
    expect(result.failure?.kind).toBe('tests-failed');
    expect(result.outputs).toMatchObject({ failed: failed.length, flaky: 0 });
    expect(JSON.parse(result.outputs['job-ids'])).toHaveLength(adapter.jobs + failed.length);
    const summary = wholeText(result.summary);
    for (const name of failed) expect(summary).toContain(`${name}<br><sub>failed all 2 attempts`);
    expect(summary).toContain(
      `of the ${failed.length} run again, 0 passed on a retry (flaky), ${failed.length} failed every attempt.`,
    );
    const junit = await readFile(junitFile, 'utf8');
    expect(junit).toContain(`failures="${failed.length}"`);
    expect(junit.match(/<rerunFailure message="attempt 1: /g)).toHaveLength(failed.length);
  });

  it('a retry the service refuses to start leaves the failed items as they were, with a warning saying why', async () => {
    const emulator = lab.emulator();
    const { retryStart } = adapter;
    const path = `/${retryStart.path.source}/`;
    // The first round's starts go through; the retry's is refused.
    if (retryStart.before > 0)
      await addFault(emulator, { method: 'POST', path, delayMs: 1, times: retryStart.before });
    await addFault(emulator, { method: 'POST', path, status: 400, times: 10 });
    const result = await adapter.run(emulator, lab.deps(), {
      build: 'Retry refused',
      failing: true,
      retries: 1,
    });

    const failed = adapter.failingItems.length;
    expect(result.failure?.kind).toBe('tests-failed');
    expect(result.outputs).toMatchObject({ total: adapter.jobs, failed, flaky: 0 });
    expect(JSON.parse(result.outputs['job-ids'])).toHaveLength(adapter.jobs);
    expect(wholeText(result.summary)).not.toContain('were run again');
    expect(result.annotations).toContainEqual(
      expect.objectContaining({
        level: 'warning',
        message: expect.stringMatching(
          new RegExp(`^The failed ${adapter.itemsName} were not run again: Sauce Labs refused `),
        ),
      }),
    );
  });
});
