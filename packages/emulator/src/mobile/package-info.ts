/**
 * Reads what the service extracts from an uploaded package: app name, version, version code,
 * package id and platform.
 *
 * - APK: the binary AndroidManifest.xml, read with adbkit-apkreader's manifest parser. A label
 *   that is a resource reference would need resources.arsc; the emulator then falls back to
 *   the upload's app_name, else the package id.
 * - AAB: the protobuf manifest at base/manifest/AndroidManifest.xml (platform Android).
 * - IPA: Payload/<name>.app/Info.plist, XML or binary.
 * - macOS ZIP: <name>.app/Contents/Info.plist (platform macOS), the shallowest bundle found.
 */
import ManifestParser from '@devicefarmer/adbkit-apkreader/lib/apkreader/parser/manifest.js';
import { parse as parseXmlPlist, parseBinary as parseBinaryPlist } from 'plist';
import { attributeValue, decodeProtoManifest } from './aab-manifest.ts';
import { readZip } from './zip.ts';

export interface PackageInfo {
  kind: 'apk' | 'aab' | 'ipa' | 'macos';
  platform: 'Android' | 'iOS' | 'macOS';
  packageName: string;
  /** undefined when the package does not name itself in plain text. */
  appName: string | undefined;
  appVersion: string;
  appVersionCode: string;
}

export class InvalidPackageError extends Error {}

const APK_MANIFEST = 'AndroidManifest.xml';
const AAB_MANIFEST = 'base/manifest/AndroidManifest.xml';
const IPA_PLIST = /^Payload\/[^/]+\.app\/Info\.plist$/;
const MAC_PLIST = /(^|\/)[^/]+\.app\/Contents\/Info\.plist$/;

export async function readPackageInfo(file: string): Promise<PackageInfo> {
  let zip;
  try {
    zip = await readZip(
      file,
      (name) =>
        name === APK_MANIFEST || name === AAB_MANIFEST || IPA_PLIST.test(name) || MAC_PLIST.test(name),
    );
  } catch {
    throw new InvalidPackageError('not a zip archive');
  }
  try {
    const apk = zip.entries.get(APK_MANIFEST);
    if (apk) return apkInfo(apk);
    const aab = zip.entries.get(AAB_MANIFEST);
    if (aab) return aabInfo(aab);
    const ipa = [...zip.entries].find(([name]) => IPA_PLIST.test(name));
    if (ipa) return plistInfo('ipa', ipa[1]);
    const mac = [...zip.entries]
      .filter(([name]) => MAC_PLIST.test(name))
      .sort(([a], [b]) => a.split('/').length - b.split('/').length)[0];
    if (mac) return plistInfo('macos', mac[1]);
  } catch (error) {
    if (error instanceof InvalidPackageError) throw error;
    throw new InvalidPackageError(`unreadable manifest: ${(error as Error).message}`);
  }
  throw new InvalidPackageError('no AndroidManifest.xml or Info.plist found');
}

function required(value: unknown, what: string): string {
  if (value === undefined || value === null || value === '')
    throw new InvalidPackageError(`the manifest has no ${what}`);
  return String(value);
}

function plainLabel(label: unknown): string | undefined {
  return typeof label === 'string' && label && !label.startsWith('resourceId:') ? label : undefined;
}

function apkInfo(bytes: Buffer): PackageInfo {
  const manifest = new ManifestParser(bytes).parse();
  return {
    kind: 'apk',
    platform: 'Android',
    packageName: required(manifest.package, 'package'),
    appName: plainLabel(manifest.application?.label),
    appVersion: required(manifest.versionName, 'versionName'),
    appVersionCode: required(manifest.versionCode, 'versionCode'),
  };
}

function aabInfo(bytes: Buffer): PackageInfo {
  const manifest = decodeProtoManifest(bytes);
  const application = manifest.child?.find((node) => node.element?.name === 'application')?.element;
  return {
    kind: 'aab',
    platform: 'Android',
    packageName: required(attributeValue(manifest, 'package'), 'package'),
    appName: plainLabel(attributeValue(application, 'label')),
    appVersion: required(attributeValue(manifest, 'versionName'), 'versionName'),
    appVersionCode: required(attributeValue(manifest, 'versionCode'), 'versionCode'),
  };
}

function plistInfo(kind: 'ipa' | 'macos', bytes: Buffer): PackageInfo {
  const isBinary = bytes.subarray(0, 6).toString('latin1') === 'bplist';
  const info = (isBinary ? parseBinaryPlist(bytes) : parseXmlPlist(bytes.toString('utf8'))) as Record<
    string,
    unknown
  >;
  if (!info || typeof info !== 'object') throw new InvalidPackageError('Info.plist is not a dictionary');
  const name = info.CFBundleDisplayName ?? info.CFBundleName;
  return {
    kind,
    platform: kind === 'ipa' ? 'iOS' : 'macOS',
    packageName: required(info.CFBundleIdentifier, 'CFBundleIdentifier'),
    appName: typeof name === 'string' && name ? name : undefined,
    appVersion: required(
      info.CFBundleShortVersionString ?? info.CFBundleVersion,
      'CFBundleShortVersionString',
    ),
    appVersionCode: required(info.CFBundleVersion ?? info.CFBundleShortVersionString, 'CFBundleVersion'),
  };
}
