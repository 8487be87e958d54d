/**
 * The inputs each test action reads for the engine, with `readInputs` as every host calls it:
 * `retries` from 0 to 5, default 0, a `shard` of the form `<index>/<total>`, and the comparison
 * with earlier runs (`history`, `fail-on`, `default-branch`, `quarantine-file`) and the
 * notifications (`notify-url`, `notify-format`, `notify-on`, `issues`), read the same in a run, a
 * shard of one and a report; anything else refused by the input's name.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InputError, InputReader, inputSource } from '@sauce-actions/action-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS } from './support/adapters.ts';

const DAY_MS = 86_400_000;
const dayFromNow = (days: number): string => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
const IN_FORCE = dayFromNow(30);

/** A workspace with the default quarantine file and another one. */
let workspace: string;
/** A workspace with neither. */
let bare: string;

beforeAll(() => {
  workspace = mkdtempSync(path.join(os.tmpdir(), 'engine-inputs-'));
  bare = mkdtempSync(path.join(os.tmpdir(), 'engine-inputs-bare-'));
  mkdirSync(path.join(workspace, '.sauce'));
  writeFileSync(
    path.join(workspace, '.sauce', 'quarantine.yml'),
    `- { case: "Login *", reason: "issue 7", expires: ${IN_FORCE} }\n- { case: Old, reason: "issue 2", expires: 2000-01-01 }\n`,
  );
  writeFileSync(
    path.join(workspace, 'ci-quarantine.yml'),
    `- { case: Checkout, reason: "issue 9", expires: ${IN_FORCE}, mode: skip }\n`,
  );
});

afterAll(() => {
  rmSync(workspace, { recursive: true, force: true });
  rmSync(bare, { recursive: true, force: true });
});

describe.each(ADAPTERS)('$name', (adapter) => {
  const read = (values: Record<string, string>, from = bare) =>
    adapter.readInputs(
      new InputReader(inputSource({ ...adapter.rawInputs, ...values }, { workspace: from })),
    );

  it('reads retries from 0 to 5, default 0', async () => {
    expect((await read({})).retries).toBe(0);
    expect((await read({ retries: '5' })).retries).toBe(5);
  });

  it('compares with 10 earlier runs, fails on any failure, and quarantines nothing, by default', async () => {
    expect((await read({})).history).toEqual({
      runs: 10,
      failOn: 'any',
      quarantine: { entries: [], expired: [] },
      notify: { format: 'json', on: 'change', issues: 'none' },
    });
  });

  it('reads the default quarantine file where it exists, its expired entries apart', async () => {
    expect((await read({}, workspace)).history.quarantine).toEqual({
      file: '.sauce/quarantine.yml',
      entries: [{ case: 'Login *', reason: 'issue 7', expires: IN_FORCE, mode: 'run', line: 1 }],
      expired: [{ case: 'Old', reason: 'issue 2', expires: '2000-01-01', mode: 'run', line: 2 }],
    });
  });

  it.each<[string, Record<string, string>]>([
    ['a run', {}],
    ['a shard of a run', { shard: '1/2' }],
    ['a report', { operation: 'report' }],
  ])('reads history, fail-on, default-branch and quarantine-file the same in %s', async (_, values) => {
    const given = {
      history: '0',
      'fail-on': 'new',
      'default-branch': 'trunk',
      'quarantine-file': 'ci-quarantine.yml',
      'notify-url': 'https://hooks.slack.com/services/T0/B0/engine-inputs',
      'notify-format': 'teams',
      'notify-on': 'always',
      issues: 'both',
    };
    expect((await read({ ...given, ...values }, workspace)).history).toEqual({
      runs: 0,
      failOn: 'new',
      defaultBranch: 'trunk',
      quarantine: {
        file: 'ci-quarantine.yml',
        entries: [{ case: 'Checkout', reason: 'issue 9', expires: IN_FORCE, mode: 'skip', line: 1 }],
        expired: [],
      },
      notify: {
        url: 'https://hooks.slack.com/services/T0/B0/engine-inputs',
        format: 'teams',
        on: 'always',
        issues: 'both',
      },
    });
  });

  it.each([
    ['retries', '6'],
    ['retries', '-1'],
    ['retries', '1.5'],
    ['retries', 'two'],
    ['shard', '4/3'],
    ['shard', '0/3'],
    ['shard', '1/0'],
    ['shard', 'a/b'],
    ['history', '51'],
    ['history', 'all'],
    ['fail-on', 'flaky'],
    ['default-branch', 'my branch'],
    ['default-branch', '-main'],
    ['quarantine-file', 'missing.yml'],
    ['quarantine-file', '../outside.yml'],
    ['notify-url', 'http://hooks.example.com/x'],
    ['notify-format', 'discord'],
    ['notify-on', 'sometimes'],
    ['issues', 'all'],
  ])('refuses %s %s by name', async (input, value) => {
    const error = await read({ [input]: value }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).input).toBe(input);
  });
});

describe.each(ADAPTERS)('$name post step', (adapter) => {
  it('reads the connection alone: a quarantine file broken since the main step cannot keep it from stopping jobs', async () => {
    const read = new InputReader(
      inputSource(
        {
          username: 'demo',
          'access-key': 'demo-access-key',
          'quarantine-file': 'gone/quarantine.yml',
          history: 'many',
        },
        { workspace: os.tmpdir() },
      ),
    );
    await expect(adapter.post.readInputs(read)).resolves.toMatchObject({
      connection: { username: 'demo', region: 'us-west-1' },
    });
  });
});
