/**
 * The nightly's seed: the default seed plus a suite `Nightly` of cases of one target each, a few
 * of which fail, and which shard of a matrix runs which case.
 */
import { writeFile } from 'node:fs/promises';
import { defaultSeed, type Seed } from '@sauce-actions/emulator';

export const SUITE = 'Nightly';
const SUITE_ID = '4e1a0000-0000-4000-8000-000000000400';
const BROWSERS = ['chrome', 'firefox', 'MicrosoftEdge', 'safari'];

/**
 * Case ids are fixed-width hex in case order, so that the action's ranking by id (which decides
 * the shards) is the case order: case `n` is rank `n`.
 */
export function caseId(n: number): string {
  return `ca5e0000${n.toString(16).padStart(16, '0')}`;
}

/**
 * Every 41st case fails, from the 21st: 10 of 400, spread over the shards (41 is twice 20 plus 1:
 * one in each of 10 shards at 20, two in each shard at 5), so that a re-run starts cases in
 * several shards.
 */
export function caseFails(n: number): boolean {
  return n % 41 === 20;
}

/** The shard (from 1) of `total` that runs case `n`: the action gives rank r to shard r mod total + 1. */
export function shardOfCase(n: number, total: number): number {
  return (n % total) + 1;
}

/** Case number of a case id of this seed, or undefined for any other id. */
export function caseNumber(id: string): number | undefined {
  return /^ca5e0000[0-9a-f]{16}$/.test(id) ? parseInt(id.slice(8), 16) : undefined;
}

export function nightlySeed(cases: number): Seed {
  const base = defaultSeed();
  return {
    ...base,
    authoring: {
      ...base.authoring,
      testSuites: [...(base.authoring.testSuites ?? []), { id: SUITE_ID, name: SUITE }],
      testCases: [
        ...(base.authoring.testCases ?? []),
        ...Array.from({ length: cases }, (_, n) => ({
          id: caseId(n),
          name: `Nightly ${String(n + 1).padStart(4, '0')}`,
          testSuiteId: SUITE_ID,
          runSettings: {
            primaryTarget: {
              capabilities: {
                browserName: BROWSERS[n % BROWSERS.length]!,
                browserVersion: 'latest',
                platformName: 'Windows 11',
              },
            },
          },
          ...(caseFails(n) ? { expectedOutcome: 'fail' as const } : {}),
        })),
      ],
    },
  };
}

export async function writeNightlySeed(file: string, cases: number): Promise<void> {
  await writeFile(file, JSON.stringify(nightlySeed(cases)));
}
