/**
 * What the command line leaves in the checkout (its output folder, the local debugging folder) is
 * not the project's source: git, Prettier and ESLint must all pass over it, or `npm test` fails
 * after someone has tried the command line inside the checkout. Prettier reads `.gitignore` and
 * `.prettierignore`, as its command line does by default.
 */
import path from 'node:path';
import { OUTPUT_FOLDER } from '@sauce-actions/action-kit/hosts/cli-run';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Files such runs write: a results file, Sauce Connect's log, a downloaded asset, a summary. */
const LEFT_BY_RUNS = [
  `${OUTPUT_FOLDER}/run-suite-and-wait-x7Kq2m/run-suite-and-wait-results.json`,
  `${OUTPUT_FOLDER}/manage-tunnel-a1b2c3/sauce-connect.txt`,
  `${OUTPUT_FOLDER}/run-suite-and-wait-x7Kq2m/job-assets/0/console.js`,
  `${OUTPUT_FOLDER}/summary.md`,
  '.tmp/app-release.apk.md',
];

describe('what runs leave in the checkout is ignored by the lint step', () => {
  it.each(LEFT_BY_RUNS)('.gitignore holds %s out of commits', async (file) => {
    // Prettier reads ignore files with git's own rules.
    const info = await prettier.getFileInfo(path.join(ROOT, file), {
      ignorePath: path.join(ROOT, '.gitignore'),
    });
    expect(info.ignored).toBe(true);
  });

  it.each(LEFT_BY_RUNS)('Prettier passes over %s', async (file) => {
    const info = await prettier.getFileInfo(path.join(ROOT, file), {
      ignorePath: [path.join(ROOT, '.gitignore'), path.join(ROOT, '.prettierignore')],
    });
    expect(info.ignored).toBe(true);
  });

  it.each(LEFT_BY_RUNS)('ESLint passes over %s', async (file) => {
    const eslint = new ESLint({ cwd: ROOT });
    expect(await eslint.isPathIgnored(path.join(ROOT, file))).toBe(true);
  });
});
