import { stat } from 'node:fs/promises';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createSampleApk } from '../../src/mobile/samples.ts';
import { start, streamUpload, type Harness } from './helpers.ts';

let h: Harness;
beforeEach(async () => {
  h = await start();
});
afterEach(async () => {
  await h.close();
});

// Collecting before each sample measures what is held, not garbage that a collection would free.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function used(): number {
  gc();
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
}

it('streams a 50 MB upload to disk without holding it in memory', async () => {
  const size = 50 * 1024 * 1024;
  const file = path.join(h.dir, 'large.apk');
  await createSampleApk(file, {
    packageId: 'com.example.large',
    name: 'Large',
    version: '1.0',
    versionCode: 1,
    padding: size,
  });
  const baseline = used();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, used());
  }, 250);
  try {
    const answer = await streamUpload(h, file);
    expect(answer.body).toMatchObject({ status: 'ok', app_version: '1.0' });
    expect(answer.body.file_size).toBe((await stat(file)).size);
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, used());
  // Client and emulator share this process and both stream: what is held stays well below the file's size.
  expect(peak - baseline, `held ${peak - baseline} bytes`).toBeLessThan(size / 2);
}, 60_000);
