/**
 * The Sauce Connect builds the emulator publishes: what the download listing
 * (`/rest/v1/public/tunnels/sauce-connect/download`) answers and the archives it points to. Tests
 * publish builds through the admin endpoint, with the checksums the listing should publish (the
 * archive's own by default, others to stand for a tampered download).
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { StoreState } from '../../shared/store-state.ts';
import type { AutomationData, SauceConnectBuildRecord } from '../model.ts';

export const SC_OSES = ['linux', 'macos', 'windows'] as const;
export const SC_ARCHES = ['x86_64', 'arm64'] as const;
export const SC_VERSION_PATTERN = '^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$';
export const SC_FILE_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$';

interface NewSauceConnectBuild {
  version: string;
  os: string;
  arch: string;
  archive: Buffer;
  fileName?: string;
  /** What the listing publishes; default the archive's sha256. */
  checksums?: { algorithm: string; value: string }[];
}

export class SauceConnectBuilds {
  readonly #state: StoreState<AutomationData>;

  constructor(state: StoreState<AutomationData>) {
    this.#state = state;
  }

  /** Where a build's archive is kept. */
  archivePath(version: string, fileName: string): string {
    return path.join(this.#state.filesDir, 'sauce-connect', version, fileName);
  }

  async publish(build: NewSauceConnectBuild): Promise<SauceConnectBuildRecord> {
    const fileName = build.fileName ?? officialFileName(build.version, build.os, build.arch);
    const file = this.archivePath(build.version, fileName);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, build.archive);
    const record: SauceConnectBuildRecord = {
      version: build.version,
      os: build.os,
      arch: build.arch,
      fileName,
      checksums: build.checksums ?? [
        { algorithm: 'sha256', value: createHash('sha256').update(build.archive).digest('hex') },
      ],
    };
    const builds = (this.#state.data.sauceConnectBuilds ??= {});
    builds[`${build.version}/${build.os}/${build.arch}`] = record;
    this.#state.changed();
    return record;
  }

  /** The build for the platform: of that version, or the newest one when no version is asked for. */
  find(os: string, arch: string, version: string | undefined): SauceConnectBuildRecord | undefined {
    const builds = this.#all().filter((build) => build.os === os && build.arch === arch);
    if (version !== undefined) return builds.find((build) => build.version === version);
    return builds.sort((a, b) => compareVersions(b.version, a.version))[0];
  }

  /** A build by its archive's address, for the download route. */
  byFile(version: string, fileName: string): SauceConnectBuildRecord | undefined {
    return this.#all().find((build) => build.version === version && build.fileName === fileName);
  }

  #all(): SauceConnectBuildRecord[] {
    return Object.values(this.#state.data.sauceConnectBuilds ?? {});
  }
}

/** The official archive's name for a version and platform (saucelabs.com/downloads/sauce-connect/). */
function officialFileName(version: string, os: string, arch: string): string {
  const base = `sauce-connect-${version}_`;
  if (os === 'linux') return `${base}linux.${arch === 'arm64' ? 'aarch64' : 'x86_64'}.tar.gz`;
  if (os === 'macos') return `${base}darwin.all.zip`;
  return `${base}windows.${arch === 'arm64' ? 'aarch64' : 'x86_64'}.zip`;
}

function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[.-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const [x, y] = [pa[i], pb[i]];
    if (x === y) continue;
    if (x === undefined) return 1;
    if (y === undefined) return -1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}
