/**
 * The command line's help and usage: the help of the commands and of an action, usage mistakes
 * named with the closest name (in --json too), and how the arguments are read.
 */
import { describe, expect, it } from 'vitest';
import { actionMetadata } from '../../src/hosts/action-metadata.ts';
import { parseActionArgs, UsageError } from '../../src/hosts/cli-args.ts';
import type { CliCommand } from '../../src/hosts/cli-command.ts';
import { runCli } from '../../src/hosts/cli-host.ts';
import { closestName, editDistance } from '../../src/hosts/closest-name.ts';
import { action, command, METADATA, useCliTerminal } from './cli-sample.ts';

const { out, err, io } = useCliTerminal('cli-help-');

describe('help and usage', () => {
  const module = { action: action(async () => ({ outputs: {}, summary: '', annotations: [] })) };

  it('--help lists the commands; <action> --help every input with its default, list inputs as repeatable', async () => {
    expect(await runCli([command(module)], ['--help'], io)).toBe(0);
    expect(out.join('')).toContain('  sample  Does a sample thing.\n');
    out.length = 0;
    expect(await runCli([command(module)], ['sample', '--help', '--bogus'], io)).toBe(0);
    const help = out.join('');
    expect(help).toContain('  --mode <value>\n      `fast` or `slow`. Default: fast.\n');
    expect(help).toContain('Repeatable');
    expect(help).toContain('  --token <value>\n      A token.\n');
    expect(help).toContain('  greeting\n      The greeting.\n');
  });

  it('an unknown action or flag: exit 2, named, with the closest name, before loading the action', async () => {
    let loaded = false;
    const lazy: CliCommand = { ...command(module), load: async () => ((loaded = true), module) };
    expect(await runCli([lazy], ['sampel'], io)).toBe(2);
    expect(err.join('')).toContain('Unknown action "sampel". Did you mean sample?');
    expect(await runCli([lazy], ['sample', '--nam', 'x'], io)).toBe(2);
    expect(err.join('')).toContain('Unknown flag --nam for sample. Did you mean --name?');
    expect(loaded).toBe(false);
  });

  it.each([
    [['sampel', '--json'], 'Unknown action "sampel". Did you mean sample?'],
    [['sample', '--nam', 'x', '--json'], 'Unknown flag --nam for sample. Did you mean --name?'],
    [['sample', '--json', '--name'], '--name needs a value'],
  ])('with --json, %j prints one JSON object with the usage error, exit 2', async (args, message) => {
    expect(await runCli([command(module)], args, io)).toBe(2);
    const printed = out.join('');
    expect(printed.trim().split('\n')).toHaveLength(1);
    const object = JSON.parse(printed) as { error: { kind: string; message: string } };
    expect(object.error.kind).toBe('usage');
    expect(object.error.message).toContain(message);
    expect(err.join('')).toContain(`error: ${message}`);
  });

  it.each([
    ['--SUITE', '--suite'],
    ['--Name', '--name'],
    ['--API-URL', '--api-url'],
  ])('a flag in the wrong case, %s, is named with the right one', async (flag, right) => {
    const metadata = actionMetadata({
      name: 'Sample',
      description: 'Sample.',
      inputs: { suite: { description: 'A suite.' }, name: { description: 'A name.' }, 'api-url': {} },
      outputs: {},
    });
    expect(await runCli([{ ...command(module), metadata }], ['sample', flag, 'x'], io)).toBe(2);
    expect(err.join('')).toContain(`Unknown flag ${flag} for sample. Did you mean ${right}?`);
  });
});

describe('parseActionArgs', () => {
  const parse = (...args: string[]) => parseActionArgs('sample', args, METADATA);

  it('takes --name value and --name=value (a value may hold = or start with --), host options apart', () => {
    const parsed = parse('--name', 'a=b', '--mode=--slow', '--json', '--summary', 'out.md', '--verbose');
    expect(Object.fromEntries(parsed.inputs)).toEqual({ name: 'a=b', mode: '--slow' });
    expect(parsed.options).toEqual({
      json: true,
      summaryFile: 'out.md',
      verbose: true,
      help: false,
      version: false,
    });
  });

  it('joins a repeated list input with newlines, refuses a repeated single one', () => {
    expect(parse('--items', 'a', '--items', 'b').inputs.get('items')).toBe('a\nb');
    expect(() => parse('--name', 'a', '--name', 'b')).toThrow(
      new UsageError('--name was given twice; it takes one value.'),
    );
  });

  it.each([
    [['--name'], '--name needs a value'],
    [['--name', '--json'], '--name needs a value'],
    [['name'], 'Unexpected argument "name"'],
    [['-n', 'x'], 'Unexpected argument "-n"'],
    [['--summary'], '--summary needs a value'],
    [['--summary='], '--summary needs a file name.'],
    [['--verbose=1'], '--verbose takes no value.'],
    [['--acces-key', 'k'], 'Unknown flag --acces-key for sample. Did you mean --access-key?'],
    [['--zzz', 'k'], 'Unknown flag --zzz for sample. Run'],
    // Dashes an editor or a chat made of `--`.
    [['\u2014name', 'x'], 'starts with "\u2014", a dash, not two hyphens. Did you mean --name?'],
    [['\u2013name', 'x'], 'starts with "\u2013", a dash, not two hyphens. Did you mean --name?'],
    [['\u2013\u2013name=x'], 'Did you mean --name?'],
    [['-\u2013name', 'x'], 'Did you mean --name?'],
    [['\u2212json'], 'Did you mean --json?'],
    [['--name', 'a', '\u2014items', 'b'], 'Did you mean --items?'],
  ])('%j is refused', (args, message) => {
    expect(() => parse(...args)).toThrow(UsageError);
    expect(() => parse(...args)).toThrow(message);
  });

  it('names a dashed flag without the value after its `=`, which may be a secret', () => {
    expect(() => parse('\u2014access-key=s3cr3t-key')).toThrow(/Did you mean --access-key\?/);
    expect(() => parse('\u2014access-key=s3cr3t-key')).not.toThrow(/s3cr3t/);
  });
});

describe('closestName', () => {
  it('finds prefixes, typos and swaps; nothing far off', () => {
    const names = ['suite', 'test-cases', 'timeout', 'tunnel-name'];
    expect(closestName('suit', names)).toBe('suite');
    expect(closestName('timout', names)).toBe('timeout');
    expect(closestName('tunnle-name', names)).toBe('tunnel-name');
    expect(closestName('x', names)).toBeUndefined();
    expect(closestName('platform', names)).toBeUndefined();
    expect(closestName('SUITE', names)).toBe('suite');
    expect(closestName('Timout', names)).toBe('timeout');
    expect(editDistance('abc', 'acb')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
