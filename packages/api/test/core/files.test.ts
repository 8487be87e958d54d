import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DownloadLimitError,
  fileNameFromDisposition,
  pathInFolder,
  safeBaseName,
  writeStreamToFile,
} from '../../src/core/files/files.ts';
import { HttpTransport } from '../../src/core/transport/transport.ts';
import { startServer, stopAll } from '../support/server.ts';

let dir: string;
const transports: HttpTransport[] = [];
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sauce-api-files-'));
});
afterEach(async () => {
  await Promise.all(transports.splice(0).map((http) => http.close()));
  await stopAll();
  await rm(dir, { recursive: true, force: true });
});

describe('safeBaseName', () => {
  it.each([
    ['report.xml', 'report.xml'],
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\windows\\system.ini', 'system.ini'],
    ['..', 'download'],
    ['.', 'download'],
    [' ..', 'download'],
    ['.. ', 'download'],
    ['...hidden', 'hidden'],
    ['a/b/', 'download'],
    ['', 'download'],
    [undefined, 'download'],
    ['na\u0000me\r\n.txt', 'name.txt'],
    ['evil\u202Efdp.exe', 'evilfdp.exe'],
    ['trailing. . ', 'trailing'],
    ['video (1).mp4', 'video (1).mp4'],
  ])('%j becomes %j', (name, expected) => {
    expect(safeBaseName(name)).toBe(expected);
  });

  it.each([
    ['screenshot 12:03:01.png', 'screenshot 12_03_01.png'],
    ['report:stream', 'report_stream'],
    ['a<b>c"d|e?f*g.log', 'a_b_c_d_e_f_g.log'],
    ['C:\\logs\\selenium.log', 'selenium.log'],
    ['NUL', '_NUL'],
    ['con.txt', '_con.txt'],
    ['COM1.log', '_COM1.log'],
    ['lpt9', '_lpt9'],
    ['console.log', 'console.log'],
    ['nullable.txt', 'nullable.txt'],
    // Windows drops the spaces before the extension: still the device.
    ['nul .txt', '_nul .txt'],
    ['CON .log', '_CON .log'],
    ['com1   .txt', '_com1   .txt'],
    ['Aux . log', '_Aux . log'],
    ['nul x.txt', 'nul x.txt'],
    ['con-sole .log', 'con-sole .log'],
  ])('%j becomes %j: a name every runner OS and the artifact service accept', (name, expected) => {
    expect(safeBaseName(name)).toBe(expected);
  });

  it('writes a name with a colon as one plain file, which an artifact upload accepts', async () => {
    const result = await writeStreamToFile(Readable.from([Buffer.from('log')]), dir, 'log 10:42.txt');
    expect(path.basename(result.path)).toBe('log 10_42.txt');
    expect(await readdir(dir)).toEqual(['log 10_42.txt']);
    expect(result.path).not.toMatch(/["<>|*?\r\n]|:(?![\\/])/);
  });

  it('uses a safe fallback and caps the length by characters', () => {
    expect(safeBaseName('..', 'asset.log')).toBe('asset.log');
    expect(safeBaseName('..', '../x')).toBe('x');
    const long = safeBaseName('😀'.repeat(300));
    expect([...long]).toHaveLength(200);
    expect(long).toBe('😀'.repeat(200));
  });
});

describe('pathInFolder', () => {
  it.each(['0123456789abcdef0123456789abcdef', 'log.json', 'video (1).mp4', 'a b', 'été.txt'])(
    '%j is a plain name: the path is in the folder',
    (name) => {
      expect(pathInFolder(dir, name)).toBe(path.join(dir, name));
    },
  );

  it.each([
    'x'.repeat(199) + '.tail',
    'x'.repeat(199) + ' tail',
    'con.' + 'x'.repeat(300),
    'NUL' + '.'.repeat(300),
    '😀'.repeat(300),
    '../..\\C:..x\u0000..',
    ' . x . ',
  ])('what safeBaseName makes of %j is a plain name', (name) => {
    const base = safeBaseName(name);
    expect(pathInFolder(dir, base)).toBe(path.join(dir, base));
    expect(safeBaseName(base)).toBe(base);
    expect([...base].length).toBeLessThanOrEqual(200);
  });

  it.each([
    '',
    '.',
    '..',
    '../x',
    '../../../../home/runner/work/repo/repo',
    'a/../../b',
    'a/b',
    '/etc/passwd',
    '..\\..\\x',
    'C:\\x',
    'C:x',
    '\\\\server\\share',
    'x\u0000y',
    'x\ny',
    'evil\u202Efdp.exe',
    ' x',
    'x.',
    'x ',
    '.hidden',
    'CON',
    'nul.txt',
    'nul .txt',
    'CON .log',
    'a:b',
    'a*b',
    'x'.repeat(201),
  ])('%j is refused', (name) => {
    expect(pathInFolder(dir, name)).toBeUndefined();
  });
});

describe('fileNameFromDisposition', () => {
  it('reads plain, quoted and RFC 5987 names', () => {
    expect(fileNameFromDisposition({ 'content-disposition': 'attachment; filename="log 1.txt"' })).toBe(
      'log 1.txt',
    );
    expect(fileNameFromDisposition({ 'content-disposition': 'attachment; filename=video.mp4' })).toBe(
      'video.mp4',
    );
    expect(
      fileNameFromDisposition({ 'content-disposition': "attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf" }),
    ).toBe('résumé.pdf');
    expect(
      fileNameFromDisposition({
        'content-disposition': 'attachment; filename="a.txt"; filename*=utf-8\'en\'b%20c.txt',
      }),
    ).toBe('b c.txt');
    expect(fileNameFromDisposition({})).toBeUndefined();
  });
});

describe('writeStreamToFile', () => {
  it('writes the stream under a safe name inside the folder and counts the bytes', async () => {
    const data = randomBytes(100_000);
    const target = path.join(dir, 'out');
    const result = await writeStreamToFile(
      Readable.from([data.subarray(0, 1000), data.subarray(1000)]),
      target,
      '../../escape.bin',
    );
    expect(result).toEqual({ path: path.join(target, 'escape.bin'), bytes: data.length });
    expect(sha(await readFile(result.path))).toBe(sha(data));
    expect(await readdir(dir)).toEqual(['out']);
  });

  it('removes a partial file when the stream fails', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(10));
        this.destroy(new Error('connection lost'));
      },
    });
    await expect(writeStreamToFile(failing, dir, 'partial.bin')).rejects.toThrow('connection lost');
    expect(await readdir(dir)).toEqual([]);
  });

  it('stops at maxBytes as the bytes stream in, even when the stream never ends, and keeps no part', async () => {
    let produced = 0;
    const endless = new Readable({
      read() {
        produced += 16_384;
        this.push(Buffer.alloc(16_384));
      },
    });
    const error = await writeStreamToFile(endless, dir, 'video.mp4', { maxBytes: 100_000 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DownloadLimitError);
    expect(error).toMatchObject({ fileName: 'video.mp4', maxBytes: 100_000, announcedBytes: undefined });
    expect((error as DownloadLimitError).receivedBytes).toBeLessThanOrEqual(100_000);
    expect(endless.destroyed).toBe(true);
    expect(produced).toBeLessThan(1_000_000);
    expect(await readdir(dir)).toEqual([]);
  });

  it('keeps a file of exactly maxBytes', async () => {
    const result = await writeStreamToFile(
      Readable.from([Buffer.alloc(600), Buffer.alloc(400)]),
      dir,
      'a.log',
      {
        maxBytes: 1000,
      },
    );
    expect(result.bytes).toBe(1000);
    expect(await readdir(dir)).toEqual(['a.log']);
  });

  it('writes nothing when the announced length is over maxBytes', async () => {
    const body = Readable.from([Buffer.alloc(10)]);
    await expect(
      writeStreamToFile(body, dir, 'big.mp4', { maxBytes: 1000, announcedBytes: 5000 }),
    ).rejects.toThrow('"big.mp4" announced 5000 bytes, over its limit of 1000: not downloaded');
    expect(body.destroyed).toBe(true);
    expect(await readdir(dir)).toEqual([]);
  });

  it('writes a download read from a local server', async () => {
    const data = randomBytes(64_000);
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-disposition': 'attachment; filename="../video.mp4"' });
      response.end(data);
    });
    const http = new HttpTransport({ baseUrl: server.url, retry: { retries: 0 } });
    transports.push(http);
    const answer = await http.send<Readable>({
      operation: 'download',
      method: 'GET',
      path: '/v',
      responseType: 'stream',
    });
    const name = fileNameFromDisposition(answer.headers) ?? 'fallback';
    const result = await writeStreamToFile(answer.body, dir, name);
    expect(path.basename(result.path)).toBe('video.mp4');
    expect(sha(await readFile(result.path))).toBe(sha(data));
  });
});
