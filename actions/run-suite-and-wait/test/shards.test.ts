/**
 * run-suite-and-wait split among the jobs of a matrix (`shard`): every case of a suite, or of the
 * chosen test cases, runs in exactly one shard under one build name, each shard at its turn, and
 * 1/1 is the whole suite; against an in-process emulator with short jobs and a real client. An
 * empty share and a malformed shard are rows of `test/engine-scenarios/`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { wholeText } from '@sauce-actions/action-kit';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { describe, expect, it } from 'vitest';
import { run } from '../src/run.ts';
import {
  buildOf,
  buildsOf,
  casesRun,
  clientFor,
  journal,
  suiteDeps,
  suiteInputs,
  withEmulators,
  workflowRun,
} from './helpers.ts';
import { GREEN_CASES, GREEN_SUITE, TWELVE_CASES, TWELVE_SUITE } from './seed.ts';

let emulator: RunningEmulator, folder: string;
withEmulators(
  [300],
  { started: (emulators) => ([emulator] = emulators), folder: (made) => (folder = made) },
  'run-suite-and-wait-shards-',
);

describe('run-suite-and-wait shards', () => {
  it('three shards of a 12-case suite, run side by side, run every case exactly once, four each, from one build name; each summary links its builds', async () => {
    const before = (await journal(emulator)).length;
    const workflow = workflowRun('31', '1', { job: 'suite' });
    const results = await Promise.all(
      [1, 2, 3].map((index) =>
        run(
          suiteInputs(emulator, { suite: 'Twelve', shard: { index, total: 3 }, failOnFailure: false }),
          suiteDeps(emulator, path.join(folder, `shard-${index}`), { workflow }),
        ),
      ),
    );

    const ran = casesRun((await journal(emulator)).slice(before));
    expect([...ran].sort()).toEqual([...TWELVE_CASES].sort());
    // Case by case: no suite run.
    const suiteRuns = (await journal(emulator))
      .slice(before)
      .filter((entry) => entry.path.endsWith(`/testsuites/${TWELVE_SUITE}/run`));
    expect(suiteRuns).toEqual([]);
    const ids = results.map((result) => JSON.parse(result.outputs['job-ids']) as string[]);
    expect(results.map((result) => result.outputs.total)).toEqual([4, 4, 4]);
    expect(new Set(ids.flat()).size).toBe(12);
    // `Case 07` fails in exactly one shard.
    expect(results.map((result) => result.outputs.failed).sort()).toEqual([0, 0, 1]);
    // One build name for every shard; the service tells apart the runs of each case with a suffix.
    for (const build of await buildsOf(emulator, ids.flat()))
      expect(build.replace(/ - \d+$/, '')).toBe(buildOf('Twelve', '31', '1'));
    const all = await clientFor(emulator).automation.jobs.list({ full: true, limit: 1000 });
    for (const [n, result] of results.entries()) {
      expect(wholeText(result.summary)).toContain(`<h2>Suite Twelve, shard ${n + 1}/3: `);
      expect(wholeText(result.summary)).toContain(
        `Shard ${n + 1}/3 has 4 of the suite&#39;s 12 test case(s), split among 3 shards by case id`,
      );
      // A build per case run: the summary names and links every one the shard's jobs ran in.
      const mine = all.filter((job) => ids[n]!.includes(job.id));
      const builds = [...new Set(mine.map((job) => job.build))];
      expect(builds).toHaveLength(4);
      expect(wholeText(result.summary)).toContain('<p>Builds (4: the service makes every build name unique');
      for (const build of builds) {
        const first = mine.find((job) => job.build === build)!;
        expect(wholeText(result.summary)).toContain(
          `<a href="${emulator.url}/tests/${first.id}">${build}</a>`,
        );
      }
      const file = JSON.parse(await readFile(result.outputs['results-file'], 'utf8')) as { builds: string[] };
      expect([...file.builds].sort()).toEqual([...builds].sort());
    }
  });

  it('splits chosen test cases too, and the shard names the run in the log and the results file', async () => {
    const before = (await journal(emulator)).length;
    const testCases = [{ id: GREEN_CASES[1] }, { id: GREEN_CASES[0] }, { id: TWELVE_CASES[0] as string }];
    const deps = [1, 2].map((index) => suiteDeps(emulator, path.join(folder, `shard-${index}`)));
    const results = await Promise.all(
      [1, 2].map((index) =>
        run(
          suiteInputs(emulator, { testCases, shard: { index, total: 2 }, buildName: 'Split cases' }),
          deps[index - 1]!,
        ),
      ),
    );
    expect(results.map((result) => result.failure)).toEqual([undefined, undefined]);
    const ran = casesRun((await journal(emulator)).slice(before));
    expect([...ran].sort()).toEqual(testCases.map((testCase) => testCase.id).sort());
    // Two cases in the first shard (the first and third by id), one in the second.
    // Each holds its starts back until every shard planned and the shards before it started
    // theirs (at 5 a second): the first after the two plannings, the second after two starts more.
    const turn = (shard: string, cases: number) =>
      new RegExp(
        `^Shard ${shard} starts its ${cases} case\\(s\\) in [\\d.]+m?s, at its turn: a matrix's shards plan, then start their cases, one after another on the account they share\\.$`,
      );
    expect(deps[0]!.logger.lines('info').slice(0, 2)).toEqual([
      expect.stringMatching(turn('1/2', 2)),
      expect.stringMatching(/^Started 2 test case\(s\) \(shard 1\/2\) in build "Split cases/),
    ]);
    expect(deps[1]!.logger.lines('info').slice(0, 3)).toEqual([
      "Shard 2/2 sends its first request in 600ms, at its turn: a matrix's shards plan one after another on the account they share.",
      expect.stringMatching(turn('2/2', 1)),
      expect.stringMatching(/^Started 1 test case\(s\) \(shard 2\/2\) in build "Split cases/),
    ]);
    const file = JSON.parse(await readFile(results[1]!.outputs['results-file'], 'utf8')) as {
      shard: unknown;
    };
    expect(file.shard).toEqual({ index: 2, total: 2, cases: 1, of: 3 });
  });

  it('1/1 runs the whole suite in one suite run', async () => {
    const before = (await journal(emulator)).length;
    const result = await run(
      suiteInputs(emulator, { suite: GREEN_SUITE, shard: { index: 1, total: 1 } }),
      suiteDeps(emulator, folder),
    );
    expect(result.outputs).toMatchObject({ total: 3, passed: 3 });
    expect(casesRun((await journal(emulator)).slice(before))).toEqual([]);
    expect(wholeText(result.summary)).not.toContain('shard');
  });
});
