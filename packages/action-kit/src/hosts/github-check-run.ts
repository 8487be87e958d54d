/**
 * The GitHub host's check run (`check-name`): where it goes, read from the runner's environment
 * and event (the head commit of the run, of its pull request, or of the run a `workflow_run`
 * event reports on), and what the step's log says of it. Loaded only when a step has one.
 */
import { writeCheckRun, type CheckRunReport, type CheckRunTarget } from '../reporting/check-run.ts';
import { CommentRequestError } from '../reporting/pull-request-comment.ts';
import { githubContext, repositoryPath, triggeringRunOf } from '../step/ci-context.ts';
import type { Logger } from '../step/logger.ts';
import { redactSecrets } from '../step/secrets.ts';
import { githubApiTarget } from './github-api.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** The whole check run (the create and its updates) is bounded: it must not hold the job for long. */
const CHECK_RUN_TIMEOUT_MS = 60_000;

/** Where the check run goes; a sentence saying why it cannot be written instead. */
function checkRunTarget(
  env: Env,
  event: unknown,
  token: string | undefined,
): CheckRunTarget | { missing: string } {
  const api = githubApiTarget(env, token);
  if ('missing' in api) return api;
  const triggering = triggeringRunOf(env, event);
  const context = githubContext(env, event);
  const headSha = triggering?.headSha ?? context.commit;
  if (headSha === undefined) return { missing: "the run's head commit is unknown (GITHUB_SHA is empty)" };
  const detailsUrl = triggering?.url ?? context.runUrl;
  return {
    ...api,
    headSha,
    annotationPath: triggering?.path ?? workflowPath(env.GITHUB_WORKFLOW_REF, api.repository) ?? '.github',
    ...(detailsUrl !== undefined ? { detailsUrl } : {}),
  };
}

/** `.github/workflows/ci.yml` of `owner/repo/.github/workflows/ci.yml@refs/heads/main`. */
function workflowPath(ref: string | undefined, repository: string): string | undefined {
  const prefix = `${repository}/`;
  if (!ref?.startsWith(prefix)) return undefined;
  return repositoryPath(ref.slice(prefix.length).split('@')[0]);
}

/**
 * Writes the step's check run. Whatever goes wrong is a warning: the check run never fails the
 * step, nor hides the step's own failure.
 */
export async function checkRunOnGitHub(
  check: CheckRunReport,
  token: string | undefined,
  signal: AbortSignal,
  context: { env: Env; event: unknown; logger: Logger },
): Promise<void> {
  const { logger } = context;
  const target = checkRunTarget(context.env, context.event, token);
  if ('missing' in target) {
    logger.warning(`check-name: no check run written: ${target.missing}. The step's result is unchanged.`);
    return;
  }
  if (signal.aborted) {
    logger.info('check-name: the run was cancelled, so the check run was not written.');
    return;
  }
  try {
    const written = await writeCheckRun(target, check, {
      signal: AbortSignal.any([signal, AbortSignal.timeout(CHECK_RUN_TIMEOUT_MS)]),
      logger,
    });
    logger.info(
      `Created the check run "${check.name}" (${check.conclusion}) on ${target.headSha.slice(0, 12)} with ${written.annotations} annotation(s): ${written.url}`,
    );
  } catch (error) {
    logger.warning(checkRunFailureText(error, check.annotations.length > 0));
  }
}

/** Why the check run was not written, for the step's warning: what to change, where that is known. */
function checkRunFailureText(error: unknown, hadAnnotations = false): string {
  const message = redactSecrets(error instanceof Error ? error.message : String(error));
  const status = error instanceof CommentRequestError ? error.status : undefined;
  const unchanged = " The step's result is unchanged.";
  const partly =
    hadAnnotations && /annotations/.test(message)
      ? ' The check run exists, with part of its annotations.'
      : '';
  if (status === 403 || status === 404) {
    return `Could not write the check run: ${message}. It needs \`permissions: checks: write\` for the job (or a token in \`github-token\` that has it); a pull request from a fork gets a read-only token: publish from a \`workflow_run\` workflow instead.${partly}${unchanged}`;
  }
  if (status === 401) {
    return `Could not write the check run: ${message}. Check \`github-token\` (its default is the workflow's token).${partly}${unchanged}`;
  }
  return `Could not write the check run: ${message}.${partly}${unchanged}`;
}
