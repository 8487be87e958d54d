/**
 * The runner's artifact service, through `@actions/artifact`, whose client is large: it loads on
 * first use. What the step can act on comes back as an answer: no service here (GitHub
 * Enterprise Server, a step without the runner's runtime token), or a name the run has already.
 */
import type { Artifacts, ArtifactUpload } from '../deps.ts';

type Env = Readonly<Record<string, string | undefined>>;

export function githubArtifacts(env: Env): Artifacts {
  return {
    async upload(name, files, rootDirectory, options = {}) {
      const missing = missingService(env);
      if (missing !== undefined) return { outcome: 'unavailable', reason: missing };
      const { DefaultArtifactClient } = await import('@actions/artifact');
      try {
        const uploaded = await new DefaultArtifactClient().uploadArtifact(
          name,
          [...files],
          rootDirectory,
          options,
        );
        return { outcome: 'uploaded', id: uploaded.id, size: uploaded.size };
      } catch (error) {
        return refusal(error, env);
      }
    },
  };
}

/** Why this step has no artifact service, or undefined when it has one. */
function missingService(env: Env): string | undefined {
  const host = enterpriseServerHost(env.GITHUB_SERVER_URL);
  if (host !== undefined) return enterpriseServer(host);
  if (!env.ACTIONS_RUNTIME_TOKEN || !env.ACTIONS_RESULTS_URL) {
    return 'the runner gave this step no artifact service (ACTIONS_RUNTIME_TOKEN or ACTIONS_RESULTS_URL is not set: a step run outside the runner, or in a container that does not pass them on)';
  }
  return undefined;
}

function enterpriseServer(host: string): string {
  return `this is GitHub Enterprise Server (${host}), which has no service for artifacts of this kind (those of actions/upload-artifact v4 and later)`;
}

/**
 * The host of a GitHub Enterprise Server, as the artifact client tells one: any server but
 * github.com and the GHE.com data-residency hosts (`*.ghe.com`), where the service is.
 */
function enterpriseServerHost(serverUrl: string | undefined): string | undefined {
  if (!serverUrl) return undefined;
  let host: string;
  try {
    host = new URL(serverUrl).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  return host === 'github.com' || host.endsWith('.ghe.com') || host.endsWith('.localhost') ? undefined : host;
}

/** The refusals the step acts on, told apart as the artifact client words them; the rest thrown on. */
function refusal(error: unknown, env: Env): ArtifactUpload {
  if (error instanceof Error && error.name === 'GHESNotSupportedError') {
    return {
      outcome: 'unavailable',
      reason: enterpriseServer(enterpriseServerHost(env.GITHUB_SERVER_URL) ?? 'this server'),
    };
  }
  // `Failed to CreateArtifact: ... (409) Conflict: an artifact with this name already exists on the workflow run`
  if (error instanceof Error && /CreateArtifact\b[\s\S]*\(409\)/.test(error.message)) {
    return { outcome: 'name-taken' };
  }
  throw error;
}
