import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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

describe('sauce-emulator command', () => {
  it('prints its address, serves, and exits cleanly on SIGTERM', async () => {
    const emulator = run(['--port', '0', '--job-duration-ms', '20']);
    try {
      const line = await new Promise<string>((resolve, reject) => {
        emulator.child.stdout.on('data', () => {
          const text = emulator.output().stdout;
          if (text.includes('\n')) resolve(text.trim());
        });
        emulator.child.on('exit', () => reject(new Error(`exited early: ${emulator.output().stderr}`)));
      });
      expect(line).toMatch(/^sauce-emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
      const url = line.replace('sauce-emulator listening on ', '');
      expect((await fetch(`${url}/_emulator/health`)).status).toBe(200);
      emulator.child.kill('SIGTERM');
      expect(await emulator.exited).toBe(0);
    } finally {
      if (emulator.child.exitCode === null) emulator.child.kill('SIGKILL');
    }
  });

  it('exits 2 with a message on bad flags', async () => {
    const unknown = run(['--nope']);
    expect(await unknown.exited).toBe(2);
    expect(unknown.output().stderr).toMatch(/nope/);
    const badPort = run(['--port', 'abc']);
    expect(await badPort.exited).toBe(2);
    expect(badPort.output().stderr).toMatch(/--port/);
  });
});
