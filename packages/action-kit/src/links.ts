/** Links to the service's pages and to the workflow run, for summaries and outputs. */
import type { MobileRegion } from '@sauce-actions/api';
import { mobileBaseUrls, trimTrailingSlash } from '@sauce-actions/api';

/** The mobile distribution web address: `api-url` when set (a gateway or the emulator), else the region's. */
export function mobileWebBase(region: MobileRegion, apiUrl?: string): string {
  return trimTrailingSlash(apiUrl ?? mobileBaseUrls(region).rest);
}

/** The dashboard page of a build, for when the service did not give one. */
export function mobileBuildUrl(base: string, projectId: string | number, buildId: string | number): string {
  return `${base}/projects/${encodeURIComponent(String(projectId))}/builds/${encodeURIComponent(String(buildId))}`;
}

/** The page where testers are invited to a build. */
export function mobileInviteUrl(base: string, projectId: string | number, buildId: string | number): string {
  return `${mobileBuildUrl(base, projectId, buildId)}/invite-testers`;
}

/** The run of the workflow that is executing, from the runner's context variables. */
export function workflowRunUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: runId } = env;
  if (!server || !repository || !runId) return undefined;
  return `${trimTrailingSlash(server)}/${repository}/actions/runs/${runId}`;
}
