/**
 * The step's one pace: the parts of a step that send at once (following, stopping, downloading)
 * take their turns from one pacer, and only the hosts make one, so that no part can pace on its own.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { RequestPacer } from '../../src/step/request-pacer.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

it('spaces the turns of every part that shares it by one gap, whichever part takes them', async () => {
  // A clock that stands still: each take sleeps until its turn, from 0.
  const sleeps: number[] = [];
  const pacer = new RequestPacer(
    5,
    () => 0,
    async (ms) => void sleeps.push(ms),
  );
  const taken = new Map<string, number>();
  const part = async (name: string, requests: number): Promise<void> => {
    for (let n = 0; n < requests; n++) {
      await pacer.take();
      taken.set(name, (taken.get(name) ?? 0) + 1);
    }
  };
  await Promise.all([part('follow', 3), part('stop', 3)]);
  expect(Object.fromEntries(taken)).toEqual({ follow: 3, stop: 3 });
  // Six turns at 5 a second, one gap apart whatever part took each (the first at once): one
  // pace, not two side by side.
  expect(sleeps.sort((a, b) => a - b)).toEqual([200, 400, 600, 800, 1000]);
  expect(pacer.count).toBe(6);
});

it('gives its turns without waiting at 0 a second', async () => {
  const sleeps: number[] = [];
  const pacer = new RequestPacer(
    0,
    () => 0,
    async (ms) => void sleeps.push(ms),
  );
  for (let n = 0; n < 10; n++) await pacer.take();
  expect(sleeps).toEqual([]);
});

it('is made only by the hosts (and the test deps): every other part takes the step pacer it is given', async () => {
  const makers: string[] = [];
  for (const top of ['packages', 'actions']) {
    for (const name of await readdir(path.join(ROOT, top))) {
      const src = path.join(ROOT, top, name, 'src');
      const entries = await readdir(src, { recursive: true, withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
        const file = path.join(entry.parentPath, entry.name);
        if ((await readFile(file, 'utf8')).includes('new RequestPacer('))
          makers.push(path.relative(ROOT, file));
      }
    }
  }
  expect(makers.sort()).toEqual([
    'packages/action-kit/src/hosts/cli-run.ts',
    'packages/action-kit/src/hosts/github-host.ts',
    'packages/action-kit/src/testing.ts',
  ]);
});
