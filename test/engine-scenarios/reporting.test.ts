/**
 * What the engine publishes of a run, through each test action against an emulator with short
 * jobs: a run that passes (outputs, links, a results file per step, the JUnit report, one progress
 * line per change, the state named the jobs and is cleared, and the post step has nothing to do);
 * one whose items fail, failing the step or only warning; and a shard with nothing to run.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { wholeText } from '@sauce-actions/action-kit';
import { describe, expect, it } from 'vitest';
import { connection } from '../../actions/run-suite-and-wait/test/helpers.ts';
import { journal } from '../support/emulators.ts';
import { ADAPTERS } from './support/adapters.ts';
import { jobsOf, scenarioLab } from './support/lab.ts';

describe.each(ADAPTERS)('$name', (adapter) => {
  const lab = scenarioLab(adapter, 300);

  it('a run that passes: outputs, links, a results file of its step, JUnit, progress, and a cleared state the post step has nothing in', async () => {
    const emulator = lab.emulator();
    const junitFile = path.join(lab.folder(), 'reports', 'passes.xml');
    const saved: string[] = [];
    const progress: string[] = [];
    const deps = lab.deps({
      onLine: (line) => {
        const shown = adapter.progress.exec(line)?.[1];
        if (shown === undefined) return;
        progress.push(shown);
        saved.push(deps.state.get(adapter.stateKey));
      },
    });
    const result = await adapter.run(emulator, deps, { build: 'Passes', junitFile });

    expect(result.failure).toBeUndefined();
    expect(result.annotations).toEqual([]);
    expect(result.outputs).toMatchObject({ total: adapter.jobs, passed: adapter.jobs, failed: 0, flaky: 0 });
    const ids = JSON.parse(result.outputs['job-ids']) as string[];
    expect([...ids].sort()).toEqual(
      jobsOf(emulator, 'Passes')
        .map((job) => job.id)
        .sort(),
    );
    expect(wholeText(result.summary)).toContain(adapter.words.passed);
    for (const id of ids) expect(wholeText(result.summary)).toContain(`href="${emulator.url}/tests/${id}"`);
    const resultsFile = path.join(lab.folder(), `${adapter.name}-${deps.workflow.step}.json`);
    expect(result.outputs['results-file']).toBe(resultsFile);
    expect(await readFile(junitFile, 'utf8')).toContain(`tests="${adapter.junitCases}" failures="0"`);
    expect(deps.logger.lines()).toContain(`JUnit report written to ${junitFile}.`);
    // A line when something changed, never the same twice in a row.
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.filter((shown, n) => shown === progress[n - 1])).toEqual([]);
    // The state named the jobs as they were seen; the step, ending on its own, cleared it.
    expect((JSON.parse(saved.at(-1) ?? '{}') as { jobIds: string[] }).jobIds.sort()).toEqual([...ids].sort());
    expect(deps.state.get(adapter.stateKey)).toBe('');
    expect(adapter.post.hasLeftRunning(deps.state)).toBe(false);
    const before = (await journal(emulator)).length;
    const post = await adapter.post.run(
      { connection: connection(emulator) },
      { ...lab.deps(), state: deps.state },
    );
    expect(post).toEqual({ outputs: {}, summary: '', annotations: [] });
    expect(await journal(emulator)).toHaveLength(before);

    // Another step of the job writes a results file of its own, and leaves this one as it was.
    const other = await adapter.run(emulator, lab.deps(), { build: 'Passes again' });
    expect(other.outputs['results-file']).not.toBe(resultsFile);
    const kept = await readFile(resultsFile, 'utf8');
    for (const id of ids) expect(kept).toContain(id);
  });

  it.each([
    [true, 'error'],
    [false, 'warning'],
  ] as const)(
    'a run whose items fail, with fail-on-failure %s: each failed job is an annotation of level %s, with its link',
    async (failOnFailure, level) => {
      const emulator = lab.emulator();
      const build = `Fails ${level}`;
      const result = await adapter.run(lab.emulator(), lab.deps(), { build, failing: true, failOnFailure });

      const failed = adapter.failingItems;
      expect(result.outputs).toMatchObject({ failed: failed.length, flaky: 0 });
      if (failOnFailure) {
        expect(result.failure?.kind).toBe('tests-failed');
        expect(result.failure?.message).toMatch(adapter.words.failed(build));
      } else {
        expect(result.failure).toBeUndefined();
      }
      expect(result.annotations.map((a) => [a.level, a.title])).toEqual(
        failed.map((name) => [level, `Failed job: ${name}`]),
      );
      const ids = JSON.parse(result.outputs['job-ids']) as string[];
      for (const { message } of result.annotations) {
        expect(ids.filter((id) => message.includes(`${emulator.url}/tests/${id}`))).toHaveLength(1);
      }
    },
  );

  it('a shard with nothing to run passes, starts nothing, and says so', async () => {
    const emulator = lab.emulator();
    const since = (await journal(emulator)).length;
    const junitFile = path.join(lab.folder(), 'reports', 'empty.xml');
    const result = await adapter.run(emulator, lab.deps(), { build: 'Empty', emptyShard: true, junitFile });

    expect(result.failure).toBeUndefined();
    expect(result.outputs).toMatchObject({ total: 0, passed: 0, failed: 0, 'job-ids': '[]' });
    for (const line of adapter.words.emptyShard) expect(wholeText(result.summary)).toContain(line);
    expect((await journal(emulator)).slice(since).filter((entry) => entry.method !== 'GET')).toEqual([]);
    expect(await readFile(junitFile, 'utf8')).toContain('tests="0"');
  });
});
