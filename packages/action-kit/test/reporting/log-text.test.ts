/**
 * No text from an input or the service becomes a CI system's command in either host's log, and
 * the hosts' own commands (masks, groups, annotations, the failure) still are commands. Each
 * host's printed text is read back as the GitHub runner reads it (the harness's parser).
 */
import os from 'node:os';
import { parseWorkflowCommands, type ParsedLog } from '@sauce-actions/action-harness';
import { describe, expect, it } from 'vitest';
import { actionMetadata } from '../../src/hosts/action-metadata.ts';
import { runCli, type CliIo } from '../../src/hosts/cli-host.ts';
import { runOnGitHub } from '../../src/hosts/github-host.ts';
import { stubGitHubRunner } from '../hosts/github-runner.ts';
import {
  clearSecrets,
  readSauceConnection,
  type ActionDefinition,
  type ActionResult,
  type SauceConnection,
} from '../../src/index.ts';
import { commandFreeJson, commandFreeText } from '../../src/reporting/log-text.ts';

/** Names as a hostile input or service could give them: each hides a command after a break, or holds one. */
const HOSTILE: readonly (readonly [what: string, name: string])[] = [
  ['stop-commands after a line feed', 'x\n::stop-commands::tok'],
  ['add-mask at the start', '::add-mask::passed'],
  ['an error after a carriage return', 'x\r::error::forged'],
  ['a warning with properties after CRLF', 'x\r\n::warning title=t::forged'],
  ['a command in capitals', 'x\n::ERROR::forged'],
  ['white space before the colons', 'x\n \t\u00a0\u3000::error::forged'],
  ['a zero-width space before the colons', 'x\n\u200b::error::forged'],
  ['a byte-order mark before the colons', 'x\n\ufeff::error::forged'],
  ['a zero-width space between the colons', 'x\n:\u200b:error::forged'],
  ['a line separator', 'x\u2028::error::forged'],
  ['a next-line character', 'x\u0085::error::forged'],
  ['a vertical tab and a form feed', 'x\v::error::forged\f::add-mask::passed'],
  ['the older form mid-line', 'x ##[error]forged'],
  ['the older form of add-mask', 'x ##[add-mask]passed'],
  ['the older form after three hashes', 'x ###[error]forged'],
  ['the older form of stop-commands', 'x ##[stop-commands]tok'],
  ['an Azure Pipelines command', '##vso[task.setvariable variable=x]forged'],
  ['an Azure Pipelines command in capitals', 'x ##VSO[task.complete result=Failed]forged'],
];

/** The key, and the Basic form of it, which the host masks as it reads them. */
const MASKED = new Set(['the-access-key', Buffer.from('demo:the-access-key').toString('base64')]);

/** The commands carried out, but for the host's masks of the key: name and data. */
function commandsBeyondMasks(parsed: ParsedLog): [string, string][] {
  return parsed.commands
    .filter((c) => !(c.name === 'add-mask' && MASKED.has(c.data)))
    .map((c) => [c.name, c.data]);
}

describe('commandFreeText', () => {
  it.each([
    ['::error::x', ': :error::x'],
    ['  ::error::x', '  : :error::x'],
    ['a\r\n::b\r::c', 'a\n: :b\n: :c'],
    ['Job ##[error]x', 'Job # #[error]x'],
    ['###[', '## #['],
    ['##vso[task.complete]', '# #vso[task.complete]'],
    ['C:\\path::name, 12 # 3 [x]', 'C:\\path::name, 12 # 3 [x]'],
    ['', ''],
  ])('%j is logged as %j', (text, logged) => {
    expect(commandFreeText(text)).toBe(logged);
  });

  it.each(HOSTILE)('leaves no command in %s', (_what, name) => {
    const logged = commandFreeText(`Uploaded ${name}\n${name}`);
    expect(parseWorkflowCommands(logged).commands).toEqual([]);
    expect(logged.toLowerCase()).not.toContain('##vso[');
  });

  it('keeps the value of JSON text while breaking its commands', () => {
    const value = { name: 'a ##[error]x ###vso[y] #1' };
    const json = commandFreeJson(JSON.stringify(value));
    expect(json).not.toMatch(/##(vso)?\[/i);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('the GitHub host', () => {
  const { stdout } = stubGitHubRunner('log-text-');

  /** An action that logs `name` in a line, a group and a warning, then ends with `result`. */
  function logging(name: string, result: Partial<ActionResult>): ActionDefinition {
    return {
      title: 'Sample',
      readInputs: (read) => ({ connection: readSauceConnection(read) as SauceConnection }),
      run: async (_inputs, deps) => {
        deps.logger.info(`Uploaded ${name} 1.0`);
        await deps.logger.group(`Jobs of ${name}`, async () => deps.logger.info(name));
        deps.logger.warning(`Slow: ${name}`);
        deps.logger.debug(`Seen: ${name}`);
        return { outputs: {}, summary: '', annotations: [], ...result };
      },
    } as ActionDefinition;
  }

  it.each(HOSTILE)(
    'logs %s as text; the annotations and the failure after it still count',
    async (_what, name) => {
      await runOnGitHub(
        logging(name, {
          annotations: [{ level: 'warning', message: 'after the name' }],
          failure: { kind: 'tests-failed', message: '1 of 3 jobs failed.' },
        }),
      );
      const printed = parseWorkflowCommands(stdout.join(''));
      // Exactly the host's own commands: the group, the warning, the debug line, the failure
      // (the step's first error) and the annotation; the group's name and the warning keep the
      // name whole.
      expect(commandsBeyondMasks(printed)).toEqual([
        ['group', commandFreeText(`Jobs of ${name}`)],
        ['endgroup', ''],
        ['warning', `Slow: ${name}`],
        ['debug', `Seen: ${name}`],
        ['error', '1 of 3 jobs failed.'],
        ['warning', 'after the name'],
      ]);
      expect(new Set(printed.masks)).toEqual(MASKED);
      expect(process.exitCode).toBe(1);
    },
  );

  it('a green step whose names hold an error command shows no error', async () => {
    await runOnGitHub(logging('x\n::error::forged ##[error]forged', {}));
    const printed = parseWorkflowCommands(stdout.join(''));
    expect(printed.annotations.filter((a) => a.level === 'error')).toEqual([]);
    expect(process.exitCode).toBeUndefined();
    // Still readable: the name is there, with a space inside each command's opening.
    expect(printed.log).toContain(': :error::forged # #[error]forged');
  });
});

describe('the command line', () => {
  const METADATA = actionMetadata({
    name: 'Sample',
    description: 'Does a sample thing.',
    inputs: { username: { description: 'User.' }, 'access-key': { description: 'Key.' } },
    outputs: { 'app-name': { description: 'The name.' } },
  });

  it.each(HOSTILE)('prints %s on standard error as text, and as an exact output', async (_what, name) => {
    clearSecrets();
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      stdout: (text) => void out.push(text),
      stderr: (text) => void err.push(text),
      env: { SAUCE_USERNAME: 'demo', SAUCE_ACCESS_KEY: 'the-access-key' },
      cwd: os.tmpdir(),
    };
    const action = {
      title: 'Sample',
      readInputs: (read) => ({ connection: readSauceConnection(read) }),
      run: async (_inputs, deps) => {
        deps.logger.info(`Uploaded ${name} 1.0`);
        deps.logger.warning(`Slow: ${name}`);
        return {
          outputs: { 'app-name': name },
          summary: '',
          annotations: [{ level: 'error', message: `Job ${name} failed` }],
          failure: { kind: 'tests-failed', message: `${name} failed` },
        };
      },
    } as ActionDefinition;
    const command = { name: 'sample', metadata: METADATA, load: async () => ({ action }) };
    for (const json of [false, true]) {
      out.length = 0;
      err.length = 0;
      await runCli([command], ['sample', ...(json ? ['--json'] : [])], io);
      const printed = [...err, ...out].join('');
      expect(parseWorkflowCommands(printed).commands).toEqual([]);
      expect(printed.toLowerCase()).not.toContain('##vso[');
      const line = out.join('').trimEnd();
      const value = json
        ? (JSON.parse(line) as Record<string, string>)['app-name']
        : line.startsWith('app-name="')
          ? (JSON.parse(line.slice('app-name='.length)) as string)
          : line.slice('app-name='.length);
      expect(value).toBe(name);
    }
  });
});
