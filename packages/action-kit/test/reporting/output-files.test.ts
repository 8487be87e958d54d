/** Output files: checked before a run, written without Node's recursive mkdir. */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  checkOutputFile,
  checkOutputFiles,
  ensureFolder,
  writeOutputFile,
} from '../../src/reporting/output-files.ts';
import { ActionError } from '../../src/step/failure.ts';
import { InputError } from '../../src/step/input-error.ts';
import { writeResultsFile } from '../../src/test-run/job-report.ts';
import { writeJUnitFile } from '../../src/test-run/junit.ts';

/** A folder that exists but refuses every new child with ENOENT: Node's recursive mkdir loops forever under it. */
const REFUSING = '/proc/no-such-process-folder';
const onLinux = process.platform === 'linux';
const canMakeFifo = process.platform !== 'win32';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'output-files-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('ensureFolder and writeOutputFile', () => {
  it('makes every missing level and writes the file', async () => {
    const file = path.join(dir, 'a', 'b', 'c', 'out.txt');
    await writeOutputFile(file, 'hello');
    expect(readFileSync(file, 'utf8')).toBe('hello');
    // A folder that is already there is fine.
    await ensureFolder(path.join(dir, 'a', 'b'));
  });

  it('refuses a path under a file, naming it', async () => {
    writeFileSync(path.join(dir, 'plain'), 'x');
    await expect(ensureFolder(path.join(dir, 'plain', 'sub'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it.runIf(onLinux)(
    'fails at once under a folder that refuses children, where recursive mkdir spins forever',
    async () => {
      const started = Date.now();
      await expect(ensureFolder(`${REFUSING}/deeper`)).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(writeJUnitFile(`${REFUSING}/y.xml`, [{ name: 's', cases: [] }])).rejects.toMatchObject({
        code: 'ENOENT',
      });
      await expect(writeResultsFile(`${REFUSING}/r.json`, {})).rejects.toMatchObject({ code: 'ENOENT' });
      expect(Date.now() - started).toBeLessThan(2000);
    },
    5000,
  );
});

describe('checkOutputFile', () => {
  it('accepts a writable path: makes its folder, leaves no file behind', async () => {
    const file = path.join(dir, 'reports', 'junit.xml');
    await checkOutputFile(file, { input: 'junit-file' });
    expect(readdirSync(path.join(dir, 'reports'))).toEqual([]);
  });

  it('leaves an existing file as it was', async () => {
    const file = path.join(dir, 'kept.xml');
    writeFileSync(file, 'old report');
    await checkOutputFile(file, { input: 'junit-file' });
    expect(readFileSync(file, 'utf8')).toBe('old report');
  });

  it('refuses a folder by the input that names it', async () => {
    mkdirSync(path.join(dir, 'reports'));
    const error = await checkOutputFile(path.join(dir, 'reports'), { input: 'junit-file' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).input).toBe('junit-file');
    expect((error as InputError).message).toContain('which is a folder');
  });

  it('refuses a path under a file', async () => {
    writeFileSync(path.join(dir, 'plain'), 'x');
    const error = await checkOutputFile(path.join(dir, 'plain', 'junit.xml'), { input: 'junit-file' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toContain('cannot be written');
    expect((error as InputError).message).toContain(`${path.join(dir, 'plain')} is not a folder`);
  });

  it.runIf(onLinux)(
    'refuses a place where no folder can be made, at once',
    async () => {
      const error = await checkOutputFile(`${REFUSING}/y.xml`, { input: 'junit-file' }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).message).toContain(
        `Input "junit-file" names "${REFUSING}/y.xml", which cannot be written: ${REFUSING} cannot be created there`,
      );
    },
    5000,
  );

  it.skipIf(process.getuid?.() === 0)('refuses a folder it may not write in', async () => {
    const locked = path.join(dir, 'locked');
    mkdirSync(locked, { mode: 0o500 });
    const error = await checkOutputFile(path.join(locked, 'junit.xml'), { input: 'junit-file' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toContain('permission denied');
  });

  it('words a file the step names itself as an ActionError of kind input, with the fix', async () => {
    mkdirSync(path.join(dir, 'results.json'));
    const error = await checkOutputFiles([
      { file: path.join(dir, 'ok.xml'), owner: { input: 'junit-file' } },
      {
        file: path.join(dir, 'results.json'),
        owner: { what: 'The results file', fix: 'Check that RUNNER_TEMP is a writable folder.' },
      },
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActionError);
    expect(error).toMatchObject({
      kind: 'input',
      message: `The results file ${path.join(dir, 'results.json')} is a folder. Check that RUNNER_TEMP is a writable folder.`,
    });
  });
});

describe('files that are not plain files', () => {
  const fifo = (at: string): string => {
    execFileSync('mkfifo', [at]);
    return at;
  };
  const refusalOf = async (file: string): Promise<InputError> => {
    const error = await checkOutputFile(file, { input: 'junit-file' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  };

  it.runIf(canMakeFifo)('refuses a named pipe at once, where opening it would wait forever', async () => {
    const started = Date.now();
    const error = await refusalOf(fifo(path.join(dir, 'junit.xml')));
    expect(error.input).toBe('junit-file');
    expect(error.message).toContain('which is a named pipe (FIFO)');
    expect(error.message).toContain('not a symbolic link, a pipe or a device');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it.each([
    ['a link to a file outside', (outside: string) => outside],
    ['a dangling link', (outside: string) => `${outside}.missing`],
  ])('refuses %s, and leaves its target alone', async (_what, targetOf) => {
    const outside = path.join(mkdtempSync(path.join(os.tmpdir(), 'outside-')), 'victim.txt');
    writeFileSync(outside, 'precious');
    const link = path.join(dir, 'junit.xml');
    symlinkSync(targetOf(outside), link);
    try {
      const error = await refusalOf(link);
      expect(error.message).toContain(`which is a symbolic link (to ${targetOf(outside)})`);
      expect(readFileSync(outside, 'utf8')).toBe('precious');
      expect(existsSync(`${outside}.missing`)).toBe(false);
    } finally {
      rmSync(path.dirname(outside), { recursive: true, force: true });
    }
  });

  it.runIf(existsSync('/dev/null'))('refuses a device', async () => {
    expect((await refusalOf('/dev/null')).message).toContain('which is a device, not a file');
  });

  it('writes over a link put in place after the check instead of through it', async () => {
    const outside = path.join(mkdtempSync(path.join(os.tmpdir(), 'outside-')), 'victim.txt');
    writeFileSync(outside, 'precious');
    const file = path.join(dir, 'junit.xml');
    try {
      await checkOutputFile(file, { input: 'junit-file' });
      symlinkSync(outside, file);
      await writeOutputFile(file, '<testsuites/>');
      expect(lstatSync(file).isFile()).toBe(true);
      expect(readFileSync(file, 'utf8')).toBe('<testsuites/>');
      expect(readFileSync(outside, 'utf8')).toBe('precious');
      expect(readdirSync(dir)).toEqual(['junit.xml']);
    } finally {
      rmSync(path.dirname(outside), { recursive: true, force: true });
    }
  });

  it.runIf(canMakeFifo)(
    'writes over a named pipe put in place after the check, without waiting',
    async () => {
      const file = path.join(dir, 'results.json');
      await checkOutputFile(file, { input: 'junit-file' });
      fifo(file);
      await writeResultsFile(file, { ok: true });
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ ok: true });
    },
  );
});
