/**
 * Small, valid packages the emulator parses like real ones: for tests, the demo and trying
 * workflows offline. `padding` adds a stored (uncompressed) entry of that many bytes, streamed,
 * so that benchmarks can make a package of hundreds of megabytes without holding it in memory.
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { build as buildXmlPlist, buildBinary as buildBinaryPlist } from 'plist';
import yazl from 'yazl';
import { encodeProtoManifest } from './aab-manifest.ts';
import { ANDROID_NS, encodeBinaryXml } from './binary-xml.ts';

interface SamplePackage {
  /** Android package name or iOS/macOS bundle identifier. */
  packageId: string;
  name: string;
  /** versionName / CFBundleShortVersionString. */
  version: string;
  /** versionCode / CFBundleVersion. */
  versionCode: number;
  /** Extra bytes in a stored entry, default 0. */
  padding?: number;
}

export interface SampleIpa extends SamplePackage {
  /** Write Info.plist as a binary plist instead of XML. */
  binaryPlist?: boolean;
}

const CHUNK = Buffer.alloc(64 * 1024);

function padding(size: number): Readable {
  let left = size;
  return new Readable({
    read() {
      if (left <= 0) return this.push(null);
      const part = Math.min(left, CHUNK.length);
      left -= part;
      this.push(CHUNK.subarray(0, part));
    },
  });
}

async function writeZip(
  file: string,
  entries: [string, Buffer][],
  paddingName: string,
  paddingSize: number | undefined,
): Promise<void> {
  const zip = new yazl.ZipFile();
  const mtime = new Date('2024-01-01T00:00:00Z');
  for (const [name, data] of entries) zip.addBuffer(data, name, { mtime });
  if (paddingSize && paddingSize > 0) {
    zip.addReadStream(padding(paddingSize), paddingName, { mtime, compress: false, size: paddingSize });
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
}

/** A minimal dex header, enough for tools that only look at the file's magic. */
const DEX = Buffer.concat([Buffer.from('dex\n035\0', 'latin1'), Buffer.alloc(104)]);

export async function createSampleApk(file: string, sample: SamplePackage): Promise<void> {
  const manifest = encodeBinaryXml({
    name: 'manifest',
    attrs: [
      { android: true, name: 'versionCode', value: sample.versionCode },
      { android: true, name: 'versionName', value: sample.version },
      { android: false, name: 'package', value: sample.packageId },
    ],
    children: [
      { name: 'uses-sdk', attrs: [{ android: true, name: 'minSdkVersion', value: 24 }], children: [] },
      {
        name: 'application',
        attrs: [{ android: true, name: 'label', value: sample.name }],
        children: [
          {
            name: 'activity',
            attrs: [{ android: true, name: 'name', value: '.MainActivity' }],
            children: [],
          },
        ],
      },
    ],
  });
  await writeZip(
    file,
    [
      ['AndroidManifest.xml', manifest],
      ['classes.dex', DEX],
    ],
    'assets/padding.bin',
    sample.padding,
  );
}

export async function createSampleAab(file: string, sample: SamplePackage): Promise<void> {
  const manifest = encodeProtoManifest({
    name: 'manifest',
    attribute: [
      {
        namespaceUri: ANDROID_NS,
        name: 'versionCode',
        value: String(sample.versionCode),
        resourceId: 0x0101021b,
      },
      { namespaceUri: ANDROID_NS, name: 'versionName', value: sample.version, resourceId: 0x0101021c },
      { name: 'package', value: sample.packageId },
    ],
    child: [
      {
        element: {
          name: 'application',
          attribute: [
            { namespaceUri: ANDROID_NS, name: 'label', value: sample.name, resourceId: 0x01010001 },
          ],
        },
      },
    ],
  });
  await writeZip(
    file,
    [
      ['BundleConfig.pb', Buffer.alloc(0)],
      ['base/manifest/AndroidManifest.xml', manifest],
      ['base/dex/classes.dex', DEX],
    ],
    'base/assets/padding.bin',
    sample.padding,
  );
}

function infoPlist(sample: SamplePackage, binary: boolean): Buffer {
  const info = {
    CFBundleIdentifier: sample.packageId,
    CFBundleName: sample.name,
    CFBundleDisplayName: sample.name,
    CFBundleShortVersionString: sample.version,
    CFBundleVersion: String(sample.versionCode),
    CFBundleExecutable: bundleName(sample),
    CFBundlePackageType: 'APPL',
  };
  return binary ? Buffer.from(buildBinaryPlist(info)) : Buffer.from(buildXmlPlist(info), 'utf8');
}

function bundleName(sample: SamplePackage): string {
  return sample.name.replace(/[^A-Za-z0-9_-]/g, '') || 'App';
}

export async function createSampleIpa(file: string, sample: SampleIpa): Promise<void> {
  const app = `Payload/${bundleName(sample)}.app`;
  await writeZip(
    file,
    [
      [`${app}/Info.plist`, infoPlist(sample, sample.binaryPlist ?? false)],
      [`${app}/${bundleName(sample)}`, Buffer.from([0xcf, 0xfa, 0xed, 0xfe])],
    ],
    `${app}/padding.bin`,
    sample.padding,
  );
}

export async function createSampleMacZip(file: string, sample: SamplePackage): Promise<void> {
  const app = `${bundleName(sample)}.app/Contents`;
  await writeZip(
    file,
    [
      [`${app}/Info.plist`, infoPlist(sample, false)],
      [`${app}/MacOS/${bundleName(sample)}`, Buffer.from([0xcf, 0xfa, 0xed, 0xfe])],
    ],
    `${app}/Resources/padding.bin`,
    sample.padding,
  );
}
