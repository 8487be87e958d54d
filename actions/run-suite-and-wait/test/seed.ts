/**
 * The emulator's default seed with a suite whose three jobs all pass, and a suite of twelve cases
 * of one target each whose `Case 07` fails: shared by the tests of run and of the bundle.
 */
import { defaultSeed, type Seed } from '@sauce-actions/emulator';

export const GREEN_SUITE = '3e0a6b2d-8c41-4f7a-9b5e-6d2c1a0f9e77';
export const GREEN_CASES = ['aaaaaaaaaaaaaaaaaaaaaa01', 'aaaaaaaaaaaaaaaaaaaaaa02'] as const;
export const TWELVE_SUITE = '3e0a6b2d-8c41-4f7a-9b5e-6d2c1a0f9e78';
/** `Case 01` … `Case 12`, by number. */
export const TWELVE_CASES = Array.from(
  { length: 12 },
  (_, n) => `bbbbbbbbbbbbbbbbbbbbbb${String(n + 1).padStart(2, '0')}`,
);
/** The case of the twelve that fails (the tests of retries make it pass on later runs). */
export const FAILING_CASE = TWELVE_CASES[6] as string;

export function seed(): Seed {
  const base = defaultSeed();
  const target = (browserName: string) => ({
    capabilities: { browserName, browserVersion: 'latest', platformName: 'Linux' },
  });
  return {
    ...base,
    authoring: {
      ...base.authoring,
      testSuites: [
        ...(base.authoring.testSuites ?? []),
        { id: GREEN_SUITE, name: 'Green' },
        { id: TWELVE_SUITE, name: 'Twelve' },
      ],
      testCases: [
        ...(base.authoring.testCases ?? []),
        {
          id: GREEN_CASES[0],
          name: 'Home loads',
          testSuiteId: GREEN_SUITE,
          runSettings: { primaryTarget: target('chrome'), additionalTargets: [target('firefox')] },
        },
        {
          id: GREEN_CASES[1],
          name: 'Cart opens',
          testSuiteId: GREEN_SUITE,
          runSettings: { primaryTarget: target('edge') },
        },
        // Listed by creation date, which runs against the ids' order: shards must not depend on it.
        ...TWELVE_CASES.map((id, n) => ({
          id,
          name: `Case ${String(n + 1).padStart(2, '0')}`,
          testSuiteId: TWELVE_SUITE,
          creationDate: new Date(Date.UTC(2026, 0, 31 - n)).toISOString(),
          runSettings: { primaryTarget: target('chrome') },
          ...(id === FAILING_CASE ? { expectedOutcome: 'fail' as const } : {}),
        })),
      ],
    },
  };
}
