/**
 * CONTRIBUTING.md's sample-APK command, run as documented (`npm run sample-apk`) with whatever
 * `node` the machine has first on `PATH` (the project's own Node is not put first by hand, as a
 * contributor on Node 20 would not), writes the APK upload-build's `.env.example` uploads.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from './support/lab.ts';

let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'sample-apk-'));
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

it('the documented command writes the sample APK, on the machine’s own Node', async () => {
  const contributing = await readFile(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  expect(contributing).toMatch(/^npm run sample-apk\b/m);
  const example = await readFile(path.join(ROOT, 'actions', 'upload-build', '.env.example'), 'utf8');
  const apk = /^INPUT_FILE=(.+)$/m.exec(example)?.[1] as string;

  // Run from a folder of its own (`--prefix` names the checkout): the file is relative to it.
  const machinePath = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((entry) => !entry.includes(`${path.sep}node_modules${path.sep}`))
    .join(path.delimiter);
  const child = spawn('npm', ['--prefix', ROOT, 'run', '--silent', 'sample-apk'], {
    cwd: work,
    env: { ...process.env, PATH: machinePath },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  expect(code, output).toBe(0);

  const expected = path.join(work, 'expected.apk');
  await createSampleApk(expected, {
    packageId: 'com.example.shop',
    name: 'Demo Shop',
    version: '2.3.0',
    versionCode: 230,
  });
  expect((await readFile(path.join(work, apk))).equals(await readFile(expected))).toBe(true);
}, 60_000);
