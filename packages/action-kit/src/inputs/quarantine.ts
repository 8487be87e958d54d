/**
 * The quarantine file (`quarantine-file`): a YAML list of entries, each naming a case (its name,
 * its id or a glob of names), why it is quarantined, the last day of its quarantine, and what the
 * quarantine does (`run`: the case runs and is reported but never fails the step; `skip`: it is
 * not started). The file is checked whole before anything starts: every malformed entry is
 * refused at once, with its line and what is allowed, so that one run shows all the mistakes.
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Pair } from 'yaml';
import { InputError, quoteValue } from '../step/input-error.ts';
import { formatSize } from '../values/size.ts';
import {
  MAX_QUARANTINE_BYTES,
  MAX_QUARANTINE_DAYS,
  MAX_QUARANTINE_ENTRIES,
  QUARANTINE_INPUT,
  QUARANTINE_MODES,
  type Quarantine,
  type QuarantineEntry,
  type QuarantineMode,
} from './quarantine-entry.ts';

export * from './quarantine-entry.ts';

export interface QuarantineOptions {
  /** The file as the input names it, for the refusals. */
  file: string;
  /** Today in UTC, `YYYY-MM-DD` (`utcToday()`), given so that tests can pin it. */
  today: string;
}

const KEYS = ['case', 'reason', 'expires', 'mode'] as const;
type Key = (typeof KEYS)[number];

const KEYS_ALLOWED = 'the keys `case`, `reason`, `expires` and optionally `mode`, each once';
const CASE_ALLOWED =
  '`case`: the name of a case, its id, or a glob of names (`*` any characters, `/` included; `?` one character; `[...]` one of those characters), such as `checkout/*`';
const REASON_ALLOWED = '`reason`: why the case is quarantined, such as a link to its issue';
const MODE_ALLOWED =
  '`mode`: `run` (the default: the case runs and is reported, but never fails the step) or `skip` (the case is not started)';
const DUPLICATE_ALLOWED = 'one entry per case: merge the two or remove one';
/** How many malformed entries one refusal lists; the rest are counted. */
const LISTED_PROBLEMS = 10;
const DAY_MS = 86_400_000;

/** A problem of one entry: what follows "the entry at line N", and what is allowed instead. */
interface EntryProblem {
  line: number;
  problem: string;
  allowed: string;
}

/**
 * The entries of a quarantine file's `text`, split into those in force and those expired (an
 * entry is in force to the end of its `expires` day). Throws an `InputError` of
 * `quarantine-file` naming the file, the line and what is allowed when the file is not YAML, not
 * a list, too large, or has malformed entries (all of them listed, first problem of each).
 */
export function parseQuarantine(text: string, options: QuarantineOptions): Quarantine {
  const today = dayNumber(options.today);
  if (today === undefined) throw new TypeError(`today is not a date written YYYY-MM-DD: ${options.today}`);
  const latest = dayText(today + MAX_QUARANTINE_DAYS);
  const form = quarantineForm(latest);
  const refuse = (problem: string, allowed: string): InputError =>
    new InputError(QUARANTINE_INPUT, `names ${quoteValue(options.file)}, ${problem}`, allowed);

  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_QUARANTINE_BYTES) {
    throw refuse(
      `which is ${formatSize(bytes)}, more than ${formatSize(MAX_QUARANTINE_BYTES)}`,
      `a file of at most ${formatSize(MAX_QUARANTINE_BYTES)} and ${MAX_QUARANTINE_ENTRIES} entries`,
    );
  }
  const lines = new LineCounter();
  // Failsafe: every value is text as written, so an id of digits keeps its leading zeros and a
  // date stays the string it was (no other schema's numbers, booleans, nulls or timestamps).
  const doc = parseDocument(text.replace(/^\uFEFF/, ''), {
    lineCounter: lines,
    schema: 'failsafe',
    uniqueKeys: false,
    prettyErrors: false,
  });
  const lineAt = (offset: number | undefined): number => lines.linePos(offset ?? 0).line;
  const yamlError = doc.errors[0] ?? doc.warnings[0];
  if (yamlError !== undefined) {
    const line = lineAt(yamlError.pos[0]);
    throw refuse(
      yamlError.code === 'MULTIPLE_DOCS'
        ? `which holds more than one YAML document (\`---\` at line ${line})`
        : `which is not valid YAML at line ${line}: ${plain(yamlError.message)}`,
      form,
    );
  }
  const contents = doc.contents;
  // Empty, or comments only: a quarantine whose last entry was removed.
  if (contents === null) return { entries: [], expired: [] };
  if (!isSeq(contents)) {
    throw refuse(
      `which holds ${kindOf(contents)} at line ${lineAt(contents.range?.[0])}, not a list of entries`,
      form,
    );
  }
  if (contents.items.length > MAX_QUARANTINE_ENTRIES) {
    throw refuse(
      `which holds ${contents.items.length} entries, more than ${MAX_QUARANTINE_ENTRIES}`,
      `at most ${MAX_QUARANTINE_ENTRIES} entries: remove those that expired or whose cases are fixed`,
    );
  }

  const context: EntryContext = { options, today, latest, form };
  const problems: EntryProblem[] = [];
  const valid: QuarantineEntry[] = [];
  const firstLineOf = new Map<string, number>();
  for (const item of contents.items) {
    const line = lineAt(isNode(item) ? item.range?.[0] : undefined);
    const checked = checkEntry(item, line, context);
    if ('problem' in checked) {
      problems.push(checked);
      continue;
    }
    const first = firstLineOf.get(checked.case);
    if (first !== undefined) {
      problems.push({
        line,
        problem: `is for the case ${quoteValue(checked.case)} again (first at line ${first})`,
        allowed: DUPLICATE_ALLOWED,
      });
      continue;
    }
    firstLineOf.set(checked.case, line);
    valid.push(checked);
  }
  if (problems.length > 0) throw malformed(problems, refuse);
  return {
    entries: valid.filter((entry) => !isExpired(entry, today)),
    expired: valid.filter((entry) => isExpired(entry, today)),
  };
}

/** The whole file's form, for refusals that are not about one key. */
function quarantineForm(latest: string): string {
  return `a YAML list of entries, one per case, each a mapping of \`case\` (a name, an id or a glob of names), \`reason\`, \`expires\` (YYYY-MM-DD, at most ${MAX_QUARANTINE_DAYS} days ahead) and optionally \`mode\` (\`run\` or \`skip\`), such as \`- { case: "checkout/*", reason: "issue 12", expires: ${latest}, mode: skip }\``;
}

function expiresAllowed(today: string, latest: string): string {
  return `\`expires\`: the last day of the quarantine, written YYYY-MM-DD, at most ${MAX_QUARANTINE_DAYS} days after today (${today}), so ${latest} at the latest; once that day is past, the entry is ignored with a warning`;
}

interface EntryContext {
  options: QuarantineOptions;
  today: number;
  latest: string;
  form: string;
}

/** One entry read, or its first problem. */
function checkEntry(item: unknown, line: number, context: EntryContext): QuarantineEntry | EntryProblem {
  const problem = (text: string, allowed: string): EntryProblem => ({ line, problem: text, allowed });
  if (!isMap(item)) return problem(`is ${kindOf(item)}, not a mapping`, context.form);
  const values = new Map<Key, unknown>();
  for (const pair of item.items as Pair[]) {
    const key = isScalar(pair.key) && typeof pair.key.value === 'string' ? pair.key.value : undefined;
    if (key === undefined) return problem(`has ${kindOf(pair.key)} as a key`, KEYS_ALLOWED);
    if (!(KEYS as readonly string[]).includes(key)) {
      return problem(
        `has the key ${quoteValue(key)}, which is not one of \`case\`, \`reason\`, \`expires\`, \`mode\``,
        KEYS_ALLOWED,
      );
    }
    if (values.has(key as Key)) return problem(`has \`${key}\` twice`, KEYS_ALLOWED);
    values.set(key as Key, pair.value);
  }

  const text = (key: Key, allowed: string): string | EntryProblem => {
    if (!values.has(key)) return problem(`has no \`${key}\``, allowed);
    const node = values.get(key);
    if (node === null || node === undefined) return problem(`has an empty \`${key}\``, allowed);
    if (!isScalar(node) || typeof node.value !== 'string') {
      return problem(`has ${kindOf(node)} as \`${key}\`, not text`, allowed);
    }
    if (node.value.trim() === '') return problem(`has an empty \`${key}\``, allowed);
    return node.value;
  };
  const name = text('case', CASE_ALLOWED);
  if (typeof name !== 'string') return name;
  const reason = text('reason', REASON_ALLOWED);
  if (typeof reason !== 'string') return reason;

  const allowedExpires = expiresAllowed(context.options.today, context.latest);
  const expires = text('expires', allowedExpires);
  if (typeof expires !== 'string') return expires;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(expires)) {
    return problem(
      `has \`expires\` ${quoteValue(expires)}, which is not a date written YYYY-MM-DD`,
      allowedExpires,
    );
  }
  const day = dayNumber(expires);
  if (day === undefined) {
    return problem(`has \`expires\` ${expires}, which is not a day of the calendar`, allowedExpires);
  }
  if (day > context.today + MAX_QUARANTINE_DAYS) {
    return problem(
      `has \`expires\` ${expires}, more than ${MAX_QUARANTINE_DAYS} days after today (${context.options.today})`,
      allowedExpires,
    );
  }

  let mode: QuarantineMode = 'run';
  if (values.has('mode')) {
    const written = text('mode', MODE_ALLOWED);
    if (typeof written !== 'string') return written;
    if (!(QUARANTINE_MODES as readonly string[]).includes(written)) {
      return problem(
        `has \`mode\` ${quoteValue(written)}, which is neither \`run\` nor \`skip\``,
        MODE_ALLOWED,
      );
    }
    mode = written as QuarantineMode;
  }
  return { case: name, reason, expires, mode, line };
}

/** The refusal of the malformed entries: one in full, or several listed with their lines. */
function malformed(
  problems: EntryProblem[],
  refuse: (problem: string, allowed: string) => InputError,
): InputError {
  const [only] = problems;
  if (only !== undefined && problems.length === 1) {
    return refuse(`where the entry at line ${only.line} ${only.problem}`, only.allowed);
  }
  const listed = problems.slice(0, LISTED_PROBLEMS).map((p) => `the entry at line ${p.line} ${p.problem}`);
  const more = problems.length - listed.length;
  const allowed = [...new Set(problems.map((p) => p.allowed))].join('; ');
  return refuse(
    `where ${problems.length} entries are malformed: ${listed.join('; ')}${more > 0 ? `; and ${more} more` : ''}`,
    allowed,
  );
}

function isExpired(entry: QuarantineEntry, today: number): boolean {
  // Checked by the parse: every entry's `expires` is a day of the calendar.
  return (dayNumber(entry.expires) ?? today) < today;
}

/** What a YAML node is, in words, for refusals: `a list`, `the text "login"`, `an alias`. */
function kindOf(node: unknown): string {
  if (node === null || node === undefined) return 'nothing';
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (isAlias(node)) return 'an alias (`*…`)';
  if (isScalar(node)) return node.value === '' ? 'nothing' : `the text ${quoteValue(String(node.value))}`;
  return 'a value';
}

function isNode(item: unknown): item is { range?: [number, number, number] | null } {
  return typeof item === 'object' && item !== null && 'range' in item;
}

/** The YAML library's message on one line, short: it may quote the file. */
function plain(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

/** Days since 1970-01-01 of a real `YYYY-MM-DD` day (2026-02-30 is none), or `undefined`. */
function dayNumber(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999.
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return undefined;
  }
  return Math.round(date.getTime() / DAY_MS);
}

function dayText(days: number): string {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}
