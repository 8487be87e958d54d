import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loopbackCertificate } from '../support/emulator.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/sauce-emulator.js');

function run(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

/** The first line the command prints (its address), or a failure with its stderr if it exits first. */
function firstLine(command: ReturnType<typeof run>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    command.child.stdout.on('data', () => {
      const text = command.output().stdout;
      if (text.includes('\n')) resolve(text.trim());
    });
    command.child.on('exit', () => reject(new Error(`exited early: ${command.output().stderr}`)));
  });
}

describe('sauce-emulator command', () => {
  it('prints its address, serves, and exits cleanly on SIGTERM', async () => {
    const emulator = run(['--port', '0', '--job-duration-ms', '20']);
    try {
      const line = await firstLine(emulator);
      expect(line).toMatch(/^sauce-emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
      const url = line.replace('sauce-emulator listening on ', '');
      expect((await fetch(`${url}/_emulator/health`)).status).toBe(200);
      emulator.child.kill('SIGTERM');
      expect(await emulator.exited).toBe(0);
    } finally {
      if (emulator.child.exitCode === null) emulator.child.kill('SIGKILL');
    }
  });

  it('--help describes every option the command takes, and --version prints the version', async () => {
    const help = run(['--help']);
    expect(await help.exited).toBe(0);
    const { stdout } = help.output();
    // Every option of the parser, read from the source, has a line of its own under Options.
    const source = await readFile(path.resolve(path.dirname(BIN), '../src/cli.ts'), 'utf8');
    const parsed = [...source.matchAll(/^ {6}'?([a-z-]+)'?: \{ type: '(string|boolean)'/gm)].map((m) => m[1]);
    expect(parsed).toEqual(expect.arrayContaining(['host', 'port', 'seed', 'rate-limit', 'version']));
    const options = stdout.slice(stdout.indexOf('Options:'));
    for (const option of parsed) expect(options).toMatch(new RegExp(`^  (-h, )?--${option}\\b.* \\S`, 'm'));
    const version = run(['--version']);
    expect(await version.exited).toBe(0);
    const { version: expected } = JSON.parse(
      await readFile(path.resolve(path.dirname(BIN), '../package.json'), 'utf8'),
    ) as { version: string };
    expect(version.output().stdout).toBe(`sauce-emulator ${expected}\n`);
  });

  it('exits 2 with a message on bad flags', async () => {
    const unknown = run(['--nope']);
    expect(await unknown.exited).toBe(2);
    expect(unknown.output().stderr).toMatch(/nope/);
    const badPort = run(['--port', 'abc']);
    expect(await badPort.exited).toBe(2);
    expect(badPort.output().stderr).toMatch(/--port/);
    const halfTls = run(['--tls-key', 'key.pem']);
    expect(await halfTls.exited).toBe(2);
    expect(halfTls.output().stderr).toMatch(/--tls-key and --tls-cert go together/);
  });

  it('serves https with --tls-key and --tls-cert', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'emulator-tls-'));
    const pems = await loopbackCertificate();
    await writeFile(path.join(dir, 'key.pem'), pems.key);
    await writeFile(path.join(dir, 'cert.pem'), pems.cert);
    const emulator = run([
      '--port',
      '0',
      '--tls-key',
      path.join(dir, 'key.pem'),
      '--tls-cert',
      path.join(dir, 'cert.pem'),
    ]);
    try {
      const line = await firstLine(emulator);
      expect(line).toMatch(/^sauce-emulator listening on https:\/\/127\.0\.0\.1:\d+$/);
      emulator.child.kill('SIGTERM');
      expect(await emulator.exited).toBe(0);
    } finally {
      if (emulator.child.exitCode === null) emulator.child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });
});
