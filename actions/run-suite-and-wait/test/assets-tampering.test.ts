/**
 * The bundle of run-suite-and-wait with `download-assets: all` against a tampering stand-in that
 * answers hostile job ids and asset names, and an endless asset: nothing is written outside the
 * assets folder, every name in it is one plain name, and the download stops at `max-assets-size`.
 */
import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { formatSize } from '@sauce-actions/action-kit';
import { runStep, type StepResult } from '@sauce-actions/action-harness';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GREEN_SUITE, seed, TWELVE_SUITE } from './seed.ts';
import { ENDLESS_ASSET, startTamperingService, type TamperingService } from './tampering-service.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const ACCESS_KEY = 'demo-access-key';
let emulator: RunningEmulator;
let sentinel: string;
const services: TamperingService[] = [];
const steps: StepResult[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, jobDurationMs: 300, seed: seed() });
  // The folder around the step's folders: whatever escapes the assets folder lands in it.
  sentinel = await mkdtemp(path.join(os.tmpdir(), 'assets-sentinel-'));
});
afterAll(async () => {
  await Promise.all(steps.map((step) => step.cleanup()));
  await Promise.all(services.map((service) => service.close()));
  await emulator?.close();
  await rm(sentinel, { recursive: true, force: true });
});

async function step(service: TamperingService, inputs: Record<string, string>): Promise<StepResult> {
  const result = await runStep({
    actionDir: path.join(ROOT, 'actions', 'run-suite-and-wait'),
    inputs: {
      'api-url': service.url,
      username: 'demo',
      'access-key': ACCESS_KEY,
      'poll-interval': '1s',
      'download-assets': 'all',
      'fail-on-failure': 'false',
      ...inputs,
    },
    tempDir: sentinel,
  });
  steps.push(result);
  expect(result.unmaskedLog).not.toContain(ACCESS_KEY);
  return result;
}

/** Every path under `dir`, files and folders, without following links. */
async function everything(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.map((entry) => path.join(entry.parentPath, entry.name));
}

/** Ids no job folder may take: each leaves the folder, names another drive, or is not one plain name. */
function hostileJobIds(): string[] {
  return [
    '..',
    '.',
    '../../../tamper-j3',
    'a/../../../../tamper-j4',
    '..\\..\\..\\tamper-j5',
    'C:\\tamper-j6',
    `${sentinel}/tamper-j7`,
    'tamper\u0000j8',
    'C:tamper-j9',
    '\\\\server\\share\\tamper-j10',
    'CON',
  ];
}

/** File names that leave the folder when joined as they are; `..` last, as it stops a request. */
function hostileAssets(): Record<string, string | string[]> {
  return {
    'sauce-log': 'log.json',
    'selenium-log': '../../../tamper-a1.log',
    'automator-log': 'a/../../../../tamper-a2.log',
    video: `${sentinel}/tamper-a3.mp4`,
    har: '..\\..\\..\\tamper-a4.har',
    console: 'C:\\tamper-a5.log',
    network: 'tamper\u0000a6.log',
    screenshots: ['../tamper-a7.png', 'C:tamper-a8.png', 'tamper-a7.png'],
    parent: '..',
  };
}

/** What a name may not hold in a folder that every runner OS reads back as written. */
const NOT_PLAIN = /[\\/:<>"|?*\p{Cc}]|^\.{1,2}$|^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/iu;

describe('run-suite-and-wait bundle: paths from the service', () => {
  it('writes nothing outside the assets folder, whatever job ids and asset names the service answers', async () => {
    const hostile = hostileJobIds();
    const service = await startTamperingService({
      upstream: emulator.url,
      jobIds: hostile,
      assets: (jobId) => (hostile.includes(jobId) ? { 'sauce-log': 'tamper-job-file.log' } : hostileAssets()),
    });
    services.push(service);
    const result = await step(service, { suite: TWELVE_SUITE });
    expect(result.success, result.log).toBe(true);
    expect(result.outputs.total).toBe('12');

    const assetsDir = path.join(result.runnerTemp, 'sauce-job-assets');
    const all = await everything(sentinel);
    // Every name the stand-in gave holds `tamper` (or is `log.json`): none may be outside.
    const outside = all.filter(
      (file) => /tamper|^log\.json$/.test(path.basename(file)) && !file.startsWith(assetsDir + path.sep),
    );
    expect(outside).toEqual([]);

    // Inside: one folder per job, each holding files only, every name plain.
    const inside = (await everything(assetsDir)).map((file) => path.relative(assetsDir, file));
    expect(inside.length).toBeGreaterThan(0);
    for (const entry of inside) {
      expect(entry.split(path.sep).length, entry).toBeLessThanOrEqual(2);
      for (const part of entry.split(path.sep)) expect(part, entry).not.toMatch(NOT_PLAIN);
    }
    // The job with a plain id keeps every asset whose name could be reduced to a plain one.
    const jobFolders = inside.filter((entry) => !entry.includes(path.sep));
    expect(jobFolders).toHaveLength(1);
    const files = inside.filter((entry) => entry.includes(path.sep)).map((entry) => path.basename(entry));
    expect(files.sort()).toEqual(
      [
        'log.json',
        'tamper-a1.log',
        'tamper-a2.log',
        'tamper-a3.mp4',
        'tamper-a4.har',
        'tamper-a5.log',
        'tampera6.log',
        'tamper-a7.png',
        'tamper-a7-2.png',
        'C_tamper-a8.png',
      ].sort(),
    );

    // The refused jobs' assets were not even asked for, and one warning names them all.
    const asked = new Set(service.assetRequests.map((request) => request.jobId));
    expect(hostile.filter((id) => asked.has(id))).toEqual([]);
    const refusal = result.annotations.find(
      (annotation) => annotation.level === 'warning' && annotation.message.includes('cannot be folder names'),
    );
    expect(refusal?.message).toContain('11 job(s)');
    expect(refusal?.message).toContain(JSON.stringify('../../../tamper-j3'));
    // One warning for the refused jobs and one for the asset that cannot be asked for (`..`).
    const assetWarnings = result.annotations
      .filter((annotation) => annotation.level === 'warning')
      .map((annotation) => annotation.message)
      .filter((message) =>
        /^(Skipped the assets|Could not download some job assets|Job assets)/.test(message),
      );
    expect(assetWarnings).toHaveLength(2);
    expect(assetWarnings[1]).toMatch(/^Could not download some job assets: [0-9a-f]{32}\/asset \("\.\."\): /);
  });

  it('stops at max-assets-size, even inside one endless asset, and says what was kept, cut and skipped', async () => {
    const service = await startTamperingService({
      upstream: emulator.url,
      assets: () => ({ 'sauce-log': 'log.json', video: ENDLESS_ASSET, 'selenium-log': 'after.log' }),
    });
    services.push(service);
    const started = Date.now();
    const result = await step(service, { suite: GREEN_SUITE, 'max-assets-size': '1MB' });
    const seconds = (Date.now() - started) / 1000;
    expect(result.success, result.log).toBe(true);

    const assetsDir = path.join(result.runnerTemp, 'sauce-job-assets');
    const files = (await readdir(assetsDir, { recursive: true, withFileTypes: true })).filter((entry) =>
      entry.isFile(),
    );
    let kept = 0;
    for (const file of files) kept += (await lstat(path.join(file.parentPath, file.name))).size;
    expect(kept).toBeLessThanOrEqual(1_000_000);
    // The cut file is removed, not left looking whole; what came after it is not downloaded.
    expect(files.map((file) => file.name)).toEqual(['log.json']);
    const warning = result.annotations.find(
      (annotation) => annotation.level === 'warning' && annotation.message.includes('max-assets-size'),
    );
    expect(warning?.message).toContain('Job assets stopped at 1 MB, the limit of `max-assets-size`');
    expect(warning?.message).toContain(`kept ${formatSize(kept)} in 1 file(s)`);
    expect(warning?.message).toContain(`/${ENDLESS_ASSET} (cut at the limit and removed)`);
    expect(warning?.message).toMatch(/not downloaded: [0-9a-f]{32}\/after\.log/);
    expect(warning?.message).toContain('nor the assets of 2 more job(s)');
    // The endless answer was closed at the limit: what was sent is the limit and the sockets' buffers.
    expect(service.endlessBytesSent()).toBeLessThan(16 * 1024 * 1024);
    expect(service.assetRequests.filter((request) => request.file === ENDLESS_ASSET)).toHaveLength(1);
    expect(seconds).toBeLessThan(20);
  });
});
