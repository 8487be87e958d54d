/**
 * A GitHub runner around a host test, set up before each test and taken down after it: the step's
 * output, summary and state files in a fresh folder, the Sauce Labs inputs of a connection that
 * goes nowhere, no secret registered, and standard output captured as the runner reads it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, vi } from 'vitest';
import { clearSecrets } from '../../src/index.ts';

export interface GitHubRunnerStub {
  /** The test's folder, holding `output`, `summary` and `state`. */
  readonly dir: string;
  /** What the step printed, chunk by chunk; emptied before each test. */
  readonly stdout: string[];
  /** One of the step's files in `dir`, as written. */
  read(name: string): string;
}

export function stubGitHubRunner(prefix: string): GitHubRunnerStub {
  let dir = '';
  const stdout: string[] = [];
  beforeEach(() => {
    clearSecrets();
    dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    for (const [variable, name] of [
      ['GITHUB_OUTPUT', 'output'],
      ['GITHUB_STEP_SUMMARY', 'summary'],
      ['GITHUB_STATE', 'state'],
    ] as const) {
      writeFileSync(path.join(dir, name), '');
      vi.stubEnv(variable, path.join(dir, name));
    }
    vi.stubEnv('INPUT_USERNAME', 'demo');
    vi.stubEnv('INPUT_ACCESS-KEY', 'the-access-key');
    vi.stubEnv('INPUT_API-URL', 'http://127.0.0.1:9');
    stdout.length = 0;
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout.push(String(chunk));
      return true;
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    process.exitCode = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    stdout,
    read: (name) => readFileSync(path.join(dir, name), 'utf8'),
  };
}
