/** Quarantine entries matched to cases: by id, by name, by glob; the first in the file wins; unmatched ones refused. */
import { describe, expect, it } from 'vitest';
import {
  quarantineMatcher,
  unmatchedEntries,
  unmatchedError,
  type QuarantineItem,
} from '../../src/inputs/quarantine-match.ts';
import type { QuarantineEntry } from '../../src/inputs/quarantine.ts';

function entryOf(name: string, line = 1, mode: 'run' | 'skip' = 'run'): QuarantineEntry {
  return { case: name, reason: 'flaky', expires: '2026-05-01', mode, line };
}

const item = (name: string, id = 'id-0'): QuarantineItem => ({ id, name });

describe('one entry against one case', () => {
  it.each<[string, string, boolean]>([
    ['login', 'login', true],
    ['login', 'Login', false],
    ['login', 'login ', false],
    // `*`: any run of characters, `/` and newlines included, none at all too.
    ['checkout/*', 'checkout/pay/card', true],
    ['checkout/*', 'checkout/', true],
    ['checkout/*', 'checkouts/pay', false],
    ['*/card', 'checkout/pay/card', true],
    ['*', 'a\nb', true],
    ['*', '.hidden', true],
    ['Login*', 'login works', false],
    // `?`: exactly one character, `/` included.
    ['a?c', 'abc', true],
    ['a?c', 'a/c', true],
    ['a?c', 'ac', false],
    ['a?c', 'abbc', false],
    // `[...]`: one character of a class.
    ['[ab]x', 'bx', true],
    ['[ab]x', 'cx', false],
    ['[!ab]x', 'cx', true],
    ['[!ab]x', 'ax', false],
    ['step [0-9]', 'step 7', true],
    ['step [0-9]', 'step x', false],
    ['a[/]b', 'a/b', true],
    ['a[!/]b', 'a/b', false],
    // A `[` that opens no class is itself.
    ['a[b*', 'a[bc', true],
    // `\` makes the next character plain.
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
    // What other globs read as syntax is plain text in a name.
    ['Login (Chrome) *', 'Login (Chrome) works', true],
    ['Login (Chrome) *', 'Login Chrome works', false],
    ['$(id)*', '$(id) 1', true],
    ['{a,b}*', '{a,b} c', true],
    ['{a,b}*', 'a c', false],
    ['!skip*', '!skip me', true],
    ['!skip*', 'other', false],
    ['#1*', '#1 first', true],
    ['@(a)*', '@(a) b', true],
    ['+(a)*', 'a', false],
    ['a|b*', 'a|bc', true],
    ['a|b*', 'a', false],
    ['^a.*', '^a.b', true],
    ['^a.*', 'axb', false],
    // Names are not paths: `.`, `..` and doubled slashes mean nothing.
    ['a/../*', 'b', false],
    ['a/../*', 'a/../b', true],
    ['./a*', 'a', false],
    ['a//*', 'a/b', false],
    ['a\\b*', 'ab', true],
    ['a\\b*', 'a\\b', false],
  ])('%j against %j: %s', (pattern, name, matches) => {
    const entry = entryOf(pattern);
    expect(quarantineMatcher([entry])(item(name))).toBe(matches ? entry : undefined);
    expect(unmatchedEntries([entry], [item(name)])).toEqual(matches ? [] : [entry]);
  });

  it('matches an id by equality, never as a glob', () => {
    const byId = entryOf('12345');
    expect(quarantineMatcher([byId])(item('checkout', '12345'))).toBe(byId);
    const glob = entryOf('123*');
    expect(quarantineMatcher([glob])(item('checkout', '12345'))).toBeUndefined();
  });

  it('matches a name with glob characters by equality too', () => {
    const entry = entryOf('a\\*b');
    expect(quarantineMatcher([entry])(item('a\\*b'))).toBe(entry);
    expect(quarantineMatcher([entryOf('a[b')])(item('a[b'))?.case).toBe('a[b');
  });

  it('matches a name holding U+0000 by equality only', () => {
    expect(quarantineMatcher([entryOf('a/*')])(item('a/\u0000'))).toBeUndefined();
    expect(quarantineMatcher([entryOf('a*')])(item('a\u0000b'))).toBeUndefined();
    expect(quarantineMatcher([entryOf('a\u0000b')])(item('a\u0000b'))?.case).toBe('a\u0000b');
  });
});

describe('several entries', () => {
  it('gives the first matching entry in the file order, whether by glob or by equality', () => {
    const glob = entryOf('checkout/*', 1, 'skip');
    const exact = entryOf('checkout/pay', 5);
    const byId = entryOf('42', 9);
    expect(quarantineMatcher([glob, exact, byId])(item('checkout/pay', '42'))).toBe(glob);
    expect(quarantineMatcher([exact, glob, byId])(item('checkout/pay', '42'))).toBe(exact);
    expect(quarantineMatcher([byId, exact, glob])(item('checkout/pay', '42'))).toBe(byId);
    expect(quarantineMatcher([exact, byId, glob])(item('checkout/card', '7'))).toBe(glob);
    expect(quarantineMatcher([exact, byId, glob])(item('login', '7'))).toBeUndefined();
  });

  it('gives the earlier of two globs', () => {
    const first = entryOf('*pay*', 1);
    const second = entryOf('checkout/*', 2);
    expect(quarantineMatcher([first, second])(item('checkout/pay'))).toBe(first);
    expect(quarantineMatcher([first, second])(item('checkout/card'))).toBe(second);
  });

  it('matches nothing with no entries', () => {
    expect(quarantineMatcher([])(item('login'))).toBeUndefined();
  });
});

describe('entries that match nothing', () => {
  const byName = entryOf('login', 1);
  const byId = entryOf('42', 5);
  const byGlob = entryOf('checkout/*', 9);
  const shadowed = entryOf('checkout/pay', 13);
  const gone = entryOf('signup', 17);
  const goneGlob = entryOf('search/*', 21);

  it('are those that no case matches, in the file order; one only shadowed by another still matches', () => {
    const items = [item('login', '1'), item('profile', '42'), item('checkout/pay', '3')];
    expect(unmatchedEntries([byName, byId, byGlob, shadowed, gone, goneGlob], items)).toEqual([
      gone,
      goneGlob,
    ]);
    expect(unmatchedEntries([byName, gone], [])).toEqual([byName, gone]);
  });

  it('are refused with their lines, before anything starts', () => {
    const error = unmatchedError([gone], '.sauce/quarantine.yml');
    expect(error.input).toBe('quarantine-file');
    expect(error.message).toBe(
      'Input "quarantine-file" names ".sauce/quarantine.yml", which has an entry that matches no case of this run: "signup" (line 17). Allowed: entries whose `case` is the name or the id of a case of this run, or a glob matching the name of one; remove the entries of cases that were renamed or removed.',
    );
    expect(unmatchedError([gone, goneGlob], 'q.yml').message).toContain(
      'names "q.yml", which has 2 entries that match no case of this run: "signup" (line 17), "search/*" (line 21). Allowed:',
    );
  });

  it('lists ten and counts the others, each name on one line', () => {
    const many = Array.from({ length: 12 }, (_, i) => entryOf(`::error::case ${i}\nnext`, i + 1));
    const said = unmatchedError(many, 'q.yml').message;
    expect(said).toContain(
      'which has 12 entries that match no case of this run: "::error::case 0 next" (line 1), "::error::case 1 next" (line 2),',
    );
    expect(said).toContain('"::error::case 9 next" (line 10), and 2 more. Allowed:');
    expect(said).not.toMatch(/\n/);
  });
});
