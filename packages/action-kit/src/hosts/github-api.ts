/**
 * Where a step writes to GitHub's REST interface (its pull-request comment, its check run): the
 * token, the repository and the interface's address, as the runner's environment gives them.
 */
import { REPOSITORY_SLUG_FORM } from '../step/ci-context.ts';

type Env = Readonly<Record<string, string | undefined>>;

export interface GitHubApiTarget {
  token: string;
  /** `owner/name`. */
  repository: string;
  apiUrl: string;
}

/** Where the step writes; a sentence saying why it cannot instead. */
export function githubApiTarget(env: Env, token: string | undefined): GitHubApiTarget | { missing: string } {
  if (!token) return { missing: "`github-token` is empty (its default is the workflow's token)" };
  const repository = env.GITHUB_REPOSITORY ?? '';
  if (!REPOSITORY_SLUG_FORM.test(repository)) {
    return { missing: 'GITHUB_REPOSITORY does not name the repository' };
  }
  return { token, repository, apiUrl: env.GITHUB_API_URL || 'https://api.github.com' };
}
