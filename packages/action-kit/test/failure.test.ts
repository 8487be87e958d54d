import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiError, TransportError } from '@sauce-actions/api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ActionError,
  clearSecrets,
  describeFailure,
  InputError,
  registerSecret,
  runAction,
} from '../src/index.ts';
import { captureStdout } from './capture-stdout.ts';

let written: string[];

beforeEach(() => {
  clearSecrets();
  written = captureStdout();
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  process.exitCode = undefined;
});

describe('describeFailure', () => {
  it('tells input mistakes apart from service trouble', () => {
    expect(describeFailure(new InputError('file', 'is required but was empty')).kind).toBe('input');
    const refused = new ApiError({
      operation: 'inviteTesters',
      method: 'POST',
      url: '/api/1/x',
      status: 404,
    });
    expect(describeFailure(refused)).toMatchObject({ kind: 'user' });
    expect(describeFailure(refused).message).toContain('check the ids');
    const down = new ApiError({ operation: 'upload', method: 'POST', url: '/api/upload/', status: 503 });
    expect(describeFailure(down).kind).toBe('service');
    expect(describeFailure(down).message).toContain('run the job again later');
    const unreachable = new TransportError({
      operation: 'upload',
      method: 'POST',
      url: '/api/upload/',
      kind: 'connect',
      message: 'connect ECONNREFUSED',
    });
    expect(describeFailure(unreachable)).toMatchObject({ kind: 'service' });
    expect(describeFailure(unreachable).message).toContain('api-url');
    expect(describeFailure(new ActionError('Do this.', 'user')).message).toBe('Do this.');
    expect(describeFailure(new Error('boom')).kind).toBe('unexpected');
  });

  it('never repeats a registered secret', () => {
    registerSecret('s3cret-value');
    const message = describeFailure(new Error('echoed s3cret-value back')).message;
    expect(message).not.toContain('s3cret-value');
    expect(message).toContain('***');
  });
});

describe('runAction', () => {
  it('fails the step with an ::error annotation, exit code 1 and a summary', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kit-'));
    try {
      const summaryFile = path.join(dir, 'summary.md');
      writeFileSync(summaryFile, '');
      vi.stubEnv('GITHUB_STEP_SUMMARY', summaryFile);
      await runAction({ title: 'Upload build' }, async () => {
        throw new InputError('file', 'is required but was empty');
      });
      expect(process.exitCode).toBe(1);
      const log = written.join('');
      expect(log).toContain('::error::Input "file" is required but was empty.');
      expect(readFileSync(summaryFile, 'utf8')).toContain('Upload build: failed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves a successful step alone', async () => {
    let ran = false;
    await runAction({ title: 'x' }, async (signal) => {
      ran = !signal.aborted;
    });
    expect(ran).toBe(true);
    expect(process.exitCode).toBeUndefined();
    expect(written.join('')).not.toContain('::error');
  });
});
