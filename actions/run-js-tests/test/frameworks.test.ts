/**
 * Every framework of the client's table is offered and judged end to end: named in `action.yml`
 * and the README, and judged by the emulator in its own way, passing and failing as the client
 * reads it. A framework added to the table alone fails here, naming the place still to change.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { JS_TEST_FRAMEWORKS, jsTestPassed } from '@sauce-actions/api';
import { frameworkResult } from '@sauce-actions/emulator/js-results';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FRAMEWORKS, FRAMEWORKS_TEXT } from '../src/inputs.ts';

const ACTION = path.join(import.meta.dirname, '..');

describe('the frameworks of run-js-tests', () => {
  it('are the client’s table, in its order, and the refusal names them all', () => {
    expect(FRAMEWORKS).toEqual(JS_TEST_FRAMEWORKS);
    for (const name of JS_TEST_FRAMEWORKS) expect(FRAMEWORKS_TEXT).toContain(`\`${name}\``);
  });

  it.each(JS_TEST_FRAMEWORKS)('%s is in action.yml, the README and the emulator’s judge', async (name) => {
    const metadata = parse(await readFile(path.join(ACTION, 'action.yml'), 'utf8')) as {
      inputs: { framework: { description: string } };
    };
    expect(metadata.inputs.framework.description, `add ${name} to action.yml's framework input`).toContain(
      name,
    );
    const readme = await readFile(path.join(ACTION, 'README.md'), 'utf8');
    expect(readme, `add ${name} to the README's framework row`).toContain(name);
    expect(
      jsTestPassed(name, frameworkResult(name, true)),
      `the emulator's frameworkResult knows no ${name}`,
    ).toBe(true);
    expect(jsTestPassed(name, frameworkResult(name, false))).toBe(false);
  });
});
