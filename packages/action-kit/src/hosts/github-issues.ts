/**
 * The GitHub host's issues of a run (`issues`): the repository's issues labelled `sauce-actions`
 * listed once (bounded pages), each case's found by its marker, then commented on, or else made.
 * Nothing is closed or reopened (the engine files nothing from a pull request of a fork), and a
 * token without `issues: write` is said once, as a warning. Whatever goes wrong is a warning: issues
 * never fail the step. Loaded only for a step that has issues to write.
 */
import {
  ISSUE_LABEL,
  MAX_ISSUE_WRITES,
  type CaseIssue,
  type IssueFiling,
} from '../reporting/issue-filing.ts';
import { CommentRequestError, githubClient, sender } from '../reporting/pull-request-comment.ts';
import type { Logger } from '../step/logger.ts';
import { redactSecrets } from '../step/secrets.ts';
import { githubApiTarget } from './github-api.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** The whole filing (the listing and every write) is bounded: it must not hold the job for long. */
const ISSUES_TIMEOUT_MS = 90_000;
/** Pages of 100 labelled issues read at most: the markers are looked for among 1,000. */
const MAX_PAGES = 10;

interface ListedIssue {
  number: number;
  body?: string | null;
  html_url: string;
  pull_request?: unknown;
}

export async function fileIssuesOnGitHub(
  filing: IssueFiling,
  token: string | undefined,
  signal: AbortSignal,
  context: { env: Env; logger: Logger },
): Promise<void> {
  const { logger } = context;
  const target = githubApiTarget(context.env, token);
  if ('missing' in target) {
    logger.warning(`issues: nothing filed: ${target.missing}. The step's result is unchanged.`);
    return;
  }
  if (signal.aborted) {
    logger.info('issues: the run was cancelled, so no issue was written.');
    return;
  }
  const [owner = '', repo = ''] = target.repository.split('/');
  const bounded = AbortSignal.any([signal, AbortSignal.timeout(ISSUES_TIMEOUT_MS)]);
  const octokit = await githubClient(target, logger);
  const send = sender({ signal: bounded, logger });
  try {
    const found = await labelledIssues(owner, repo, { octokit, send });
    let written = 0;
    for (const issue of filing.cases) {
      const known = found.find((candidate) => candidate.body?.includes(issue.marker) === true);
      const done = known
        ? await send('comment on the issue', 'POST', (requestSignal) =>
            octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
              owner,
              repo,
              issue_number: known.number,
              body: redactSecrets(issue.occurrence),
              request: { signal: requestSignal },
            }),
          )
        : await send('create the issue', 'POST', (requestSignal) =>
            octokit.request('POST /repos/{owner}/{repo}/issues', {
              owner,
              repo,
              title: redactSecrets(issue.title),
              body: redactSecrets(issue.body),
              labels: [ISSUE_LABEL],
              request: { signal: requestSignal },
            }),
          );
      written += 1;
      logger.info(writtenLine(issue, known, String((done.data as { html_url?: unknown }).html_url ?? '')));
    }
    const left = filing.left.length;
    logger.info(
      `issues: ${written} written${left > 0 ? `; ${left} more past the ${MAX_ISSUE_WRITES} writes a run makes, named in the summary` : ''}.`,
    );
  } catch (error) {
    logger.warning(issuesFailureText(error));
  }
}

function writtenLine(issue: CaseIssue, known: ListedIssue | undefined, url: string): string {
  return known
    ? `issues: commented on #${known.number} for "${issue.name}": ${url}`
    : `issues: filed an issue for "${issue.name}": ${url}`;
}

/** The repository's issues with the label, every state, newest first, at most `MAX_PAGES` pages. */
async function labelledIssues(
  owner: string,
  repo: string,
  client: { octokit: Awaited<ReturnType<typeof githubClient>>; send: ReturnType<typeof sender> },
): Promise<ListedIssue[]> {
  const found: ListedIssue[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const response = await client.send('list the issues', 'GET', (signal) =>
      client.octokit.request('GET /repos/{owner}/{repo}/issues', {
        owner,
        repo,
        labels: ISSUE_LABEL,
        state: 'all',
        per_page: 100,
        page,
        request: { signal },
      }),
    );
    const issues = (Array.isArray(response.data) ? response.data : []) as ListedIssue[];
    found.push(...issues.filter((issue) => issue.pull_request === undefined));
    if (issues.length < 100) break;
  }
  return found;
}

/** Why the issues stopped, for the step's one warning: what to change, where that is known. */
function issuesFailureText(error: unknown): string {
  const message = redactSecrets(error instanceof Error ? error.message : String(error));
  const status = error instanceof CommentRequestError ? error.status : undefined;
  const unchanged = " The step's result is unchanged.";
  if (status === 403 || status === 404 || status === 410) {
    return `issues: not written: ${message}. It needs \`permissions: issues: write\` for the job (or a token in \`github-token\` that has it), and the repository's issues turned on.${unchanged}`;
  }
  if (status === 401) return `issues: not written: ${message}. Check \`github-token\`.${unchanged}`;
  return `issues: not all written: ${message}.${unchanged}`;
}
