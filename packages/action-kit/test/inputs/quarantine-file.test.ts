/** The quarantine file read from the workspace: a plain file in it, the default only where it exists. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readQuarantineFile } from '../../src/inputs/quarantine-file.ts';
import { InputError } from '../../src/step/input-error.ts';

const TEXT = '- case: login\n  reason: flaky\n  expires: 2026-05-01\n';
const ALLOWED =
  'the path of a YAML file in the workspace, relative to it, such as `.sauce/quarantine.yml` (the default, read where it exists)';
const canMakeFifo = process.platform !== 'win32';

let root: string;
let workspace: string;
beforeEach(() => {
  // Real paths: a temporary folder behind a link (macOS) would show another path in the refusals.
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'quarantine-')));
  workspace = path.join(root, 'workspace');
  mkdirSync(path.join(workspace, '.sauce'), { recursive: true });
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

async function refusal(input: string | undefined): Promise<string> {
  const error: unknown = await readQuarantineFile(workspace, input).then(
    () => new Error('expected a refusal'),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof InputError)) throw error;
  expect(error.input).toBe('quarantine-file');
  return error.message;
}

function message(shown: string, problem: string): string {
  return `Input "quarantine-file" names ${shown}, ${problem}. Allowed: ${ALLOWED}.`;
}

describe('the file read', () => {
  it('reads the file the input names, relative to the workspace', async () => {
    writeFileSync(path.join(workspace, 'quarantine.yaml'), TEXT);
    expect(await readQuarantineFile(workspace, ' quarantine.yaml ')).toEqual({
      file: 'quarantine.yaml',
      path: path.join(workspace, 'quarantine.yaml'),
      text: TEXT,
    });
  });

  it('reads an absolute path inside the workspace', async () => {
    writeFileSync(path.join(workspace, 'q.yml'), TEXT);
    const file = path.join(workspace, 'q.yml');
    expect((await readQuarantineFile(workspace, file))?.text).toBe(TEXT);
  });

  it('reads the default when the input is empty and the default exists', async () => {
    writeFileSync(path.join(workspace, '.sauce', 'quarantine.yml'), TEXT);
    const read = await readQuarantineFile(workspace, undefined);
    expect(read).toEqual({
      file: '.sauce/quarantine.yml',
      path: path.join(workspace, '.sauce', 'quarantine.yml'),
      text: TEXT,
    });
    expect(await readQuarantineFile(workspace, '  ')).toEqual(read);
  });

  it('gives no file when the input is empty and the default does not exist', async () => {
    expect(await readQuarantineFile(workspace, undefined)).toBeUndefined();
    rmSync(path.join(workspace, '.sauce'), { recursive: true });
    expect(await readQuarantineFile(workspace, '')).toBeUndefined();
    // `.sauce` a file: there is no `.sauce/quarantine.yml` either.
    writeFileSync(path.join(workspace, '.sauce'), 'x');
    expect(await readQuarantineFile(workspace, undefined)).toBeUndefined();
  });

  it('follows a symbolic link within the workspace', async () => {
    mkdirSync(path.join(workspace, 'shared'));
    writeFileSync(path.join(workspace, 'shared', 'quarantine.yml'), TEXT);
    symlinkSync('../shared/quarantine.yml', path.join(workspace, '.sauce', 'quarantine.yml'));
    expect(await readQuarantineFile(workspace, undefined)).toEqual({
      file: '.sauce/quarantine.yml',
      path: path.join(workspace, 'shared', 'quarantine.yml'),
      text: TEXT,
    });
  });

  it('reads a file of 1 MiB', async () => {
    const text = `${TEXT}#${'x'.repeat(2 ** 20 - TEXT.length - 1)}`;
    writeFileSync(path.join(workspace, 'q.yml'), text);
    expect((await readQuarantineFile(workspace, 'q.yml'))?.text).toBe(text);
  });
});

describe('refusals', () => {
  it('of a named file that does not exist', async () => {
    expect(await refusal('.sauce/quarantine.yaml')).toBe(
      message(
        '".sauce/quarantine.yaml"',
        `which does not exist (looked for ${path.join(workspace, '.sauce', 'quarantine.yaml')})`,
      ),
    );
  });

  it('of a named file that does not exist, with why its form may be wrong', async () => {
    if (process.platform === 'win32') return;
    expect(await refusal('.sauce\\quarantine.yml')).toContain(
      `which does not exist (looked for ${path.join(workspace, '.sauce\\quarantine.yml')}): \\ is not a folder separator`,
    );
  });

  it('of a path out of the workspace, even one that exists', async () => {
    writeFileSync(path.join(root, 'outside.yml'), TEXT);
    const outside = `which is outside the workspace (${workspace})`;
    expect(await refusal('../outside.yml')).toBe(message('"../outside.yml"', outside));
    const absolute = path.join(root, 'outside.yml');
    expect(await refusal(absolute)).toBe(message(JSON.stringify(absolute), outside));
  });

  it('of a symbolic link out of the workspace', async () => {
    writeFileSync(path.join(root, 'outside.yml'), TEXT);
    symlinkSync(path.join(root, 'outside.yml'), path.join(workspace, '.sauce', 'quarantine.yml'));
    expect(await refusal(undefined)).toBe(
      message(
        '".sauce/quarantine.yml" (the default)',
        `which leads outside the workspace, to ${path.join(root, 'outside.yml')} (through a symbolic link)`,
      ),
    );
  });

  it('of a file in a folder linked from out of the workspace', async () => {
    mkdirSync(path.join(root, 'elsewhere'));
    writeFileSync(path.join(root, 'elsewhere', 'q.yml'), TEXT);
    symlinkSync(path.join(root, 'elsewhere'), path.join(workspace, 'linked'));
    expect(await refusal('linked/q.yml')).toBe(
      message(
        '"linked/q.yml"',
        `which leads outside the workspace, to ${path.join(root, 'elsewhere', 'q.yml')} (through a symbolic link)`,
      ),
    );
  });

  it('of a symbolic link to nothing, even as the default', async () => {
    symlinkSync('missing.yml', path.join(workspace, '.sauce', 'quarantine.yml'));
    expect(await refusal(undefined)).toBe(
      message(
        '".sauce/quarantine.yml" (the default)',
        'a symbolic link to "missing.yml", which does not exist',
      ),
    );
  });

  it('of a folder, named or as the default', async () => {
    expect(await refusal('.sauce')).toBe(message('".sauce"', 'which is a folder, not a file'));
    expect(await refusal('.')).toBe(message('"."', 'which is a folder, not a file'));
    mkdirSync(path.join(workspace, '.sauce', 'quarantine.yml'));
    expect(await refusal(undefined)).toBe(
      message('".sauce/quarantine.yml" (the default)', 'which is a folder, not a file'),
    );
  });

  it.runIf(canMakeFifo)(
    'of a named pipe, at once rather than waiting for a writer',
    async () => {
      execFileSync('mkfifo', [path.join(workspace, '.sauce', 'quarantine.yml')]);
      expect(await refusal('.sauce/quarantine.yml')).toBe(
        message('".sauce/quarantine.yml"', 'which is a named pipe (FIFO), not a file'),
      );
    },
    2_000,
  );

  it.runIf(process.platform === 'linux')('of a device linked from the workspace', async () => {
    symlinkSync('/dev/zero', path.join(workspace, 'zero.yml'));
    expect(await refusal('zero.yml')).toBe(
      message('"zero.yml"', 'which leads outside the workspace, to /dev/zero (through a symbolic link)'),
    );
  });

  it('of a file over 1 MiB', async () => {
    writeFileSync(path.join(workspace, 'q.yml'), Buffer.alloc(2 ** 20 + 1, '#'));
    expect(await refusal('q.yml')).toBe(message('"q.yml"', 'which is 1.05 MB, more than 1 MiB'));
  });

  it('of a file that is not UTF-8', async () => {
    writeFileSync(path.join(workspace, 'q.yml'), Buffer.from([0x2d, 0x20, 0xff, 0xfe, 0x0a]));
    expect(await refusal('q.yml')).toBe(message('"q.yml"', 'which is not UTF-8 text'));
  });

  it('on one line, whatever the name holds', async () => {
    const said = await refusal('x\n::error::boom.yml');
    expect(said).toBe(
      message(
        '"x ::error::boom.yml"',
        `which does not exist (looked for ${JSON.stringify(path.join(workspace, 'x\n::error::boom.yml'))})`,
      ),
    );
    expect(said).not.toMatch(/\n/);
  });
});
