/**
 * `readHistoryInputs`: `history` from 0 to 50 (default 10), `fail-on` `any` or `new` (default
 * `any`), `default-branch` a git branch name, and the quarantine file (the one named, or the
 * default where it exists), read into typed inputs or refused by the input's name.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError, InputReader, inputSource } from '../../src/index.ts';
import { readHistoryInputs, type HistoryInputs } from '../../src/inputs/history-inputs.ts';
import { NO_NOTIFY } from '../../src/inputs/notify-inputs.ts';
import type { QuarantineEntry } from '../../src/inputs/quarantine.ts';

const TODAY = '2026-03-10';
const HISTORY_FORM = 'a whole number of earlier runs (`0` turns the comparison off) from 0 to 50';
const BRANCH_FORM =
  'a git branch name, such as `main` or `release/2.x`: no spaces, control characters, `..`, `@{` or any of `~ ^ : ? * [ \\`; not starting with `-` nor ending with `.`; each part between `/` not empty, not starting with `.` nor ending with `.lock`';

const QUARANTINE = [
  '- { case: "checkout/*", reason: "issue 12", expires: 2026-03-10, mode: skip }',
  '- { case: Login, reason: "issue 14", expires: 2026-03-09 }',
].join('\n');
const CHECKOUT: QuarantineEntry = {
  case: 'checkout/*',
  reason: 'issue 12',
  expires: '2026-03-10',
  mode: 'skip',
  line: 1,
};
const LOGIN: QuarantineEntry = {
  case: 'Login',
  reason: 'issue 14',
  expires: '2026-03-09',
  mode: 'run',
  line: 2,
};
const NONE = { entries: [], expired: [] };

/** A workspace with no quarantine file, and one with the default file and another. */
let bare: string;
let withFiles: string;

beforeAll(() => {
  bare = mkdtempSync(path.join(os.tmpdir(), 'history-bare-'));
  withFiles = mkdtempSync(path.join(os.tmpdir(), 'history-files-'));
  mkdirSync(path.join(withFiles, '.sauce'));
  writeFileSync(path.join(withFiles, '.sauce', 'quarantine.yml'), QUARANTINE);
  writeFileSync(path.join(withFiles, 'other.yml'), QUARANTINE.split('\n')[1]!);
  writeFileSync(path.join(withFiles, 'broken.yml'), '- { case: Login, reason: x }');
});

afterAll(() => {
  rmSync(bare, { recursive: true, force: true });
  rmSync(withFiles, { recursive: true, force: true });
});

function read(values: Record<string, string>, workspace: string): Promise<HistoryInputs> {
  return readHistoryInputs(new InputReader(inputSource(values, { workspace })), { workspace, today: TODAY });
}

async function refusal(values: Record<string, string>, workspace = bare): Promise<InputError> {
  const error = await read(values, workspace).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

describe('read into typed inputs', () => {
  it.each<[string, Record<string, string>, 'bare' | 'files', HistoryInputs]>([
    ['nothing given', {}, 'bare', { runs: 10, failOn: 'any', quarantine: NONE, notify: NO_NOTIFY }],
    [
      'no comparison',
      { history: '0' },
      'bare',
      { runs: 0, failOn: 'any', quarantine: NONE, notify: NO_NOTIFY },
    ],
    [
      'the most runs',
      { history: ' 50 ' },
      'bare',
      { runs: 50, failOn: 'any', quarantine: NONE, notify: NO_NOTIFY },
    ],
    [
      'new failures only',
      { 'fail-on': 'new' },
      'bare',
      { runs: 10, failOn: 'new', quarantine: NONE, notify: NO_NOTIFY },
    ],
    [
      'a default branch',
      { 'default-branch': 'release/2.x' },
      'bare',
      { runs: 10, failOn: 'any', defaultBranch: 'release/2.x', quarantine: NONE, notify: NO_NOTIFY },
    ],
    [
      'a Slack address, its format from its host',
      { 'notify-url': 'https://hooks.slack.com/services/T/B/x', issues: 'flaky' },
      'bare',
      {
        runs: 10,
        failOn: 'any',
        quarantine: NONE,
        notify: {
          url: 'https://hooks.slack.com/services/T/B/x',
          format: 'slack',
          on: 'change',
          issues: 'flaky',
        },
      },
    ],
    [
      'the default quarantine file, its expired entry apart',
      {},
      'files',
      {
        runs: 10,
        failOn: 'any',
        quarantine: { file: '.sauce/quarantine.yml', entries: [CHECKOUT], expired: [LOGIN] },
        notify: NO_NOTIFY,
      },
    ],
    [
      'a named quarantine file instead of the default',
      { 'quarantine-file': 'other.yml' },
      'files',
      {
        runs: 10,
        failOn: 'any',
        quarantine: { file: 'other.yml', entries: [], expired: [{ ...LOGIN, line: 1 }] },
        notify: NO_NOTIFY,
      },
    ],
  ])('%s', async (_, values, workspace, expected) => {
    expect(await read(values, workspace === 'bare' ? bare : withFiles)).toEqual(expected);
  });
});

describe('refused by name, with what is allowed', () => {
  it.each<[Record<string, string>, string]>([
    [{ history: '51' }, `Input "history" has 51, which is out of range. Allowed: ${HISTORY_FORM}.`],
    [{ history: '-1' }, `Input "history" has -1, which is out of range. Allowed: ${HISTORY_FORM}.`],
    [{ history: '2.5' }, `Input "history" has "2.5", which is not a whole number. Allowed: ${HISTORY_FORM}.`],
    [{ history: 'ten' }, `Input "history" has "ten", which is not a whole number. Allowed: ${HISTORY_FORM}.`],
    [{ 'fail-on': 'all' }, 'Input "fail-on" has "all". Allowed: `any`, `new`.'],
    [{ 'fail-on': 'New' }, 'Input "fail-on" has "New". Allowed: `any`, `new`.'],
    [{ 'default-branch': 'my branch' }, 'has "my branch", which holds a space'],
    [{ 'default-branch': 'main\u0007' }, 'has "main\\u0007", which holds a control character'],
    [{ 'default-branch': '-main' }, 'has "-main", which starts with `-`, as an option of git does'],
    [{ 'default-branch': 'release..2' }, 'has "release..2", which holds `..`'],
    [{ 'default-branch': 'main:prod' }, 'has "main:prod", which holds one of `~ ^ : ? * [ \\`'],
    [{ 'default-branch': 'main@{1}' }, 'has "main@{1}", which holds `@{`'],
    [{ 'default-branch': '@' }, 'has "@", which is `@`, git\'s name of the current commit'],
    [{ 'default-branch': 'team/.hidden' }, 'has "team/.hidden", which has a part starting with `.`'],
    [{ 'default-branch': 'team//main' }, 'has "team//main", which has an empty part between `/`'],
    [{ 'default-branch': 'main/' }, 'has "main/", which has an empty part between `/`'],
    [{ 'default-branch': 'main.lock' }, 'has "main.lock", which has a part ending with `.lock`'],
    [{ 'default-branch': 'main.' }, 'has "main.", which ends with `.`'],
  ])('%j', async (values, message) => {
    const [input] = Object.keys(values) as [string];
    const error = await refusal(values);
    expect(error.input).toBe(input);
    expect(error.message).toBe(
      input === 'default-branch' ? `Input "default-branch" ${message}. Allowed: ${BRANCH_FORM}.` : message,
    );
  });

  it('refuses a named quarantine file that does not exist, where the default may be absent', async () => {
    const error = await refusal({ 'quarantine-file': 'ci/quarantine.yml' });
    expect(error.input).toBe('quarantine-file');
    expect(error.problem).toBe(
      `names "ci/quarantine.yml", which does not exist (looked for ${path.join(bare, 'ci/quarantine.yml')})`,
    );
  });

  it('refuses a quarantine file with a malformed entry, by its line', async () => {
    const error = await refusal({ 'quarantine-file': 'broken.yml' }, withFiles);
    expect(error.input).toBe('quarantine-file');
    expect(error.problem).toBe('names "broken.yml", where the entry at line 1 has no `expires`');
  });
});
