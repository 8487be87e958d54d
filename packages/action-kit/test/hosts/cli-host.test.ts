/** The command line's host, in process: any action's result as a terminal gets it, whatever the action. */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/hosts/cli-host.ts';
import { ActionError, type PostDefinition } from '../../src/index.ts';
import { action, command, readInputs, useCliTerminal, type Inputs } from './cli-sample.ts';

const { out, err, io } = useCliTerminal('cli-host-');

describe('runCli', () => {
  it('reads flags, then action.yml defaults (never a workflow expression), then the environment fallbacks', async () => {
    let seen: Inputs | undefined;
    const code = await runCli(
      [
        command({
          action: action(async (inputs) => {
            seen = inputs;
            return { outputs: {}, summary: '', annotations: [] };
          }),
        }),
      ],
      ['sample', '--name=Ada', '--items', 'a', '--items', 'b,c', '--api-url', 'http://127.0.0.1:9'],
      io,
    );
    expect(code).toBe(0);
    expect(seen).toMatchObject({ name: 'Ada', mode: 'fast', items: ['a', 'b', 'c'], count: 3 });
    expect(seen?.token).toBeUndefined();
    expect(seen?.connection).toMatchObject({ username: 'demo', accessKey: 'the-access-key' });
  });

  it('prints outputs as name=value, a value with a line break as a JSON string; or one JSON object', async () => {
    const module = {
      action: action(async () => ({
        outputs: { greeting: 'hello\nworld', total: 2, quoted: '"x"', list: ['a', 'b'] },
        summary: '',
        annotations: [],
      })),
    };
    await runCli([command(module)], ['sample'], io);
    expect(out.join('')).toBe('greeting="hello\\nworld"\ntotal=2\nquoted="\\"x\\""\nlist=a,b\n');
    out.length = 0;
    await runCli([command(module)], ['sample', '--json'], io);
    expect(out.join('')).toBe('{"greeting":"hello\\nworld","total":2,"quoted":"\\"x\\"","list":["a","b"]}\n');
  });

  it('with --json, a failed run prints its outputs and the error in the one object', async () => {
    const failing = (kind: 'tests-failed' | 'input') =>
      command({
        action: action(async () => ({
          outputs: { total: 1 },
          summary: '',
          annotations: [],
          failure: { kind, message: `failed as ${kind}` },
        })),
      });
    expect(await runCli([failing('tests-failed')], ['sample', '--json'], io)).toBe(1);
    expect(JSON.parse(out.join(''))).toEqual({
      total: 1,
      error: { kind: 'tests-failed', message: 'failed as tests-failed' },
    });
    out.length = 0;
    // Refused by the reader, before `run`: no outputs, the error.
    expect(await runCli([failing('input')], ['sample', '--json', '--mode', 'medium'], io)).toBe(2);
    const refused = JSON.parse(out.join('')) as { error: { kind: string; message: string } };
    expect(refused.error.kind).toBe('input');
    expect(refused.error.message).toContain('Input "mode" has "medium"');
    out.length = 0;
    expect(await runCli([failing('input')], ['sample', '--json', '--summary', io.cwd], io)).toBe(2);
    expect(JSON.parse(out.join(''))).toMatchObject({ error: { kind: 'input' } });
  });

  it('exit codes: 0 done, 1 the work failed, 2 bad input; annotations and the failure on standard error', async () => {
    const failing = (kind: 'tests-failed' | 'refused' | 'input') =>
      command({
        action: action(async () => ({
          outputs: { total: 1 },
          summary: '<p>did work</p>',
          annotations: [{ level: 'warning', message: 'look', title: 'Note' }],
          failure: { kind, message: `failed as ${kind}` },
        })),
      });
    expect(await runCli([failing('tests-failed')], ['sample', '--summary', 's.md'], io)).toBe(1);
    expect(err.join('')).toContain('warning: Note: look\nerror: failed as tests-failed\n');
    expect(out.join('')).toBe('total=1\n');
    const summary = readFileSync(path.join(io.cwd, 's.md'), 'utf8');
    expect(summary).toContain('<p>did work</p>');
    expect(summary).toContain('Sample: failed');
    expect(await runCli([failing('refused')], ['sample'], io)).toBe(1);
    expect(await runCli([failing('input')], ['sample'], io)).toBe(2);
    // An input the reader refuses: exit 2, and `run` never called.
    let ran = false;
    const refused = command({
      action: action(async () => ((ran = true), { outputs: {}, summary: '', annotations: [] })),
    });
    expect(await runCli([refused], ['sample', '--mode', 'medium'], io)).toBe(2);
    expect(ran).toBe(false);
    expect(err.join('')).toContain('error: Input "mode" has "medium"');
  });

  it('refuses a --summary that cannot be written with exit 2, before the action runs', async () => {
    let ran = false;
    const module = {
      action: action(async () => ((ran = true), { outputs: {}, summary: '', annotations: [] })),
    };
    expect(await runCli([command(module)], ['sample', '--summary', '.'], io)).toBe(2);
    expect(err.join('')).toBe(
      `error: The summary file of --summary, ${io.cwd} is a folder. Name a file in a folder that can be written.\n`,
    );
    err.length = 0;
    writeFileSync(path.join(io.cwd, 'a-file'), '');
    expect(await runCli([command(module)], ['sample', '--summary', 'a-file/s.md'], io)).toBe(2);
    expect(err.join('')).toContain('cannot be written');
    expect(ran).toBe(false);
    expect(out).toEqual([]);
  });

  describe('the files the outputs name', () => {
    /** An action that writes `results.json` in its temporary folder when `name` is given, and names it. */
    const writer = {
      action: action(async (inputs, deps) => {
        if (inputs.name === undefined) return { outputs: {}, summary: '', annotations: [] };
        const file = path.join(deps.tempDir, 'results.json');
        writeFileSync(file, '{}');
        return { outputs: { 'results-file': file }, summary: '', annotations: [] };
      }),
    };
    const resultsFile = (): string => /^results-file=(.*)$/m.exec(out.join(''))?.[1] ?? '';

    it('go to a folder of the run inside the working folder, where CI artifacts reach; one per run', async () => {
      expect(await runCli([command(writer)], ['sample', '--name', 'a'], io)).toBe(0);
      const first = resultsFile();
      expect(path.relative(io.cwd, first)).toMatch(/^sauce-actions-output[\\/]sample-\w+[\\/]results\.json$/);
      expect(readFileSync(first, 'utf8')).toBe('{}');
      out.length = 0;
      expect(await runCli([command(writer)], ['sample', '--name', 'b'], io)).toBe(0);
      expect(path.dirname(resultsFile())).not.toBe(path.dirname(first));
      expect(existsSync(first)).toBe(true);
    });

    it('a run that writes none leaves no folder behind; a folder that was there stays', async () => {
      expect(await runCli([command(writer)], ['sample'], io)).toBe(0);
      expect(readdirSync(io.cwd)).toEqual([]);
      mkdirSync(path.join(io.cwd, 'sauce-actions-output'));
      expect(await runCli([command(writer)], ['sample'], io)).toBe(0);
      expect(readdirSync(path.join(io.cwd, 'sauce-actions-output'))).toEqual([]);
    });

    it('SAUCE_ACTIONS_OUTPUT_DIR names another folder, from the working folder', async () => {
      io.env = { ...io.env, SAUCE_ACTIONS_OUTPUT_DIR: 'build/reports' };
      expect(await runCli([command(writer)], ['sample', '--name', 'a'], io)).toBe(0);
      expect(path.relative(io.cwd, resultsFile())).toMatch(
        /^build[\\/]reports[\\/]sample-\w+[\\/]results\.json$/,
      );
    });

    it('a folder that cannot be made: exit 2 before the action runs, naming it and the variable', async () => {
      let ran = false;
      const module = {
        action: action(async () => ((ran = true), { outputs: {}, summary: '', annotations: [] })),
      };
      writeFileSync(path.join(io.cwd, 'a-file'), '');
      io.env = { ...io.env, SAUCE_ACTIONS_OUTPUT_DIR: 'a-file' };
      expect(await runCli([command(module)], ['sample', '--json'], io)).toBe(2);
      expect(ran).toBe(false);
      const message = `The output folder ${path.join(io.cwd, 'a-file')} could not be made`;
      expect(err.join('')).toContain(`error: ${message}`);
      expect(err.join('')).toContain('SAUCE_ACTIONS_OUTPUT_DIR');
      expect(JSON.parse(out.join(''))).toEqual({
        error: { kind: 'input', message: expect.stringContaining(message) },
      });
    });
  });

  it('a pull-request comment is not written, and says so', async () => {
    const module = {
      action: action(async () => ({
        outputs: {},
        summary: '',
        annotations: [],
        comment: { action: 'sample', identity: {}, body: 'hello' },
      })),
    };
    expect(await runCli([command(module)], ['sample'], io)).toBe(0);
    expect(err.join('')).toContain('warning: `pr-comment` writes only in a GitHub pull request');
  });

  it('a thrown explained error is its kind; secrets never printed, in outputs, logs, failures or the summary', async () => {
    const module = {
      action: action(async (inputs, deps) => {
        deps.logger.info(`key ${inputs.connection.accessKey}`);
        deps.logger.debug('detail');
        throw new ActionError('refused', `refused with ${inputs.connection.accessKey}`);
      }),
    };
    const code = await runCli(
      [command(module)],
      ['sample', '--access-key', 'flag-secret-key', '--summary', 's.md'],
      io,
    );
    expect(code).toBe(1);
    const printed = [...out, ...err, readFileSync(path.join(io.cwd, 's.md'), 'utf8')].join('');
    expect(printed).toContain('key ***');
    expect(printed).toContain('refused with ***');
    expect(printed).not.toContain('flag-secret-key');
    expect(printed).not.toContain('debug: detail');
  });

  it('the post definition runs after the main run when the state leaves it work, with that state', async () => {
    const order: string[] = [];
    const post: PostDefinition = {
      title: 'Sample: cleanup',
      hasLeftRunning: (state) => state.get('left') !== '',
      readInputs,
      run: async (_inputs, deps) => {
        order.push(`post ${deps.state.get('left')}`);
        return { outputs: {}, summary: '<p>cleaned</p>', annotations: [] };
      },
    };
    const module = {
      action: action(async (_inputs, deps) => {
        order.push('main');
        deps.state.save('left', 'job-1');
        return {
          outputs: {},
          summary: '<p>main</p>',
          annotations: [],
          failure: { kind: 'cancelled', message: 'cancelled' },
        };
      }),
      post,
    };
    expect(await runCli([command(module)], ['sample', '--summary', 's.md'], io)).toBe(1);
    expect(order).toEqual(['main', 'post job-1']);
    const summary = readFileSync(path.join(io.cwd, 's.md'), 'utf8');
    expect(summary.indexOf('<p>main</p>')).toBeLessThan(summary.indexOf('<p>cleaned</p>'));
  });

  it('a held command keeps what it started until SIGTERM, then cleans up; a failed cleanup fails it', async () => {
    const order: string[] = [];
    const post: PostDefinition = {
      title: 'Sample: cleanup',
      hasLeftRunning: (state) => state.get('left') !== '',
      readInputs,
      run: async (_inputs, deps) => {
        order.push(`post aborted=${deps.signal.aborted}`);
        return {
          outputs: {},
          summary: '',
          annotations: [],
          failure: { kind: 'service', message: 'could not stop' },
        };
      },
    };
    const module = {
      action: action(async (_inputs, deps) => {
        deps.state.save('left', 'sc');
        return { outputs: { greeting: 'up' }, summary: '', annotations: [] };
      }),
      post,
    };
    const running = runCli([command(module, { holdsWhatItStarted: true })], ['sample'], io);
    // Signalled once the command holds what it started, however long it took to get there.
    while (!err.join('').includes('Running until SIGINT'))
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(out.join('')).toBe('greeting=up\n');
    expect(order).toEqual([]);
    process.emit('SIGTERM', 'SIGTERM');
    expect(await running).toBe(1);
    expect(order).toEqual(['post aborted=false']);
    expect(err.join('')).toContain('error: could not stop');
  });
});
