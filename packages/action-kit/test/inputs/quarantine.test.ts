/** The quarantine file read: its entries, expired ones apart, and each malformed entry refused by line. */
import { describe, expect, it } from 'vitest';
import {
  expiredWarning,
  parseQuarantine,
  utcToday,
  type QuarantineEntry,
} from '../../src/inputs/quarantine.ts';
import { InputError } from '../../src/step/input-error.ts';

const FILE = '.sauce/quarantine.yml';
const TODAY = '2026-05-01';
/** TODAY + 90 days. */
const LATEST = '2026-07-30';

const FORM = `a YAML list of entries, one per case, each a mapping of \`case\` (a name, an id or a glob of names), \`reason\`, \`expires\` (YYYY-MM-DD, at most 90 days ahead) and optionally \`mode\` (\`run\` or \`skip\`), such as \`- { case: "checkout/*", reason: "issue 12", expires: ${LATEST}, mode: skip }\``;
const KEYS = 'the keys `case`, `reason`, `expires` and optionally `mode`, each once';
const CASE =
  '`case`: the name of a case, its id, or a glob of names (`*` any characters, `/` included; `?` one character; `[...]` one of those characters), such as `checkout/*`';
const REASON = '`reason`: why the case is quarantined, such as a link to its issue';
const EXPIRES = `\`expires\`: the last day of the quarantine, written YYYY-MM-DD, at most 90 days after today (${TODAY}), so ${LATEST} at the latest; once that day is past, the entry is ignored with a warning`;
const MODE =
  '`mode`: `run` (the default: the case runs and is reported, but never fails the step) or `skip` (the case is not started)';
const DUPLICATE = 'one entry per case: merge the two or remove one';

function parse(text: string, today = TODAY): ReturnType<typeof parseQuarantine> {
  return parseQuarantine(text, { file: FILE, today });
}

function refusal(text: string, today = TODAY): InputError {
  try {
    parse(text, today);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** The message of a refusal of the file: `Input "quarantine-file" names FILE, <problem>. Allowed: …`. */
function message(problem: string, allowed: string): string {
  return `Input "quarantine-file" names ".sauce/quarantine.yml", ${problem}. Allowed: ${allowed}.`;
}

/** An entry in the block form, valid unless a row changes it. */
function entry(name: string, more = ''): string {
  return `- case: ${name}\n  reason: flaky\n  expires: ${TODAY}\n${more}`;
}

function inForce(name: string, line: number, mode: 'run' | 'skip' = 'run'): QuarantineEntry {
  return { case: name, reason: 'flaky', expires: TODAY, mode, line };
}

describe('the entries', () => {
  it.each<[string, string, QuarantineEntry[]]>([
    ['one entry, `run` by default', entry('login'), [inForce('login', 1)]],
    ['a mode', entry('login', '  mode: skip\n'), [inForce('login', 1, 'skip')]],
    ['`run` written', entry('login', '  mode: run\n'), [inForce('login', 1)]],
    [
      'the line of each, comments and blank lines counted',
      `# quarantined cases\n\n${entry('a')}\n${entry('b')}`,
      [inForce('a', 3), inForce('b', 7)],
    ],
    [
      'the flow form',
      `- { case: "checkout/*", reason: flaky, expires: ${TODAY}, mode: skip }\n`,
      [inForce('checkout/*', 1, 'skip')],
    ],
    ['an id of digits keeps its leading zero', entry('0123'), [inForce('0123', 1)]],
    ['words YAML 1.1 read as booleans stay text', entry('yes'), [inForce('yes', 1)]],
    ['a quoted date', `- case: a\n  reason: flaky\n  expires: "${TODAY}"\n`, [inForce('a', 1)]],
    ['a name over two lines', entry('"first\\nsecond"'), [inForce('first\nsecond', 1)]],
    ['a name with `::`', entry('"::error::x"'), [inForce('::error::x', 1)]],
    ['a byte order mark', `\uFEFF${entry('a')}`, [inForce('a', 1)]],
    ['an empty file', '', []],
    ['comments only', '# none for now\n', []],
    ['an empty list', '[]\n', []],
  ])('%s', (_, text, entries) => {
    expect(parse(text)).toEqual({ entries, expired: [] });
  });
});

describe('expiry', () => {
  it('keeps an entry in force to the end of its day, and sets apart one whose day is past', () => {
    const text = `${entry('today')}- case: yesterday\n  reason: flaky\n  expires: 2026-04-30\n`;
    expect(parse(text)).toEqual({
      entries: [inForce('today', 1)],
      expired: [{ case: 'yesterday', reason: 'flaky', expires: '2026-04-30', mode: 'run', line: 4 }],
    });
  });

  it('counts an entry of a year long past as expired, not malformed', () => {
    const { expired } = parse('- case: a\n  reason: r\n  expires: 0001-01-01\n');
    expect(expired.map((e) => e.expires)).toEqual(['0001-01-01']);
  });

  it('warns of an expired entry by its case, file and line, on one line', () => {
    const expired = {
      case: '::error::x\ny',
      reason: 'r',
      expires: '2026-04-30',
      mode: 'run',
      line: 7,
    } as const;
    expect(expiredWarning(expired, FILE)).toBe(
      'The quarantine entry for "::error::x y" (".sauce/quarantine.yml", line 7) expired on 2026-04-30 and is ignored: the case is no longer quarantined. Renew its `expires` (at most 90 days ahead) or remove the entry.',
    );
  });

  it('takes today in UTC', () => {
    expect(utcToday(new Date('2026-05-01T23:30:00-02:00'))).toBe('2026-05-02');
  });

  it('refuses a today that is not a day, as the caller’s mistake', () => {
    expect(() => parse(entry('a'), '2026-02-30')).toThrow(TypeError);
  });
});

describe('the 90-day bound', () => {
  const expiring = (day: string): string => `- case: a\n  reason: r\n  expires: ${day}\n`;

  it('takes 90 days ahead and refuses 91', () => {
    expect(parse(expiring(LATEST)).entries.map((e) => e.expires)).toEqual([LATEST]);
    expect(refusal(expiring('2026-07-31')).message).toBe(
      message(
        'where the entry at line 1 has `expires` 2026-07-31, more than 90 days after today (2026-05-01)',
        EXPIRES,
      ),
    );
  });

  it('counts 29 February in a leap year', () => {
    expect(parse(expiring('2028-05-01'), '2028-02-01').entries).toHaveLength(1);
    expect(refusal(expiring('2028-05-02'), '2028-02-01').message).toContain('so 2028-05-01 at the latest');
  });
});

describe('refusals, each with the entry’s line and what is allowed', () => {
  it.each<[string, string, string, string]>([
    ['no `case`', '- reason: r\n  expires: 2026-05-01\n', 'has no `case`', CASE],
    ['an empty `case`', '- case:\n  reason: r\n  expires: 2026-05-01\n', 'has an empty `case`', CASE],
    ['a blank `case`', '- case: "  "\n  reason: r\n  expires: 2026-05-01\n', 'has an empty `case`', CASE],
    [
      'a list as `case`',
      '- case: [a, b]\n  reason: r\n  expires: 2026-05-01\n',
      'has a list as `case`, not text',
      CASE,
    ],
    [
      'a mapping as `case`',
      '- case: { a: b }\n  reason: r\n  expires: 2026-05-01\n',
      'has a mapping as `case`, not text',
      CASE,
    ],
    ['no `reason`', '- case: a\n  expires: 2026-05-01\n', 'has no `reason`', REASON],
    [
      'an empty `reason`',
      '- case: a\n  reason: ""\n  expires: 2026-05-01\n',
      'has an empty `reason`',
      REASON,
    ],
    ['no `expires`', '- case: a\n  reason: r\n', 'has no `expires`', EXPIRES],
    [
      'a day without its zeros',
      '- case: a\n  reason: r\n  expires: 2026-5-1\n',
      'has `expires` "2026-5-1", which is not a date written YYYY-MM-DD',
      EXPIRES,
    ],
    [
      'a time with the day',
      '- case: a\n  reason: r\n  expires: 2026-05-01T00:00\n',
      'has `expires` "2026-05-01T00:00", which is not a date written YYYY-MM-DD',
      EXPIRES,
    ],
    [
      'words',
      '- case: a\n  reason: r\n  expires: next week\n',
      'has `expires` "next week", which is not a date written YYYY-MM-DD',
      EXPIRES,
    ],
    [
      '30 February',
      '- case: a\n  reason: r\n  expires: 2026-02-30\n',
      'has `expires` 2026-02-30, which is not a day of the calendar',
      EXPIRES,
    ],
    [
      '29 February of a common year',
      '- case: a\n  reason: r\n  expires: 2027-02-29\n',
      'has `expires` 2027-02-29, which is not a day of the calendar',
      EXPIRES,
    ],
    [
      'month 13',
      '- case: a\n  reason: r\n  expires: 2026-13-01\n',
      'has `expires` 2026-13-01, which is not a day of the calendar',
      EXPIRES,
    ],
    [
      'day 0',
      '- case: a\n  reason: r\n  expires: 2026-05-00\n',
      'has `expires` 2026-05-00, which is not a day of the calendar',
      EXPIRES,
    ],
    [
      'an unknown mode',
      `${entry('a')}  mode: quarantine\n`,
      'has `mode` "quarantine", which is neither `run` nor `skip`',
      MODE,
    ],
    [
      'a mode in capitals',
      `${entry('a')}  mode: Skip\n`,
      'has `mode` "Skip", which is neither `run` nor `skip`',
      MODE,
    ],
    ['an empty mode', `${entry('a')}  mode:\n`, 'has an empty `mode`', MODE],
    [
      'an unknown key',
      `${entry('a')}  expiry: 2026-05-01\n`,
      'has the key "expiry", which is not one of `case`, `reason`, `expires`, `mode`',
      KEYS,
    ],
    ['a key twice', '- case: a\n  case: b\n  reason: r\n  expires: 2026-05-01\n', 'has `case` twice', KEYS],
    ['a list as a key', '- ? [a]\n  : b\n', 'has a list as a key', KEYS],
    ['text, not a mapping', '- login\n', 'is the text "login", not a mapping', FORM],
    ['a list, not a mapping', '- [login]\n', 'is a list, not a mapping', FORM],
    [
      'an alias, not a mapping',
      `- &one { case: a, reason: r, expires: ${TODAY} }\n- *one\n`,
      'is an alias (`*…`), not a mapping',
      FORM,
    ],
    ['an empty entry', '-\n', 'is nothing, not a mapping', FORM],
  ])('%s', (_, text, problem, allowed) => {
    const error = refusal(text);
    expect(error.input).toBe('quarantine-file');
    const line = text.startsWith('- &one') ? 2 : 1;
    expect(error.message).toBe(message(`where the entry at line ${line} ${problem}`, allowed));
  });

  it('refuses a second entry for the same case, naming both lines', () => {
    expect(refusal(`${entry('login')}${entry('other')}${entry('login', '  mode: skip\n')}`).message).toBe(
      message('where the entry at line 7 is for the case "login" again (first at line 1)', DUPLICATE),
    );
  });

  it('lists every malformed entry with its line, and what each needs', () => {
    const text = `${entry('ok')}- case: a\n- login\n${entry('b', '  mode: off\n')}`;
    expect(refusal(text).message).toBe(
      message(
        'where 3 entries are malformed: the entry at line 4 has no `reason`; the entry at line 5 is the text "login", not a mapping; the entry at line 6 has `mode` "off", which is neither `run` nor `skip`',
        `${REASON}; ${FORM}; ${MODE}`,
      ),
    );
  });

  it('lists ten malformed entries and counts the others', () => {
    const text = Array.from({ length: 12 }, (_, i) => `- case: c${i}\n`).join('');
    const said = refusal(text).message;
    expect(said).toContain('where 12 entries are malformed: the entry at line 1 has no `reason`;');
    expect(said).toContain('the entry at line 10 has no `reason`; and 2 more. Allowed: ');
    expect(said).not.toContain('line 11');
  });

  it('keeps a refusal on one line, whatever the names hold', () => {
    const name = '"::error title=x::boom\\n##vso[task.complete]"';
    const said = refusal(`${entry(name)}${entry(name)}`).message;
    expect(said).toBe(
      message(
        'where the entry at line 4 is for the case "::error title=x::boom ##vso[task.complete]" again (first at line 1)',
        DUPLICATE,
      ),
    );
    expect(said).not.toMatch(/\n/);
  });
});

describe('refusals of the whole file', () => {
  it.each<[string, string, string]>([
    ['a mapping', 'case: a\nreason: r\n', 'which holds a mapping at line 1, not a list of entries'],
    ['text', 'login\n', 'which holds the text "login" at line 1, not a list of entries'],
    [
      'a list left open',
      '# list\n- [a\n',
      'which is not valid YAML at line 3: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ],
    ['a quote left open', '- case: "a\n', 'which is not valid YAML at line 2: Missing closing "quote'],
    [
      'a tag of another schema',
      '# ids\n- case: !!int 5\n',
      'which is not valid YAML at line 2: Unresolved tag: tag:yaml.org,2002:int',
    ],
    ['two documents', '- a\n---\n- b\n', 'which holds more than one YAML document (`---` at line 2)'],
  ])('%s', (_, text, problem) => {
    expect(refusal(text).message).toBe(message(problem, FORM));
  });

  it('takes 1,000 entries and refuses 1,001', () => {
    const entries = (count: number): string =>
      Array.from({ length: count }, (_, i) => `- { case: c${i}, reason: r, expires: ${TODAY} }\n`).join('');
    expect(parse(entries(1000)).entries).toHaveLength(1000);
    expect(refusal(entries(1001)).message).toBe(
      message(
        'which holds 1001 entries, more than 1000',
        'at most 1000 entries: remove those that expired or whose cases are fixed',
      ),
    );
  });

  it('takes 1 MiB and refuses a byte more', () => {
    const padded = (bytes: number): string => `${entry('a')}#${'x'.repeat(bytes - entry('a').length - 1)}`;
    expect(parse(padded(2 ** 20)).entries).toHaveLength(1);
    expect(refusal(padded(2 ** 20 + 1)).message).toBe(
      message('which is 1.05 MB, more than 1 MiB', 'a file of at most 1 MiB and 1000 entries'),
    );
  });
});
