import { RequestPacer } from '../../src/step/request-pacer.ts';
import { isJobFinished } from '../../src/test-run/job-status.ts';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DownloadLimitError, SauceClient, type JobAssetList } from '@sauce-actions/api';
import { startEmulator } from '@sauce-actions/emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  assetFileNames,
  collectJobAssets,
  type AssetLimit,
  type AssetSource,
} from '../../src/services/assets-artifact.ts';
import { quoteValue } from '../../src/step/input-error.ts';
import { recordingLogger } from '../../src/step/logger.ts';

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
      // Its assets are kept once it ends: waited for as the job's status, however slow the machine.
      while (!isJobFinished(await client.automation.jobs.get(id))) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      const uploads: { name: string; files: string[]; root: string }[] = [];
      const logger = recordingLogger();
      const collected = await collectJobAssets({
        assets: client.automation.assets,
        jobs: [{ id, name: 'Login works' }],
        dir,
        artifactName: 'sauce-assets',
        pacer: new RequestPacer(0),
        logger,
        artifacts: {
          upload: async (artifact, files, root) => {
            uploads.push({ name: artifact, files: [...files], root });
            return { outcome: 'uploaded', id: 1 };
          },
        },
      });
      expect(collected).toEqual({ files: uploads[0]?.files.length, artifact: 'sauce-assets' });
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
      const collected = await collectJobAssets({
        pacer: new RequestPacer(0),
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
        dirOutput: 'assets-dir',
        artifactName: 'a',
        logger,
        artifacts: { upload: async () => ({ outcome: 'unavailable', reason: 'no service here' }) },
      });
      expect(collected).toEqual({ files: 1 });
      expect(logger.lines('warning')).toEqual([
        `Could not upload 1 asset file(s) of 1 job(s) as an artifact: no service here. The files are kept in ${dir} (output \`assets-dir\`).`,
      ]);
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
      const collected = await collectJobAssets({
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
        pacer: new RequestPacer(0),
        artifacts: { upload: async () => ({ outcome: 'uploaded', id: 1 }) },
      });
      expect(collected).toEqual({ files: 0 });
      expect(listed).toEqual(['j1', 'j2']);
      expect(logger.lines('warning')).toEqual([
        'Stopped downloading job assets (the run was cancelled): the assets of 48 job(s) were not downloaded.',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** A source of the given asset lists whose downloads write `size` bytes, honouring `maxBytes` as the client does. */
function fakeSource(lists: Record<string, JobAssetList>, sizes: Record<string, number> = {}) {
  const calls: { jobId: string; fileName: string; saveAs?: string; maxBytes?: number }[] = [];
  const listed: string[] = [];
  const source: AssetSource = {
    list: async (jobId) => {
      listed.push(jobId);
      return lists[jobId] ?? {};
    },
    download: async (jobId, fileName, into, params = {}) => {
      calls.push({ jobId, fileName, ...params });
      if (fileName === 'broken.log') throw new Error('404 asset not found');
      const size = sizes[fileName] ?? 10;
      const saveAs = params.saveAs ?? fileName;
      if (params.maxBytes !== undefined && size > params.maxBytes) {
        throw new DownloadLimitError(saveAs, params.maxBytes, params.maxBytes);
      }
      await mkdir(into, { recursive: true });
      await writeFile(path.join(into, saveAs), Buffer.alloc(size));
      return { path: path.join(into, saveAs), bytes: size };
    },
  };
  return { source, calls, listed };
}

describe('collectJobAssets with names and sizes from the service', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'assets-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const collect = (source: AssetSource, jobs: string[], logger = recordingLogger(), limit?: AssetLimit) =>
    collectJobAssets({
      assets: source,
      jobs: jobs.map((id) => ({ id, name: 'n' })),
      dir,
      artifactName: 'a',
      logger,
      pacer: new RequestPacer(0),
      artifacts: { upload: async () => ({ outcome: 'uploaded' }) },
      ...(limit ? { limit } : {}),
    });

  it.each([
    '..',
    '.',
    '../../../../home/runner/work/repo/repo',
    'a/../../b',
    '/etc',
    '..\\..\\x',
    'C:\\x',
    'C:x',
    'job\u0000id',
    'CON',
    '',
    `../${'x'.repeat(5000)}`,
  ])('skips the assets of job %j, which cannot be a folder name, without asking for them', async (id) => {
    const { source, listed } = fakeSource({
      [id]: { 'sauce-log': 'log.json' },
      good: { 'sauce-log': 'log.json' },
    });
    const logger = recordingLogger();
    await collect(source, [id, 'good'], logger);
    expect(listed).toEqual(['good']);
    expect(await readdir(dir, { recursive: true })).toEqual(['good', path.join('good', 'log.json')]);
    expect(logger.lines('warning')).toEqual([
      `Skipped the assets of 1 job(s): the service answered ids that cannot be folder names (one plain name, without separator, \`..\`, drive, control character or device name): ${quoteValue(id)}.`,
    ]);
    // A name from the service is shortened in the log, whatever its length.
    expect(logger.lines('warning')[0]!.length).toBeLessThan(400);
  });

  it('gives two jobs whose ids differ only in case no shared folder', async () => {
    const { source, listed } = fakeSource({});
    const logger = recordingLogger();
    await collect(source, ['abc', 'ABC'], logger);
    expect(listed).toEqual(['abc']);
    expect(logger.lines('warning')[0]).toContain('Skipped the assets of 1 job(s)');
  });

  it('saves names that come to the same file apart, and goes on past an asset that fails', async () => {
    const { source, calls } = fakeSource({
      j1: { a: '../x.log', b: 'X.log', c: 'broken.log', d: ['sub/x.log', 'y.log'] },
    });
    const logger = recordingLogger();
    await collect(source, ['j1'], logger);
    expect(calls.map((call) => call.saveAs)).toEqual(['x.log', 'X-2.log', 'broken.log', 'x-3.log', 'y.log']);
    expect((await readdir(path.join(dir, 'j1'))).sort()).toEqual(['X-2.log', 'x-3.log', 'x.log', 'y.log']);
    expect(logger.lines('warning')).toEqual([
      'Could not download some job assets: j1/broken.log: 404 asset not found.',
    ]);
  });

  it('stops at the limit: gives each download what is left, and says what was kept, cut and skipped', async () => {
    const { source, calls, listed } = fakeSource(
      {
        j1: { log: 'log.json', video: 'video.mp4', selenium: 'selenium.log' },
        j2: { log: 'log.json' },
        j3: { log: 'log.json' },
      },
      { 'log.json': 300, 'video.mp4': 5000 },
    );
    const logger = recordingLogger();
    await collect(source, ['j1', 'j2', 'j3'], logger, { bytes: 1000, input: 'max-assets-size' });
    expect(calls.map((call) => [call.fileName, call.maxBytes])).toEqual([
      ['log.json', 1000],
      ['video.mp4', 700],
    ]);
    expect(listed).toEqual(['j1']);
    expect(logger.lines('warning')).toEqual([
      'Job assets stopped at 1 kB, the limit of `max-assets-size`: kept 300 B in 1 file(s); j1/video.mp4 (cut at the limit and removed); not downloaded: j1/selenium.log; nor the assets of 2 more job(s). Raise `max-assets-size` to keep more.',
    ]);
  });
});
