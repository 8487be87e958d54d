/**
 * `readInputs` of run-suite-and-wait: the form of every id and the bounds of every duration, checked
 * before any request. The step runs as the runner's host runs it (inputs read, then the client
 * made, then `run`) against the emulator, whose journal shows every request that reached it.
 */
import { createClient, InputError, InputReader, inputSource } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInputsGiven } from '../src/gather.ts';
import { readInputs } from '../src/inputs.ts';
import { run } from '../src/run.ts';
import { GREEN_CASES, GREEN_SUITE } from './seed.ts';

const HEX_FORM =
  "24 hexadecimal digits (0-9, a-f) such as `65a1f0c2b3d4e5f607182930` (the test case's id in AI test authoring; to run a suite by id or name, use `suite`)";
const DURATION_FORM =
  'seconds (`90`) or a number with `ms`, `s`, `m`, `h` or `d` (`90s`, `30m`, `1h30m`, `2d`)';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, jobDurationMs: 600_000 });
});

afterAll(async () => {
  await emulator.close();
});

function read(values: Record<string, string>) {
  return readInputs(
    new InputReader(
      inputSource(
        { username: 'demo', 'access-key': 'demo-access-key', 'api-url': emulator.url, ...values },
        { env: {}, workspace: '/work/space' },
      ),
    ),
  );
}

async function journalLength(): Promise<number> {
  const answer = await fetch(`${emulator.url}/_emulator/requests`);
  return ((await answer.json()) as { requests: unknown[] }).requests.length;
}

/** As the host: read the inputs, make the client, run; the error or the failure it ends with. */
async function hostRun(values: Record<string, string>): Promise<unknown> {
  const controller = new AbortController();
  // Ended soon after its first requests are out: only whether any was sent matters here.
  const timer = setTimeout(() => controller.abort(), 1500);
  try {
    const inputs = await read(values);
    const client = createClient(inputs.connection, testStepDeps().logger);
    try {
      return (await run(inputs, { ...testStepDeps({ signal: controller.signal }), client })).failure;
    } finally {
      await client.close();
    }
  } catch (error) {
    return error;
  } finally {
    clearTimeout(timer);
  }
}

describe('test case ids', () => {
  it('takes ids of 24 hexadecimal digits, in every form of the list', async () => {
    const [first, second] = GREEN_CASES;
    expect((await read({ 'test-cases': `${first}, ${second}` })).testCases).toEqual([
      { id: first },
      { id: second },
    ]);
    expect((await read({ 'test-cases': `- ${first}\n- id: ${second}` })).testCases).toEqual([
      { id: first },
      { id: second },
    ]);
  });

  it('keeps an id of digits only as written, unquoted, alone or in a list, whatever its zeros', async () => {
    const digits = '123456789012345678901234';
    const zeros = '000000000000000000000001';
    expect((await read({ 'test-cases': digits })).testCases).toEqual([{ id: digits }]);
    expect(
      (await read({ 'test-cases': `- ${digits}\n- id: ${zeros}\n  targets: [{ 'appium:timeout': 60 }]` }))
        .testCases,
    ).toEqual([{ id: digits }, { id: zeros, targets: [{ capabilities: { 'appium:timeout': 60 } }] }]);
  });

  it.each([
    // A plain list splits on spaces too: a name with spaces is refused by its first word.
    ['a name', 'Checkout fails', 'item 1 "Checkout"'],
    ['a word', 'abc', 'item 1 "abc"'],
    ['23 digits', GREEN_CASES[0].slice(1), `item 1 "${GREEN_CASES[0].slice(1)}"`],
    ['25 digits', `${GREEN_CASES[0]}0`, `item 1 "${GREEN_CASES[0]}0"`],
    ['a suite id', GREEN_SUITE, `item 1 "${GREEN_SUITE}"`],
    [
      'a bad second item',
      `${GREEN_CASES[0]}\n${GREEN_CASES[1].replace(/a/g, 'z')}`,
      'item 2 "zzzzzzzzzzzzzzzzzzzzzz02"',
    ],
    ['a bad id in { id, targets }', `- id: nope\n  targets: [{ browserName: chrome }]`, 'item 1 "nope"'],
  ])('refuses %s, naming the item and the form, with no request sent', async (_case, testCases, item) => {
    const before = await journalLength();
    const error = await hostRun({ 'test-cases': testCases });
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(
      `Input "test-cases" has ${item}, which is not 24 hexadecimal digits. Allowed: ${HEX_FORM}.`,
    );
    expect(await journalLength()).toBe(before);
  });

  it('sends requests once the ids have their form (so the journal would show any)', async () => {
    const before = await journalLength();
    await hostRun({ 'test-cases': 'bbbbbbbbbbbbbbbbbbbbbb01' });
    expect(await journalLength()).toBeGreaterThan(before);
  });
});

describe('suite', () => {
  it('is a UUID or else a name, both taken as given', async () => {
    expect((await read({ suite: GREEN_SUITE })).suite).toBe(GREEN_SUITE);
    expect((await read({ suite: 'Smoke' })).suite).toBe('Smoke');
    expect((await read({ suite: 'not-quite-a-uuid-3e0a6b2d' })).suite).toBe('not-quite-a-uuid-3e0a6b2d');
  });
});

describe('durations', () => {
  it.each([
    ['timeout', '2147484', 'has 2147484, which is longer than 24h', 'from 1s to 24h'],
    ['timeout', '25h', 'has 25h, which is longer than 24h', 'from 1s to 24h'],
    ['timeout', '-5', 'has "-5", which is not a duration', 'from 1s to 24h'],
    ['timeout', '0', 'has 0, which is shorter than 1s', 'from 1s to 24h'],
    ['timeout', 'NaN', 'has "NaN", which is not a duration', 'from 1s to 24h'],
    ['timeout', '1e400', 'has "1e400", which is not a duration', 'from 1s to 24h'],
    ['timeout', '10 minutes', 'has "10 minutes", which is not a duration', 'from 1s to 24h'],
    ['timeout', '30x', 'has "30x", which is not a duration', 'from 1s to 24h'],
    ['poll-interval', '500ms', 'has 500ms, which is shorter than 1s', 'from 1s to 10m'],
    ['poll-interval', '11m', 'has 11m, which is longer than 10m', 'from 1s to 10m'],
    ['poll-interval', '2147484', 'has 2147484, which is longer than 10m', 'from 1s to 10m'],
  ])(
    'refuses the %s %s with the form and the bounds, with no request sent',
    async (input, value, problem, range) => {
      const before = await journalLength();
      const error = await hostRun({ suite: 'Smoke', [input]: value });
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).message).toBe(
        `Input "${input}" ${problem}. Allowed: ${DURATION_FORM}, ${range}.`,
      );
      expect(await journalLength()).toBe(before);
    },
  );

  it('takes a timeout of 24h and a poll interval of 10m', async () => {
    expect(await read({ suite: 'Smoke', timeout: '24h', 'poll-interval': '10m' })).toMatchObject({
      timeoutMs: 86_400_000,
      pollIntervalMs: 600_000,
    });
  });
});

describe('operation: report and the publishing inputs', () => {
  it.each([
    ['shard', { shard: '2/3' }, /"shard" is set with `operation: report`/],
    ['check-name', { 'check-name': 'x'.repeat(101) }, /"check-name" is 101 characters long.*at most 100/],
    ['check-name', { 'check-name': 'one\ntwo' }, /"check-name" has a line break/],
    ['pull-request', { 'pull-request': '0' }, /"pull-request"/],
    ['operation', { operation: 'merge' }, /"operation"/],
  ])('refuses %s before any request', async (_, values, message) => {
    const before = await journalLength();
    const attempt = read({ suite: 'Regression', operation: 'report', ...values });
    await expect(attempt).rejects.toThrow(message);
    await expect(attempt).rejects.toBeInstanceOf(InputError);
    expect(await journalLength()).toBe(before);
  });

  it('reads a report with its check run and pull request', async () => {
    const inputs = await read({
      suite: 'Regression',
      operation: 'report',
      'check-name': 'Sauce Labs Regression',
      'pull-request': '42',
      'pr-comment': 'true',
    });
    expect(inputs).toMatchObject({
      operation: 'report',
      checkName: 'Sauce Labs Regression',
      pullRequest: 42,
      prComment: true,
    });
    expect(inputs.shard).toBeUndefined();
  });

  it.each<[Record<string, string>, string[]]>([
    [{}, []],
    [{ retries: '0', 'stop-on-cancel': 'true', 'download-assets': 'none' }, []],
    [
      { retries: '1', 'tunnel-name': 'nightly', 'download-assets': 'failed', 'retention-days': '7' },
      ['tunnel-name', 'retries', 'download-assets', 'retention-days'],
    ],
    [
      {
        'fail-fast': 'true',
        'rerun-failed': 'false',
        'stop-on-cancel': 'false',
        targets: '- { browserName: chrome, platformName: Windows 11 }',
      },
      ['targets', 'fail-fast', 'rerun-failed', 'stop-on-cancel'],
    ],
  ])('a report given %o names %o as inputs of a run, which change nothing in it', async (values, names) => {
    const given = runInputsGiven(await read({ suite: 'Regression', operation: 'report', ...values }));
    expect(Object.keys(given).filter((name) => given[name])).toEqual(names);
  });
});
