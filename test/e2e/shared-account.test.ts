/**
 * Six jobs of a workflow matrix, each the run-suite-and-wait bundle run as the runner runs it,
 * share one account that the emulator limits to four requests a second. The client paces each
 * step from the rate headers and the job follower polls less while the account is contended, so
 * every step finishes, with fewer answers of 429 than steps between them: the first requests of
 * steps that start together, which none can pace having seen no rate header yet (two of six at a
 * limit of four), and on a busy machine, where the steps start spread over a window's edge, the
 * retry of a refused step meeting another step's first request.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeLabs, openLab, SAUCE } from './support/lab.ts';

afterAll(closeLabs);

const SHARDS = 6;

describe('six run-suite-and-wait steps on one account under a rate limit of 4 a second', () => {
  it('all finish, with fewer 429s than steps in the emulator’s journal', async () => {
    const lab = await openLab({ jobDurationMs: 2000, rateLimit: 4 });
    const steps = await Promise.all(
      Array.from({ length: SHARDS }, (_, index) =>
        lab.step(
          'run-suite-and-wait',
          {
            ...SAUCE,
            suite: 'Regression',
            shard: `${index + 1}/${SHARDS}`,
            retries: '1',
            'poll-interval': '1s',
            timeout: '90s',
          },
          { timeoutMs: 100_000 },
        ),
      ),
    );

    const journal = await lab.journal();
    const rateLimited = journal.filter((entry) => entry.status === 429).length;
    expect(steps.map((step) => step.exitCode)).toEqual(Array(SHARDS).fill(0));
    // Twelve cases over six shards, two each; Case 07 passes on its retry.
    expect(steps.map((step) => step.outputs['total'])).toEqual(Array(SHARDS).fill('2'));
    expect(steps.reduce((sum, step) => sum + Number(step.outputs['flaky']), 0)).toBe(1);
    expect(steps.reduce((sum, step) => sum + Number(step.outputs['failed']), 0)).toBe(0);
    expect(rateLimited).toBeLessThan(SHARDS);
    expect(lab.leftRunning()).toEqual([]);
  });
});
