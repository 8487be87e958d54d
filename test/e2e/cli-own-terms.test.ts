/**
 * What the built command line has of its own, end to end: `--version`, `SAUCE_API_URL` in place
 * of `--api-url`, and a reader that closes standard output early (`| head -1`, a pipe to `true`),
 * after which the command still ends with the work's status and no stack.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, MOBILE_ENV, outputLines, SAUCE_ENV, useCliTerminal } from './support/cli.ts';
import { ROOT } from './support/lab.ts';

const terminal = useCliTerminal();
const { cli, workspace } = terminal;

/** Runs the command with its standard output closed before it writes anything: every write fails with EPIPE. */
function withStdoutClosed(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: terminal.dir,
      env: { PATH: process.env.PATH ?? '', HOME: terminal.dir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('the command line of its own', () => {
  let apk: string;
  beforeAll(async () => {
    await workspace();
    apk = path.join(terminal.dir, 'app.apk');
    await createSampleApk(apk, {
      packageId: 'com.example.pipe',
      name: 'Pipe',
      version: '1.0.0',
      versionCode: 1,
    });
  });

  it("--version prints the package's version", async () => {
    const { version } = JSON.parse(
      await readFile(path.join(ROOT, 'packages', 'cli', 'package.json'), 'utf8'),
    ) as {
      version: string;
    };
    const run = await cli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`sauce-actions ${version}\n`);
  });

  it('SAUCE_API_URL is the address when --api-url is not given', async () => {
    await terminal.lab.clearJournal();
    const run = await cli(['manage-tunnel', '--operation', 'list'], {
      ...SAUCE_ENV,
      SAUCE_API_URL: terminal.lab.url,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('--api-url not given: using the environment variable SAUCE_API_URL.');
    expect(outputLines(run.stdout).tunnels).toContain('"tunnel_identifier":"demo-tunnel"');
    expect((await terminal.lab.journal()).length).toBeGreaterThan(0);
  });

  it.each([[['--help']], [['upload-build', '--help']], [['--version']], [['nope', '--json']]])(
    '%j with standard output closed: its own status, no stack',
    async (args) => {
      const run = await withStdoutClosed(args, {});
      expect(run.code).toBe(args[0] === 'nope' ? 2 : 0);
      expect(run.stderr).not.toMatch(/EPIPE|Unhandled|\n {4}at /);
    },
  );

  it('an upload with standard output closed is done, and exits 0 without a stack', async () => {
    await terminal.lab.clearJournal();
    const run = await withStdoutClosed(
      ['upload-build', '--file', apk, '--api-url', terminal.lab.url],
      MOBILE_ENV,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('Uploaded Pipe 1.0.0');
    expect(run.stderr).not.toMatch(/EPIPE|Unhandled|\n {4}at /);
    const journal = await terminal.lab.journal();
    expect(journal.some((entry) => entry.method === 'POST' && entry.status === 200)).toBe(true);
  });

  it('a run whose tests fail, with standard output closed, exits 1: the work failed', async () => {
    const run = await withStdoutClosed(
      ['run-suite-and-wait', '--suite', 'Smoke', '--poll-interval', '1s', '--api-url', terminal.lab.url],
      SAUCE_ENV,
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('1 of 3 job(s) failed');
    expect(run.stderr).not.toMatch(/EPIPE|Unhandled|\n {4}at /);
  });

  it.runIf(existsSync('/dev/full'))(
    'standard output on a full disk: said on standard error, no stack',
    () => {
      const full = openSync('/dev/full', 'w');
      try {
        const run = spawnSync(process.execPath, [CLI, '--version'], {
          cwd: terminal.dir,
          env: { PATH: process.env.PATH ?? '' },
          stdio: ['ignore', full, 'pipe'],
          encoding: 'utf8',
          timeout: 40_000,
        });
        expect(run.status).toBe(0);
        expect(run.stderr).toContain('error: standard output could not be written (ENOSPC');
        expect(run.stderr).not.toMatch(/Unhandled|\n {4}at /);
      } finally {
        closeSync(full);
      }
    },
  );
});
