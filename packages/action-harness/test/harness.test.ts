import { realpathSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyMasks,
  inputVariable,
  parseKeyValueFile,
  parseWorkflowCommands,
  runStep,
} from '../src/index.ts';

const echo = path.join(import.meta.dirname, 'fixtures', 'echo');
const waiter = path.join(import.meta.dirname, 'fixtures', 'waiter');

describe('inputVariable', () => {
  it('upper-cases, turns spaces into _ and keeps hyphens', () => {
    expect(inputVariable('api-key')).toBe('INPUT_API-KEY');
    expect(inputVariable('multi word')).toBe('INPUT_MULTI_WORD');
  });
});

describe('parseKeyValueFile', () => {
  it('reads both forms', () => {
    expect(parseKeyValueFile('a=1\nb<<EOF\nx\ny=z\nEOF\nc=\n')).toEqual({ a: '1', b: 'x\ny=z', c: '' });
    expect(() => parseKeyValueFile('b<<EOF\nnever closed\n')).toThrow(/never closes/);
  });
});

describe('parseWorkflowCommands', () => {
  it('reads annotations and masks', () => {
    const parsed = parseWorkflowCommands(
      '::add-mask::s3cr3t\nuse s3cr3t\n::error title=Bad%2C really::a%0Ab\n',
    );
    expect(parsed.masks).toEqual(['s3cr3t']);
    expect(parsed.log).toBe('use ***\n::error title=Bad%2C really::a%0Ab\n');
    expect(parsed.unmasked).toContain('use s3cr3t');
    expect(parsed.annotations).toEqual([
      { level: 'error', message: 'a\nb', properties: { title: 'Bad, really' } },
    ]);
    expect(applyMasks('aa-aaa', ['aa', 'aaa'])).toBe('***-***');
  });

  it('turns commands off after stop-commands until its token, as the runner does', () => {
    const parsed = parseWorkflowCommands(
      [
        '::error::before',
        '::stop-commands::tok',
        '::error::while stopped',
        '::add-mask::hidden',
        '##[warning]while stopped',
        '::TOK::',
        '::error::after',
        '::tok::',
      ].join('\n'),
    );
    expect(parsed.annotations.map((a) => a.message)).toEqual(['before', 'after']);
    expect(parsed.masks).toEqual([]);
    expect(parsed.commands.map((c) => c.name)).toEqual(['error', 'stop-commands', 'tok', 'error']);
    expect(parsed.log).toContain('::error::while stopped');
    expect(parsed.log).toContain('::add-mask::hidden');
  });

  it('never resumes after stop-commands with an empty token', () => {
    const parsed = parseWorkflowCommands('::stop-commands::\n::::\n::error::lost\n');
    expect(parsed.annotations).toEqual([]);
  });

  it.each([
    ['leading white space', '  \t\u00a0::error::x', 'error'],
    ['a name in capitals', '::ERROR::x', 'error'],
    ['a line ended by a lone carriage return', 'progress\r::error::x', 'error'],
    ['the older form anywhere in a line', 'Job "a ##[error]x" failed', 'error'],
    ['an add-mask in the older form', 'name ##[add-mask]passed', 'add-mask'],
    ['a stop in the older form', 'x ##[stop-commands]tok', 'stop-commands'],
  ])('reads a command in %s', (_what, line, name) => {
    expect(parseWorkflowCommands(`${line}\n`).commands.map((c) => c.name)).toEqual([name]);
  });

  it.each([
    ['text before the colons', 'x ::error::x'],
    ['a name the runner does not know', '::made-up::x'],
    ['no second pair of colons', '::error x'],
    ['a broken older form', 'a ## [error]x'],
    ['a zero-width space first', '\u200b::error::x'],
  ])('reads no command in %s', (_what, line) => {
    expect(parseWorkflowCommands(`${line}\n`).commands).toEqual([]);
  });
});

describe('runStep', () => {
  it('runs main then post as the runner does', async () => {
    const step = await runStep({
      actionDir: echo,
      inputs: { greeting: 'bonjour' },
      env: { SAUCE_APPDIST_API_KEY: 'from-env' },
    });
    try {
      expect(step.exitCode).toBe(0);
      expect(step.success).toBe(true);
      expect(step.outputs).toMatchObject({
        greeting: 'bonjour',
        lines: 'first\nsecond=2',
        space: '42',
        where: `${step.workspace}/out`,
        'secret-fallback': 'from-env',
      });
      expect(realpathSync(step.outputs.cwd!)).toBe(realpathSync(step.workspace));
      expect(step.state).toEqual({ started: 'yes' });
      expect(step.summary).toBe('## bonjour\n');
      expect(step.masks).toEqual(['hidden-value']);
      expect(step.log).toContain('printing ***');
      expect(step.unmaskedLog).toContain('printing hidden-value');
      expect(step.annotations).toEqual([
        { level: 'warning', message: 'careful\nnext line', properties: { file: 'a.ts', line: '3' } },
      ]);
      expect(step.post?.exitCode).toBe(0);
      expect(step.post?.outputs).toEqual({ state: 'yes' });
      expect(step.post?.stdout).toContain('post ran');
    } finally {
      await step.cleanup();
    }
  });

  it('reads a failure back', async () => {
    const step = await runStep({ actionDir: echo, inputs: { fail: 'true' } });
    try {
      expect(step.exitCode).toBe(1);
      expect(step.success).toBe(false);
      expect(step.annotations.filter((a) => a.level === 'error')).toEqual([
        { level: 'error', message: 'it failed: 100%', properties: {} },
      ]);
      expect(step.post?.exitCode).toBe(0);
    } finally {
      await step.cleanup();
    }
  });

  it('refuses inputs that action.yml does not declare', async () => {
    await expect(runStep({ actionDir: echo, inputs: { greting: 'typo' } })).rejects.toThrow(
      /unexpected input\(s\) greting/,
    );
  });

  it('cancels with SIGINT like the runner, then still runs pre state into the post step', async () => {
    // After the fixture has caught SIGINT: a signal before that ends the process outright, and Node
    // may take a second to start on a loaded machine.
    const step = await runStep({ actionDir: waiter, cancelAfterMs: 1500, cancelGraceMs: 2000 });
    try {
      expect(step.pre?.exitCode).toBe(0);
      expect(step.cancelled).toBe(true);
      expect(step.exitCode).toBe(1);
      expect(step.outputs).toEqual({ 'stopped-by': 'SIGINT' });
      expect(step.post?.cancelled).toBe(false);
      expect(step.post?.outputs).toEqual({ cleaned: 'tunnel-7', pre: '1' });
    } finally {
      await step.cleanup();
    }
  });

  it('cancels as soon as the output shows a stage, with the signal asked for', async () => {
    const started = performance.now();
    const step = await runStep({
      actionDir: waiter,
      cancelOn: /waiting for the cancel/,
      cancelAfterMs: 20_000,
    });
    try {
      expect(step.cancelled).toBe(true);
      expect(step.outputs).toEqual({ 'stopped-by': 'SIGINT' });
      expect(performance.now() - started).toBeLessThan(15_000);
    } finally {
      await step.cleanup();
    }
  });

  it('kills the main phase outright with SIGKILL, and the post phase still gets its state', async () => {
    const step = await runStep({ actionDir: waiter, cancelOn: /waiting/, cancelSignal: 'SIGKILL' });
    try {
      expect(step.signal).toBe('SIGKILL');
      expect(step.outputs).toEqual({});
      expect(step.post?.outputs).toEqual({ cleaned: 'tunnel-7', pre: '1' });
    } finally {
      await step.cleanup();
    }
  });
});
