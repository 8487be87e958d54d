import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createSampleApk } from '../../src/mobile/samples.ts';
import type { ChildMemory } from './child-emulator.ts';
import { streamUpload } from './helpers.ts';

/*
 * The emulator runs in a child process, so that what is measured is the server alone, not the
 * client streaming the file nor the test runner. The measure is the child's peak resident set
 * size, which the kernel keeps: no sampling can miss a short peak, and no collection has to run
 * at the right moment. A peak also counts garbage not yet collected, so the child runs with a
 * small young generation (`--max-semi-space-size=1`): chunks that were read and written die
 * young and are freed within a megabyte or two, and the streaming upload raises the peak by
 * about 10 MB alone, and by up to 25 MB when other tests load the machine, whatever the file's
 * size. A server that held the file whole would raise it by the file's size at least (about twice
 * that with the usual concatenation of chunks): a file of 100 MB keeps the two apart.
 */
const SIZE = 100 * 1024 * 1024;

let child: ChildProcess | undefined;
let dir: string;
let url: string;

async function memory(): Promise<ChildMemory> {
  const answer = once(child!, 'message');
  child!.send('memory');
  return (await answer)[0] as ChildMemory;
}

async function sample(name: string, padding: number): Promise<string> {
  const file = path.join(dir, `${name}.apk`);
  await createSampleApk(file, {
    packageId: `com.example.${name}`,
    name,
    version: '1.0',
    versionCode: 1,
    padding,
  });
  return file;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'large-upload-'));
  child = fork(new URL('./child-emulator.ts', import.meta.url), [], {
    execArgv: ['--max-semi-space-size=1'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [ready] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`the emulator process exited with ${code} before listening`);
    }),
  ])) as [{ url: string }];
  url = ready.url;
});

afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    if (child.connected) child.send('close');
    else child.kill();
    const timer = setTimeout(() => child?.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  child = undefined;
  await rm(dir, { recursive: true, force: true });
});

it('streams a 100 MB upload to disk without holding it in memory', async () => {
  const large = await sample('large', SIZE);
  // A small upload first, so that what any first upload costs (code compiled, parsers and
  // folders set up) is in the baseline and the difference is what the size adds.
  const small = await streamUpload({ url }, await sample('small', 1024 * 1024));
  expect(small.body).toMatchObject({ status: 'ok' });
  const before = await memory();

  const answer = await streamUpload({ url }, large);
  expect(answer.body).toMatchObject({ status: 'ok', app_version: '1.0' });
  expect(answer.body.file_size).toBe((await stat(large)).size);

  const after = await memory();
  const added = after.maxRss - before.maxRss;
  expect(added, `the emulator's peak memory rose by ${added} bytes`).toBeLessThan(SIZE / 2);
});
