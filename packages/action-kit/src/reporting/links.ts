/** Links to the service's pages, for summaries and outputs, where the service gave none. */
import { mobileBaseUrls, type MobileRegion } from '@sauce-actions/api';

/** The mobile distribution web address: `api-url` when set (a gateway or the emulator), else the region's. */
export function mobileWebBase(region: MobileRegion, apiUrl?: string): string {
  return (apiUrl ?? mobileBaseUrls(region).rest).replace(/\/+$/, '');
}

/** The dashboard page of a build, for when the service did not give one. */
export function mobileBuildUrl(base: string, projectId: string | number, buildId: string | number): string {
  return `${base}/projects/${encodeURIComponent(String(projectId))}/builds/${encodeURIComponent(String(buildId))}`;
}

/** The page where testers are invited to a build. */
export function mobileInviteUrl(base: string, projectId: string | number, buildId: string | number): string {
  return `${mobileBuildUrl(base, projectId, buildId)}/invite-testers`;
}

/** A build a run's jobs ran in, with a page that shows it when one is known. */
export interface RunBuild {
  name: string;
  /** The dashboard page of the build's first job, which names its build; absent when none is known. */
  url?: string;
}

/**
 * Every build a run used, each once, in the order first named: those the starts answered, then
 * any other that its jobs report. The service makes build names unique (`X`, `X - 1`, …), so a run
 * that starts cases one by one has a build per case. The dashboard's build pages are addressed by
 * an id the job records do not carry: the link is the page of the build's first job.
 */
export function runBuilds(
  started: readonly string[],
  jobs: readonly { build?: string | null | undefined; url?: string | undefined }[],
): RunBuild[] {
  const builds = new Map<string, RunBuild>();
  for (const name of started) if (name !== '' && !builds.has(name)) builds.set(name, { name });
  for (const job of jobs) {
    if (typeof job.build !== 'string' || job.build === '') continue;
    const build = builds.get(job.build) ?? { name: job.build };
    if (build.url === undefined && job.url) build.url = job.url;
    builds.set(job.build, build);
  }
  return [...builds.values()];
}
