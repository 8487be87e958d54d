/** File paths: resolved against the workspace and checked, and the forms the runner does not read named. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathFormHint } from '../../src/index.ts';
import { errorOf, useTestReader } from './test-reader.ts';

const { read, setInput, setWorkspace } = useTestReader();

describe('filePath', () => {
  it('resolves against the workspace and checks the file', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kit-'));
    try {
      writeFileSync(path.join(dir, 'app.apk'), 'x');
      setWorkspace(dir);
      setInput('file', 'app.apk');
      expect(read.filePath('file')).toBe(path.join(dir, 'app.apk'));
      setInput('file', 'missing.apk');
      expect(errorOf(() => read.filePath('file')).message).toContain('does not exist');
      setInput('file', '.');
      expect(errorOf(() => read.filePath('file')).message).toContain('not a file');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('paths in a form the runner does not read', () => {
  it.each<[string, NodeJS.Platform, string]>([
    ['build\\app.apk', 'linux', ': \\ is not a folder separator on Linux; write "build/app.apk"'],
    ['build\\app.apk', 'darwin', ': \\ is not a folder separator on macOS; write "build/app.apk"'],
    ['build\\app.apk', 'win32', ''],
    ['C:\\x\\app.apk', 'linux', ': a drive letter (C:) is a Windows path, and this runner is Linux;'],
    ['d:/x/app.apk', 'darwin', ': a drive letter (d:) is a Windows path, and this runner is macOS;'],
    ['C:\\x\\app.apk', 'win32', ''],
    ['~/app.apk', 'linux', ': `~` is not expanded, as the runner passes inputs as written;'],
    ['~\\app.apk', 'win32', ': `~` is not expanded'],
    ['~', 'darwin', ': `~` is not expanded'],
    ['~x/app.apk', 'linux', ''],
    ['build/app.apk', 'linux', ''],
    // A network share: turned into `//server/share/…` it would name a local path.
    [
      '\\\\server\\share\\app.apk',
      'linux',
      ': \\\\… is a Windows network share (UNC path), which a Linux runner cannot open;',
    ],
    [
      '\\\\server\\share\\app.apk',
      'darwin',
      ': \\\\… is a Windows network share (UNC path), which a macOS runner cannot open;',
    ],
    ['//server/share\\app.apk', 'linux', ': //… is a Windows network share (UNC path)'],
    ['\\\\server\\share\\app.apk', 'win32', ''],
    ['//server/share/app.apk', 'linux', ''],
  ])('%s on %s', (value, platform, hint) => {
    const said = pathFormHint(value, platform);
    if (hint === '') expect(said).toBe('');
    else expect(said.startsWith(hint)).toBe(true);
  });

  it.runIf(process.platform !== 'win32').each(['build\\app.apk', 'C:\\x\\app.apk', '~/app.apk'])(
    'the refusal of %s names its form',
    (value) => {
      setInput('file', value);
      const message = errorOf(() => read.filePath('file')).message;
      expect(message).toContain('does not exist');
      expect(message).toContain(pathFormHint(value));
      expect(pathFormHint(value)).not.toBe('');
    },
  );
});

describe('a file to write, named with Windows separators on another runner', () => {
  it.runIf(process.platform !== 'win32').each<[string, string]>([
    ['reports\\junit.xml', 'write "reports/junit.xml"'],
    ['.\\out\\junit.xml', 'write "./out/junit.xml"'],
    ['C:\\reports\\junit.xml', 'a drive letter (C:) is a Windows path'],
    ['\\\\server\\share\\junit.xml', 'Windows network share (UNC path)'],
  ])('%s is refused, naming the input and the form every runner reads (%s)', (value, hint) => {
    setInput('junit-file', value);
    const message = errorOf(() => read.filePath('junit-file', { mustExist: false })).message;
    expect(message).toContain('junit-file');
    expect(message).toContain(hint);
    expect(message).toContain('with `/` between folders');
  });

  it.each(['reports/junit.xml', 'junit.xml', 'a b/junit (1).xml'])('%s is taken as it is', (value) => {
    setWorkspace(os.tmpdir());
    setInput('junit-file', value);
    expect(read.filePath('junit-file', { mustExist: false })).toBe(path.resolve(os.tmpdir(), value));
  });
});
