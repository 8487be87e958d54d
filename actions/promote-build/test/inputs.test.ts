/** promote-build's inputs: read into one typed object, and each mistake refused by name before any request. */
import { InputError, InputReader, inputSource } from '@sauce-actions/action-kit';
import { describe, expect, it } from 'vitest';
import { readInputs } from '../src/inputs.ts';
import { promoteLab } from './promote-lab.ts';

const REQUIRED = {
  'api-key': 'k',
  email: 'me@example.com',
  'project-id': '3',
  'build-id': '12',
  rings: 'qa, beta',
};
const read = (values: Record<string, string>) =>
  readInputs(new InputReader(inputSource({ ...REQUIRED, ...values }, { env: {} })));

describe('promote-build inputs', () => {
  it('reads every input, with defaults', () => {
    expect(read({})).toMatchObject({
      projectId: '3',
      buildId: '12',
      tags: [],
      rings: ['qa', 'beta'],
      soakMs: 24 * 3_600_000,
      gate: { minSessions: 0, maxCrashes: 0 },
      notify: false,
      dryRun: false,
    });
    expect(
      read({
        'build-id': 'latest',
        tags: 'release',
        rings: 'qa\nbeta\npublic',
        soak: '2d',
        'min-sessions': '20',
        'max-crashes': '1',
        'max-feedbacks': '5',
        notify: 'true',
        'dry-run': 'true',
      }),
    ).toMatchObject({
      buildId: 'latest',
      tags: ['release'],
      rings: ['qa', 'beta', 'public'],
      soakMs: 2 * 24 * 3_600_000,
      gate: { minSessions: 20, maxCrashes: 1, maxFeedbacks: 5 },
      notify: true,
      dryRun: true,
    });
  });

  it.each<[string, Record<string, string>, string, RegExp]>([
    ['an empty rings', { rings: '' }, 'rings', /is required but was empty.*qa, beta, public/],
    ['rings of commas only', { rings: ' , ,' }, 'rings', /is required but was empty/],
    ['a ring named twice', { rings: 'qa, beta, qa' }, 'rings', /names "qa" twice/],
    ['a negative gate', { 'max-crashes': '-1' }, 'max-crashes', /-1/],
    ['a gate that is no number', { 'min-sessions': 'many' }, 'min-sessions', /"many"/],
    ['a gate with a fraction', { 'max-feedbacks': '2.5' }, 'max-feedbacks', /2\.5/],
    ['a soak of 0', { soak: '0' }, 'soak', /shorter than 1m/],
    ['a soak over a year', { soak: '400d' }, 'soak', /longer than 8760h/],
    ['a soak that is no duration', { soak: 'a day' }, 'soak', /not a duration/],
    ['tags with a build id', { tags: 'release' }, 'tags', /`build-id` names build 12/],
    ['a project that is no id', { 'project-id': 'shop' }, 'project-id', /"shop"/],
  ])('refuses %s, naming %s', (_, values, input, said) => {
    let error: unknown;
    try {
      read(values);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(new RegExp(`^Input "${input}" `));
    expect((error as InputError).message).toMatch(said);
  });
});

describe('a ring that is no tester group', () => {
  const lab = promoteLab();

  it('is refused after one listing of the groups, naming the ring and listing the groups, with no write', async () => {
    const build = await lab.upload(['qa']);
    const step = await lab.step({
      'project-id': build.projectId,
      'build-id': build.buildId,
      rings: 'qa, betta, public',
    });
    expect(step.result.failure?.kind).toBe('refused');
    expect(step.result.failure?.message).toBe(
      'rings: Unknown tester group: betta (the account has: qa, beta, public). Each ring is a tester group: fix `rings`, or create the group.',
    );
    expect(step.requests.map((entry) => `${entry.method} ${entry.path}`)).toEqual([
      'GET /api/1/testers/groups',
    ]);
  });
});
