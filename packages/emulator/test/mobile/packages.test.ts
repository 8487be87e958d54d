import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import yazl from 'yazl';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidPackageError, readPackageInfo } from '../../src/mobile/package-info.ts';
import {
  createSampleAab,
  createSampleApk,
  createSampleIpa,
  createSampleMacZip,
} from '../../src/mobile/samples.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mobile-packages-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sample = { packageId: 'org.example.app', name: 'Ünïcode App', version: '3.2.1', versionCode: 321 };

describe('package reading', () => {
  it('reads a sample APK through its binary AndroidManifest.xml', async () => {
    const file = path.join(dir, 'a.apk');
    await createSampleApk(file, sample);
    expect(await readPackageInfo(file)).toEqual({
      kind: 'apk',
      platform: 'Android',
      packageName: 'org.example.app',
      appName: 'Ünïcode App',
      appVersion: '3.2.1',
      appVersionCode: '321',
    });
  });

  it('reads a long package name (two-byte string pool lengths)', async () => {
    const file = path.join(dir, 'long.apk');
    const packageId = `org.example.${'x'.repeat(200)}`;
    await createSampleApk(file, { ...sample, packageId });
    expect((await readPackageInfo(file)).packageName).toBe(packageId);
  });

  it('reads an AAB protobuf manifest, an IPA (XML and binary plist) and a macOS zip', async () => {
    const aab = path.join(dir, 'a.aab');
    await createSampleAab(aab, sample);
    expect(await readPackageInfo(aab)).toMatchObject({
      kind: 'aab',
      platform: 'Android',
      appVersionCode: '321',
    });
    for (const binaryPlist of [false, true]) {
      const ipa = path.join(dir, `a-${binaryPlist}.ipa`);
      await createSampleIpa(ipa, { ...sample, binaryPlist });
      expect(await readPackageInfo(ipa)).toMatchObject({
        kind: 'ipa',
        platform: 'iOS',
        packageName: 'org.example.app',
        appName: 'Ünïcode App',
        appVersion: '3.2.1',
      });
    }
    const mac = path.join(dir, 'a.zip');
    await createSampleMacZip(mac, sample);
    expect(await readPackageInfo(mac)).toMatchObject({
      kind: 'macos',
      platform: 'macOS',
      appVersion: '3.2.1',
    });
  });

  it('refuses files that are not packages', async () => {
    const text = path.join(dir, 'x.apk');
    await writeFile(text, 'hello');
    await expect(readPackageInfo(text)).rejects.toBeInstanceOf(InvalidPackageError);
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('readme'), 'README.txt');
    zip.end();
    const plainZip = path.join(dir, 'plain.zip');
    await pipeline(zip.outputStream, createWriteStream(plainZip));
    await expect(readPackageInfo(plainZip)).rejects.toThrow(/no AndroidManifest/);
    const broken = new yazl.ZipFile();
    broken.addBuffer(Buffer.from('not binary xml'), 'AndroidManifest.xml');
    broken.end();
    const brokenApk = path.join(dir, 'broken.apk');
    await pipeline(broken.outputStream, createWriteStream(brokenApk));
    await expect(readPackageInfo(brokenApk)).rejects.toBeInstanceOf(InvalidPackageError);
  });

  it('pads a sample with a stored entry without changing what is read', async () => {
    const file = path.join(dir, 'padded.apk');
    await createSampleApk(file, { ...sample, padding: 3 * 1024 * 1024 + 7 });
    const { size } = await import('node:fs/promises').then((fs) => fs.stat(file));
    expect(size).toBeGreaterThan(3 * 1024 * 1024);
    expect((await readPackageInfo(file)).appVersion).toBe('3.2.1');
  });
});
