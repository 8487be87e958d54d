/** The committed bundles are what the sources build to: a fresh build must match them byte for byte. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS_DIR, actionNames, buildActions, ROOT } from '../scripts/build-actions.ts';

const names = await actionNames();
let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(path.join(os.tmpdir(), 'bundles-'));
  await buildActions({ outDir });
}, 60_000);

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

describe('committed bundles', () => {
  it('exist for every action', () => {
    expect(names).toEqual(expect.arrayContaining(['upload-build']));
  });

  it.each(names)(
    '%s/dist matches a fresh build (run `npm run build` after changing sources)',
    async (name) => {
      for (const file of ['index.js', 'package.json']) {
        const committed = await readFile(path.join(ACTIONS_DIR, name, 'dist', file), 'utf8');
        const fresh = await readFile(path.join(outDir, name, 'dist', file), 'utf8');
        expect(fresh === committed, `${name}/dist/${file} is stale`).toBe(true);
      }
    },
  );

  it.each(names)('%s/dist/index.js starts the ESM way with require defined', async (name) => {
    const bundle = await readFile(path.join(ACTIONS_DIR, name, 'dist', 'index.js'), 'utf8');
    expect(bundle.startsWith("import { createRequire as __sauceCreateRequire } from 'node:module';")).toBe(
      true,
    );
    // Paths of the machine that built it would make the bundle differ from one checkout to another.
    expect(bundle).not.toContain(ROOT);
  });
});
