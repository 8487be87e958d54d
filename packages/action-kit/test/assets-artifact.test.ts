import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SauceClient } from '@sauce-actions/api';
import { startEmulator } from '@sauce-actions/emulator';
import { describe, expect, it } from 'vitest';
import { assetFileNames, collectJobAssets } from '../src/assets-artifact.ts';
import { recordingLogger } from '../src/logger.ts';

describe('assetFileNames', () => {
  it('takes names and lists of names, skips null', () => {
    expect(assetFileNames({ 'sauce-log': 'log.json', video: null, screenshots: ['0.png', '1.png'] })).toEqual(
      ['log.json', '0.png', '1.png'],
    );
  });
});

describe('collectJobAssets', () => {
  it('downloads the assets of the jobs from the service and hands them to the uploader', async () => {
    const emulator = await startEmulator({ port: 0, jobDurationMs: 10 });
    const client = new SauceClient({ username: 'demo', accessKey: 'demo-access-key', apiUrl: emulator.url });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'assets-'));
    try {
      const run = await client.authoring.testCases.run('65a1f0c0e4b0a1b2c3d4e501');
      const id = run.jobs[0]?.sauceJobId as string;
      await new Promise((resolve) => setTimeout(resolve, 50));
      const uploads: { name: string; files: string[]; root: string }[] = [];
      const logger = recordingLogger();
      const name = await collectJobAssets({
        assets: client.automation.assets,
        jobs: [{ id, name: 'Login works' }],
        dir,
        artifactName: 'sauce-assets',
        logger,
        artifacts: {
          upload: async (artifact, files, root) => {
            uploads.push({ name: artifact, files: [...files], root });
            return { id: 1 };
          },
        },
      });
      expect(name).toBe('sauce-assets');
      expect(uploads).toHaveLength(1);
      expect(uploads[0]?.files.length).toBeGreaterThan(0);
      expect(uploads[0]?.files.every((file) => file.startsWith(path.join(dir, id)))).toBe(true);
      expect(logger.lines().at(-1)).toContain('as artifact "sauce-assets" (id 1)');
    } finally {
      await client.close();
      await emulator.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says so, without failing, when there is no artifact service', async () => {
    const logger = recordingLogger();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'assets-'));
    try {
      const name = await collectJobAssets({
        assets: {
          list: async () => ({ 'sauce-log': 'log.json' }),
          download: async (_id, file, into) => {
            const { mkdir, writeFile } = await import('node:fs/promises');
            await mkdir(into, { recursive: true });
            await writeFile(path.join(into, file), '{}');
            return { path: path.join(into, file), bytes: 2 } as never;
          },
        },
        jobs: [{ id: 'j1', name: 'n' }],
        dir,
        artifactName: 'a',
        logger,
        artifacts: { upload: async () => undefined },
      });
      expect(name).toBeUndefined();
      expect(logger.lines().at(-1)).toContain('artifact service is not available here: 1 asset file(s)');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops at a cancellation with one warning, and sends nothing more', async () => {
    const logger = recordingLogger();
    const cancel = new AbortController();
    const listed: string[] = [];
    const dir = await mkdtemp(path.join(os.tmpdir(), 'assets-'));
    try {
      const name = await collectJobAssets({
        assets: {
          list: async (id) => {
            listed.push(id);
            // The second job's listing is where the run is cancelled.
            if (id === 'j2') cancel.abort(new Error('the run was cancelled'));
            cancel.signal.throwIfAborted();
            return {};
          },
          download: async () => {
            throw new Error('no download expected');
          },
        },
        jobs: Array.from({ length: 50 }, (_, index) => ({ id: `j${index + 1}`, name: 'n' })),
        dir,
        artifactName: 'a',
        logger,
        signal: cancel.signal,
        maxRequestsPerSecond: 0,
        artifacts: { upload: async () => ({ id: 1 }) },
      });
      expect(name).toBeUndefined();
      expect(listed).toEqual(['j1', 'j2']);
      expect(logger.lines('warning')).toEqual([
        'Stopped downloading job assets (the run was cancelled): the assets of 48 job(s) were not downloaded.',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
