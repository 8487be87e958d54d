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
