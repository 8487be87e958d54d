/** The emulator's default seed with a suite whose three jobs all pass: shared by the tests of run and of the bundle. */
import { defaultSeed, type Seed } from '@sauce-actions/emulator';

export const GREEN_SUITE = '3e0a6b2d-8c41-4f7a-9b5e-6d2c1a0f9e77';
export const GREEN_CASES = ['aaaaaaaaaaaaaaaaaaaaaa01', 'aaaaaaaaaaaaaaaaaaaaaa02'] as const;

export function seed(): Seed {
  const base = defaultSeed();
  const target = (browserName: string) => ({
    capabilities: { browserName, browserVersion: 'latest', platformName: 'Linux' },
  });
  return {
    ...base,
    authoring: {
      ...base.authoring,
      testSuites: [...(base.authoring.testSuites ?? []), { id: GREEN_SUITE, name: 'Green' }],
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
      ],
    },
  };
}
