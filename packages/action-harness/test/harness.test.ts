import { readFileSync, realpathSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyMasks,
  endProcesses,
  inputVariable,
  parseKeyValueFile,
  parseWorkflowCommands,
  runStep,
} from '../src/index.ts';

const echo = path.join(import.meta.dirname, 'fixtures', 'echo');
const waiter = path.join(import.meta.dirname, 'fixtures', 'waiter');
const stubborn = path.join(import.meta.dirname, 'fixtures', 'stubborn');

/** The stubborn fixture's pid and its own process's, once it has written them. */
async function pidsIn(workspace: string): Promise<number[]> {
  for (;;) {
    const text = await readFile(path.join(workspace, 'pids'), 'utf8').catch(() => '');
    if (text.endsWith('\n')) return text.trim().split(' ').map(Number);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether a process runs: a zombie, killed but not yet reaped by its parent, does not. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = (() => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return '';
    }
  })();
  return !/^\d+ \(.*\) Z/s.test(stat);
}

/** Waits until none of the processes runs: a kill takes effect, but not at once. */
async function gone(pids: number[]): Promise<void> {
  while (pids.some(isRunning)) await new Promise((resolve) => setTimeout(resolve, 20));
}

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

  it('cancels with SIGINT like the runner once the output shows a stage, then still runs pre state into the post step', async () => {
    const step = await runStep({ actionDir: waiter, cancelOn: /waiting for the cancel/ });
    try {
      expect(step.pre?.exitCode).toBe(0);
      expect(step.cancelled).toBe(true);
      expect(step.timedOut).toBe(false);
      expect(step.killed).toBe(false);
      expect(step.exitCode).toBe(1);
      expect(step.outputs).toEqual({ 'stopped-by': 'SIGINT' });
      expect(step.post?.cancelled).toBe(false);
      expect(step.post?.outputs).toEqual({ cleaned: 'tunnel-7', pre: '1' });
    } finally {
      await step.cleanup();
    }
  });

  it('cancels on an event outside the step only once the step has started, whenever the event comes', async () => {
    // Settled before the step even starts: the signal still waits for the step's first line,
    // after which its handler is in place.
    const step = await runStep({ actionDir: waiter, cancelWhen: Promise.resolve() });
    try {
      expect(step.cancelled).toBe(true);
      expect(step.exitCode).toBe(1);
      expect(step.outputs).toEqual({ 'stopped-by': 'SIGINT' });
    } finally {
      await step.cleanup();
    }
  });

  it('cancels after a time: SIGINT, caught or not depending on how far the step has come', async () => {
    const step = await runStep({ actionDir: waiter, cancelAfterMs: 200 });
    try {
      expect(step.cancelled).toBe(true);
      // Caught once the handler is in place; before, Node ends on it, maybe before saving its state.
      if (step.signal === null) {
        expect(step.outputs).toEqual({ 'stopped-by': 'SIGINT' });
        expect(step.post?.outputs).toEqual({ cleaned: 'tunnel-7', pre: '1' });
      } else {
        expect(step.signal).toBe('SIGINT');
        expect(step.post?.outputs).toMatchObject({ pre: '1' });
      }
    } finally {
      await step.cleanup();
    }
  });

  it('goes from SIGINT to SIGTERM, then kills a step deaf to both with its process group', async () => {
    const workspace = await mkdtemp(path.join(os.tmpdir(), 'harness-stubborn-'));
    try {
      const step = await runStep({
        actionDir: stubborn,
        workspace,
        cancelOn: /deaf to signals/,
        cancelGraceMs: 0,
        killGraceMs: 0,
      });
      expect(step.cancelled).toBe(true);
      expect(step.killed).toBe(true);
      expect(step.signal).toBe('SIGKILL');
      await gone(await pidsIn(workspace));
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });

  it('ends the steps still running, with their process groups, when a test ends early', async () => {
    const workspace = await mkdtemp(path.join(os.tmpdir(), 'harness-stubborn-'));
    try {
      const running = runStep({ actionDir: stubborn, workspace });
      const pids = await pidsIn(workspace);
      const ended = await endProcesses();
      expect(ended.map((process) => process.pid)).toEqual([pids[0]]);
      const step = await running;
      expect(step.signal).toBe('SIGKILL');
      expect(step.timedOut).toBe(false);
      await gone(pids);
      expect(await endProcesses()).toEqual([]);
    } finally {
      await rm(workspace, { recursive: true, force: true });
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
