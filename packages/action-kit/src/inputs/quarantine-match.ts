/**
 * Which quarantine entry holds an item (a case, or a platform of run-js-tests): the first entry,
 * in the file's order, whose `case` is the item's id, its name, or a glob matching its name. And
 * the entries that hold no item, refused before anything starts: a case renamed or removed would
 * otherwise leave an entry that quarantines nothing, unseen.
 *
 * Globs are minimatch's, with only `*`, `?`, `[...]` and `\` escapes: braces, extglobs (`@(…)`),
 * negation (`!x`) and comments (`#x`) are off, since names of cases hold those characters
 * literally. Not picomatch: it passes `(`, `)` and `|` through into its regular expression, so
 * `Login (Chrome) *` never matches `Login (Chrome) works`. Not `path.matchesGlob`: its `*` stops
 * at `/`, and on Windows it ignores case and reads `\` as a separator. minimatch matches paths,
 * where `*` and `?` stop at `/`; names of cases are not paths (`checkout/*` should match
 * `checkout/pay/card`), so `/` is handed to it as a character it gives no meaning, U+0000, in
 * both the glob and the name. A name that holds U+0000 itself is matched by equality only.
 */
import { Minimatch, type MinimatchOptions } from 'minimatch';
import { type QuarantineEntry } from './quarantine-entry.ts';

export { unmatchedError } from './quarantine-entry.ts';

/** What an entry is matched against. */
export interface QuarantineItem {
  id: string;
  name: string;
}

export type QuarantineMatcher = (item: QuarantineItem) => QuarantineEntry | undefined;

/** `platform`: the same matching on every runner (`\` escapes, case counts). */
const GLOB_OPTIONS: MinimatchOptions = {
  dot: true,
  nobrace: true,
  noext: true,
  nonegate: true,
  nocomment: true,
  platform: 'linux',
};
const SLASH_STAND_IN = '\u0000';

/**
 * The entry that holds an item, the first in the file's order: by the item's id, its name, or a
 * glob matching its name (`*` any characters, `/` included; `?` one character; `[...]` a class;
 * case-sensitive).
 */
export function quarantineMatcher(entries: readonly QuarantineEntry[]): QuarantineMatcher {
  const { exact, globs } = compile(entries);
  return (item) => {
    let first = Math.min(exact.get(item.id) ?? Infinity, exact.get(item.name) ?? Infinity);
    for (const glob of globs) {
      // Later entries than an equal one cannot win.
      if (glob.index >= first) break;
      if (globMatches(glob.pattern, item.name)) {
        first = glob.index;
        break;
      }
    }
    return Number.isFinite(first) ? entries[first] : undefined;
  };
}

/**
 * The entries that match no item, in the file's order. An entry only shadowed by an earlier one
 * still matches. `items` are all the run would plan, before any shard takes its share.
 */
export function unmatchedEntries(
  entries: readonly QuarantineEntry[],
  items: readonly QuarantineItem[],
): QuarantineEntry[] {
  const { globs } = compile(entries);
  const known = new Set(items.flatMap((item) => [item.id, item.name]));
  const globOf = new Map(globs.map((glob) => [glob.index, glob.pattern] as const));
  return entries.filter((entry, index) => {
    if (known.has(entry.case)) return false;
    const pattern = globOf.get(index);
    return pattern === undefined || !items.some((item) => globMatches(pattern, item.name));
  });
}

interface Compiled {
  /** Each `case` text and the first entry that has it. */
  exact: Map<string, number>;
  /** The entries whose `case` has glob characters, in the file's order. */
  globs: { index: number; pattern: Minimatch }[];
}

function compile(entries: readonly QuarantineEntry[]): Compiled {
  const exact = new Map<string, number>();
  const globs: Compiled['globs'] = [];
  entries.forEach((entry, index) => {
    if (!exact.has(entry.case)) exact.set(entry.case, index);
    if (!/[*?[\\]/.test(entry.case)) return;
    globs.push({ index, pattern: new Minimatch(entry.case.replaceAll('/', SLASH_STAND_IN), GLOB_OPTIONS) });
  });
  return { exact, globs };
}

function globMatches(pattern: Minimatch, name: string): boolean {
  return !name.includes(SLASH_STAND_IN) && pattern.match(name.replaceAll('/', SLASH_STAND_IN));
}
