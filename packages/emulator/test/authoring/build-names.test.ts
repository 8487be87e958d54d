import { describe, expect, it } from 'vitest';
import { BuildNames, CASE_RUN_BUILD_MAX, SUITE_RUN_BUILD_MAX } from '../../src/authoring/build-names.ts';

/** The rule as the service states it: the lowest free ` - N`, looked for from 1 every time. */
function plainRule(wanted: string, used: ReadonlySet<string>, max: number): string {
  const base = wanted.slice(0, max);
  if (!used.has(base)) return base;
  for (let n = 1; ; n++) {
    const suffix = ` - ${n}`;
    const candidate = base.slice(0, max - suffix.length) + suffix;
    if (!used.has(candidate)) return candidate;
  }
}

const long = 'L'.repeat(120);
const b = (count: number) => 'b'.repeat(count);

const rows: { label: string; used?: string[]; claims: [string, number][]; expected: string[] }[] = [
  {
    label: 'a new name, then repeats numbered from 1',
    claims: [
      ['X', 100],
      ['X', 100],
      ['X', 100],
    ],
    expected: ['X', 'X - 1', 'X - 2'],
  },
  {
    label: 'a gap in the numbers used is filled first',
    used: ['X', 'X - 2'],
    claims: [
      ['X', 100],
      ['X', 100],
      ['X', 100],
    ],
    expected: ['X - 1', 'X - 3', 'X - 4'],
  },
  {
    label: 'a name that already ends in " - 3"',
    claims: [
      ['X - 3', 100],
      ['X', 100],
      ['X', 100],
      ['X', 100],
      ['X', 100],
      ['X - 3', 100],
    ],
    expected: ['X - 3', 'X', 'X - 1', 'X - 2', 'X - 4', 'X - 3 - 1'],
  },
  {
    label: '"X - 1" asked for directly once it is taken',
    used: ['X', 'X - 1'],
    claims: [
      ['X - 1', 100],
      ['X', 100],
    ],
    expected: ['X - 1 - 1', 'X - 2'],
  },
  {
    label: 'a name at the cap',
    claims: [
      ['abcdefgh', 8],
      ['abcdefgh', 8],
      ['abcdefgh', 8],
    ],
    expected: ['abcdefgh', 'abcd - 1', 'abcd - 2'],
  },
  {
    label: 'names past the cap, cut to one base',
    claims: [
      ['abcdefghij', 8],
      ['abcdefghij', 8],
      ['abcdefghXYZ', 8],
    ],
    expected: ['abcdefgh', 'abcd - 1', 'abcd - 2'],
  },
  {
    label: 'a suffix of two digits leaves less of the base',
    used: ['abcdefgh', ...Array.from({ length: 9 }, (_, i) => `abcd - ${i + 1}`)],
    claims: [
      ['abcdefghij', 8],
      ['abcdefghij', 8],
    ],
    expected: ['abc - 10', 'abc - 11'],
  },
  {
    label: 'one long name under both caps',
    claims: [
      [long, CASE_RUN_BUILD_MAX],
      [long, SUITE_RUN_BUILD_MAX],
      [long, CASE_RUN_BUILD_MAX],
      [long, SUITE_RUN_BUILD_MAX],
    ],
    expected: ['L'.repeat(100), long, `${'L'.repeat(96)} - 1`, `${long} - 1`],
  },
  {
    label: 'one base under two caps, cut differently under the suffix',
    claims: [
      ['abcdef', 6],
      ['abcdef', 6],
      ['abcdef', 8],
      ['abcdef', 6],
    ],
    expected: ['abcdef', 'ab - 1', 'abcd - 1', 'ab - 2'],
  },
  {
    label: 'one short name under both caps shares its numbers',
    claims: [
      ['N', 100],
      ['N', 255],
      ['N', 100],
    ],
    expected: ['N', 'N - 1', 'N - 2'],
  },
  {
    label: "a case run's cap",
    claims: [
      [b(150), CASE_RUN_BUILD_MAX],
      [b(150), CASE_RUN_BUILD_MAX],
    ],
    expected: [b(100), `${b(96)} - 1`],
  },
  {
    label: 'the numbers of a kept list',
    used: ['Nightly', 'Nightly - 1', 'Nightly - 2'],
    claims: [
      ['Nightly', 100],
      ['Nightly - 1', 100],
    ],
    expected: ['Nightly - 3', 'Nightly - 1 - 1'],
  },
];

describe('BuildNames', () => {
  it.each(rows)('$label', ({ used = [], claims, expected }) => {
    const list = [...used];
    const names = new BuildNames(list);
    const given = claims.map(([wanted, max]) => names.claim(wanted, max));
    expect(given).toEqual(expected);
    // Each claim is appended to the persisted list, and the former rule agrees with every one.
    expect(list).toEqual([...used, ...expected]);
    const plain = new Set(used);
    expect(
      claims.map(([wanted, max]) => {
        const name = plainRule(wanted, plain, max);
        plain.add(name);
        return name;
      }),
    ).toEqual(expected);
  });

  it('gives the names of the plain rule over a long mixed sequence', () => {
    // A fixed pseudo-random walk over names that collide, carry suffixes and exceed caps.
    const wanted = [
      'X',
      'X - 1',
      'X - 3',
      'X - 1 - 1',
      'abcdefgh',
      'abcdefghij',
      'abc - 1',
      'abcdef',
      'Nightly',
      '',
    ];
    const caps = [6, 8, 12, 100];
    let state = 7;
    const next = (bound: number) => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state % bound;
    };
    const names = new BuildNames([]);
    const used = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const name = wanted[next(wanted.length)]!;
      const max = caps[next(caps.length)]!;
      const expected = plainRule(name, used, max);
      used.add(expected);
      expect(names.claim(name, max)).toBe(expected);
    }
  });

  it('follows only the list it was built from, as long as nothing else appends to it', () => {
    const list = ['X'];
    const names = new BuildNames(list);
    expect(names.follows(list)).toBe(true);
    names.claim('X', 100);
    expect(names.follows(list)).toBe(true);
    list.push('Y');
    expect(names.follows(list)).toBe(false);
    expect(names.follows(['X', 'X - 1'])).toBe(false);
  });
});
