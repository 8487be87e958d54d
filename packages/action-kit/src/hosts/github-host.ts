/**
 * The GitHub runner's host: the only module that talks to the runner (`@actions/core`). It reads
 * inputs from the runner, builds the deps, runs the action, and publishes the result the same way
 * for every action: outputs, then the summary, then annotations, then the failure.
 */
import { mkdtempSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as core from '@actions/core';
import {
  systemClock,
  type ActionDefinition,
  type ActionInputs,
  type PostDefinition,
  type StepDeps,
  type StepState,
} from '../deps.ts';
import { RequestPacer, REQUESTS_PER_SECOND } from '../step/request-pacer.ts';
import { runnerIdToken } from '../inputs/id-token.ts';
import type { InputSource } from '../inputs/inputs.ts';
import { ANNOTATIONS_PER_LEVEL, planAnnotations } from '../reporting/annotation-budget.ts';
import type { CheckRunReport } from '../reporting/check-run-report.ts';
import { commandFreeText } from '../reporting/log-text.ts';
import { boundOutputs } from '../reporting/output-budget.ts';
import type { CommentRun } from '../reporting/pull-request-comment.ts';
import {
  outputText,
  summaryWithFailure,
  type ActionResult,
  type Outputs,
  type PullRequestComment,
} from '../reporting/result.ts';
import { githubContext, triggeringRunOf } from '../step/ci-context.ts';
import { CancelledError } from '../step/failure.ts';
import { localGitHistory } from '../step/git-history.ts';
import type { Logger } from '../step/logger.ts';
import { runIdentityOf } from '../step/run-identity.ts';
import { onSecret, redactSecrets } from '../step/secrets.ts';
import { githubApiTarget } from './github-api.ts';
import { githubArtifacts } from './github-artifacts.ts';
import { githubToolCache } from './github-tool-cache.ts';
import { runDefinition } from './run-definition.ts';
import { failureNote, runnerFiles, type StepFiles } from './runner-files.ts';

/**
 * The runner's main step: the action's `runs.main` bundle. An action with a post step names a
 * bundle of its own for it (`runOnGitHubPost`), so that the post step knows itself without any
 * state, which a runner file that cannot be written would lose.
 */
export async function runOnGitHub<I extends ActionInputs, O extends Outputs>(
  main: ActionDefinition<I, O>,
): Promise<void> {
  onSecret(maskOnRunner);
  await runStep(main, runnerFiles(process.env, toolkitFiles()), runnerWorkspace());
}

/** The runner's post step, its `runs.post` bundle: with the state the main step saved. */
export async function runOnGitHubPost<P extends ActionInputs>(post: PostDefinition<P>): Promise<void> {
  onSecret(maskOnRunner);
  await runPost(post, runnerFiles(process.env, toolkitFiles()), runnerWorkspace());
}

/**
 * A step on a developer's machine: `root`, the repository's, is the workspace when `GITHUB_WORKSPACE`
 * is unset, and resolves a relative one or a relative `GITHUB_STEP_SUMMARY`, so that a `.env` file
 * means the same whichever folder the tool is started in.
 */
export interface LocalStep {
  root: string;
}

/**
 * The main step alone, for a host that calls each step's entry itself (`@github/local-action`
 * imports an entry and calls its `run()`, then the post entry's, in one process): outputs and
 * state go through `@actions/core`, which that host replaces with its own.
 */
export async function runMainStep<I extends ActionInputs, O extends Outputs>(
  main: ActionDefinition<I, O>,
  local: LocalStep,
): Promise<void> {
  onSecret(maskOnRunner);
  await runStep(main, toolkitFiles(local.root), localWorkspace(local.root));
}

/** The post step alone, with the state the main step saved: it does nothing when that left no work. */
export async function runPostStep<P extends ActionInputs>(
  post: PostDefinition<P>,
  local: LocalStep,
): Promise<void> {
  onSecret(maskOnRunner);
  await runPost(post, toolkitFiles(local.root), localWorkspace(local.root));
}

async function runPost<P extends ActionInputs>(post: PostDefinition<P>, files: StepFiles, workspace: string) {
  if (!post.hasLeftRunning(files.state)) {
    githubLogger.info('Nothing to clean up.');
    return;
  }
  await runStep(post, files, workspace);
}

const runnerWorkspace = (): string => process.env.GITHUB_WORKSPACE || process.cwd();
const localWorkspace = (root: string): string => path.resolve(root, process.env.GITHUB_WORKSPACE || '.');

/** One masker however many steps run in the process: the kit keeps each registered function once. */
const maskOnRunner = (secret: string): void => core.setSecret(secret);

/**
 * Through `@actions/core`, which `@github/local-action` replaces; a summary that fails is a warning.
 * That host shows no summary and sets no `GITHUB_STEP_SUMMARY`: without one, the summary is logged.
 */
function toolkitFiles(root = process.cwd()): StepFiles {
  return {
    failures: [],
    setOutputs: (outputs) => {
      for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value);
    },
    appendSummary: async (text) => {
      const named = process.env.GITHUB_STEP_SUMMARY;
      if (!named) {
        await githubLogger.group('Step summary', async () => {
          for (const line of text.trimEnd().split('\n')) githubLogger.info(line);
        });
        return;
      }
      const file = path.resolve(root, named);
      try {
        await appendFile(file, text, 'utf8');
      } catch (error) {
        githubLogger.warning(`Could not write the step summary: ${(error as Error).message}`);
      }
    },
    state: { save: core.saveState, get: core.getState },
  };
}

async function runStep<I extends ActionInputs, O extends Outputs>(
  definition: ActionDefinition<I, O>,
  files: StepFiles,
  workspace: string,
): Promise<void> {
  const cancel = cancelOnSignals();
  // Each step has its own 10 warnings, also when one process runs the main and the post step.
  Object.assign(logWarnings, { annotated: 0, loggedOnly: 0, limit: ANNOTATIONS_PER_LEVEL - 2 });
  // The signals stay caught until the result is out: a second SIGTERM from the runner would
  // otherwise end the process before the outputs, the summary and the failure are written.
  try {
    // Read once for the step's context, its comment and its check run.
    const eventRead = readEvent(process.env.GITHUB_EVENT_PATH);
    // An event file that cannot be read leaves only what the variables say (the comment warns of it).
    const event = await eventRead.catch(() => undefined);
    const deps = stepDeps(cancel.signal, event, files.state, workspace);
    const { result, inputs } = await runDefinition(definition, githubInputs(workspace), deps);
    const { comment, check, issues } = result;
    const token = inputs?.githubToken;
    await publish(definition.title, result, files, async () => {
      if (comment) await commentOnPullRequest(comment, token, cancel.signal, inputs?.pullRequest, eventRead);
      if (check) await checkRunOnGitHub(check, token, cancel.signal, event);
      // The issues' module loads only for a step that has issues to write.
      if (issues) {
        const { fileIssuesOnGitHub } = await import('./github-issues.ts');
        await fileIssuesOnGitHub(issues, token, cancel.signal, {
          env: process.env,
          logger: githubLogger,
        });
      }
    });
  } finally {
    cancel.dispose();
  }
}

/**
 * Outputs (lists bounded), the summary (cut to 1 MiB), the failure, the annotations, then the
 * pull-request comment and the check run. The runner shows 10 errors and 10 warnings a step and drops the rest in
 * the order emitted, so the failure, which says why the step failed, is the first error, and the
 * action's annotations follow in its order (the worst first) within what is left.
 */
async function publish(
  title: string,
  result: ActionResult,
  files: StepFiles,
  afterAnnotations: () => Promise<void>,
): Promise<void> {
  const { outputs, notes } = boundOutputs(result.outputs);
  const texts = Object.fromEntries(
    Object.entries(outputs).map(([name, value]) => [name, redactSecrets(outputText(value))]),
  );
  files.setOutputs(texts);
  for (const note of notes) githubLogger.info(note);
  const summary = redactSecrets(summaryWithFailure(title, result));
  if (summary !== '') await files.appendSummary(summary);
  const failed = files.failures;
  // What the files would have told later steps and the reader, in the log instead.
  if (failed.some((failure) => failure.variable === 'GITHUB_OUTPUT')) {
    githubLogger.info(`The step's outputs, not written to GITHUB_OUTPUT:`);
    for (const [name, value] of Object.entries(texts))
      githubLogger.info(`${name}=${value.replace(/\r?\n/g, '\\n')}`);
  }
  if (summary !== '' && failed.some((failure) => failure.variable === 'GITHUB_STEP_SUMMARY')) {
    await githubLogger.group('The step summary, not written to GITHUB_STEP_SUMMARY', async () => {
      for (const line of summary.trimEnd().split('\n')) githubLogger.info(line);
    });
  }
  if (result.failure) core.setFailed(result.failure.message);
  // Each file that could not be written fails the step, after its own failure: the work is done.
  for (const failure of failed) core.error(redactSecrets(failureNote(failure)));
  if (failed.length > 0) process.exitCode = 1;
  const plan = planAnnotations({
    annotations: result.annotations,
    failure: result.failure !== undefined,
    used: { warning: logWarnings.annotated, error: failed.length },
    // A warning is kept for each of the comment, the check run and the issues, written after the annotations.
    reserve: { warning: (result.comment ? 1 : 0) + (result.check ? 1 : 0) + (result.issues ? 1 : 0) },
    loggedOnly: logWarnings.loggedOnly,
  });
  for (const annotation of plan.leftOut) {
    const titled = annotation.title !== undefined ? `${annotation.title}: ` : '';
    githubLogger.info(`${annotation.level}: ${titled}${annotation.message}`);
  }
  for (const annotation of plan.shown) {
    const properties = annotation.title !== undefined ? { title: redactSecrets(annotation.title) } : {};
    annotate[annotation.level](redactSecrets(annotation.message), properties);
    if (annotation.level === 'warning') logWarnings.annotated += 1;
  }
  // The comment's and the check run's own warnings, if any, use the room kept for them.
  logWarnings.limit = ANNOTATIONS_PER_LEVEL;
  await afterAnnotations();
}

/** The whole comment (finding it, then writing it) is bounded: it must not hold the job for long. */
const COMMENT_TIMEOUT_MS = 60_000;

/**
 * Writes the step's pull-request comment (`pr-comment: true`), in a pull request only. Whatever
 * goes wrong is a warning: the comment never fails the step, nor hides the step's own failure.
 */
async function commentOnPullRequest(
  comment: PullRequestComment,
  token: string | undefined,
  signal: AbortSignal,
  pullRequestInput: number | undefined,
  eventRead: Promise<unknown>,
): Promise<void> {
  const env = process.env;
  // Loaded with the comment: most steps write none, and none pays for it at start.
  const { commentFailureText, commentMarker, commentText, pullRequestOf, writePullRequestComment } =
    await import('../reporting/pull-request-comment.ts');
  try {
    const event = await eventRead;
    // `pull-request` first; else the event's, or that of the run a `workflow_run` event reports on.
    const pullRequest = pullRequestInput ?? pullRequestOf(event) ?? triggeringRunOf(env, event)?.pullRequest;
    if (pullRequest === undefined) {
      githubLogger.info(
        `pr-comment: no pull-request comment written: this run's event (${env.GITHUB_EVENT_NAME || 'unknown'}) is not for a pull request, and \`pull-request\` is empty.`,
      );
      return;
    }
    const target = githubApiTarget(env, token);
    if ('missing' in target) {
      githubLogger.warning(
        `pr-comment: no pull-request comment written: ${target.missing}. The step's result is unchanged.`,
      );
      return;
    }
    if (signal.aborted) {
      githubLogger.info('pr-comment: the run was cancelled, so the pull-request comment was not written.');
      return;
    }
    const run = commentRun(env);
    const written = await writePullRequestComment(
      { ...target, pullRequest },
      { marker: commentMarker(comment, run), text: commentText(comment, run) },
      { signal: AbortSignal.any([signal, AbortSignal.timeout(COMMENT_TIMEOUT_MS)]), logger: githubLogger },
    );
    const done = { created: 'Created', updated: 'Updated', unchanged: 'Left unchanged' }[written.outcome];
    githubLogger.info(`${done} the comment on pull request #${pullRequest}: ${written.url}`);
  } catch (error) {
    githubLogger.warning(commentFailureText(error));
  }
}

/** The step's check run (`check-name`); its module loads only for a step that has one. */
async function checkRunOnGitHub(
  check: CheckRunReport,
  token: string | undefined,
  signal: AbortSignal,
  event: unknown,
): Promise<void> {
  const { checkRunOnGitHub: write } = await import('./github-check-run.ts');
  await write(check, token, signal, { env: process.env, event, logger: githubLogger });
}

/** The runner's event payload; none when it has no file (a run outside the runner). */
async function readEvent(file: string | undefined): Promise<unknown> {
  if (!file) return undefined;
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function commentRun(env: NodeJS.ProcessEnv): CommentRun {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: runId } = env;
  return {
    ...(env.GITHUB_WORKFLOW ? { workflow: env.GITHUB_WORKFLOW } : {}),
    ...(env.GITHUB_JOB ? { job: env.GITHUB_JOB } : {}),
    ...(server && repository && runId ? { runUrl: `${server}/${repository}/actions/runs/${runId}` } : {}),
    ...(env.GITHUB_RUN_NUMBER ? { runNumber: env.GITHUB_RUN_NUMBER } : {}),
    ...(env.GITHUB_RUN_ATTEMPT ? { runAttempt: env.GITHUB_RUN_ATTEMPT } : {}),
  };
}

/** Named one by one: a computed `core[level]` would keep every part of the toolkit in the bundles. */
const annotate = { error: core.error, warning: core.warning, notice: core.notice };

/** The runner cancels with SIGINT, then SIGTERM, then kills: listening keeps the process alive to clean up. */
function cancelOnSignals(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
  const onSignal = (name: NodeJS.Signals): void => {
    if (!controller.signal.aborted) controller.abort(new CancelledError(`the run was cancelled (${name})`));
  };
  for (const name of signals) process.on(name, onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      for (const name of signals) process.off(name, onSignal);
    },
  };
}

/**
 * Warnings the log made annotations of, and those it wrote as plain lines: while the step runs, the
 * log keeps two of the step's 10 warnings free for its result (a comment that could not be
 * written, the summary's count of what was left out).
 */
const logWarnings = { annotated: 0, loggedOnly: 0, limit: ANNOTATIONS_PER_LEVEL - 2 };

/**
 * Plain lines carry names from inputs and the service: no line of theirs may read as a workflow
 * command (`commandFreeText`). Warnings and debug lines are commands of their own, whose text the
 * toolkit escapes onto one line, which the runner reads as nothing else; past the step's share of
 * warnings, a warning is a plain line, counted in the notice that ends the step.
 */
const githubLogger: Logger = {
  info: (message) => core.info(commandFreeText(redactSecrets(message))),
  warning: (message) => {
    if (logWarnings.annotated < logWarnings.limit) {
      logWarnings.annotated += 1;
      core.warning(redactSecrets(message));
    } else {
      logWarnings.loggedOnly += 1;
      core.info(commandFreeText(`Warning: ${redactSecrets(message)}`));
    }
  },
  debug: (message) => core.debug(redactSecrets(message)),
  group: (name, body) => core.group(commandFreeText(redactSecrets(name)), body),
};

const githubInputs = (workspace: string): InputSource => ({
  input: (name) => core.getInput(name),
  env: (name) => process.env[name],
  workspace,
});

function stepDeps(signal: AbortSignal, event: unknown, state: StepState, workspace: string): StepDeps {
  const env = process.env;
  return {
    logger: githubLogger,
    signal,
    clock: systemClock,
    pacer: new RequestPacer(REQUESTS_PER_SECOND),
    workspace,
    // Outside the runner (a developer's machine) a folder of the step's own: two runs never share a results file.
    tempDir: env.RUNNER_TEMP || mkdtempSync(path.join(os.tmpdir(), 'sauce-actions-')),
    state,
    workflow: {
      ...runIdentityOf(env, event),
      ...(env.GITHUB_JOB ? { job: env.GITHUB_JOB } : {}),
      ...(env.GITHUB_ACTION ? { step: env.GITHUB_ACTION } : {}),
    },
    artifacts: githubArtifacts(env),
    tools: githubToolCache,
    env,
    ci: githubContext(env, event),
    git: localGitHistory(workspace, env, signal),
    // Its HTTP client loads only for a step that signs in with the job's ID token.
    idToken: runnerIdToken(env, async (url, requestToken, audience) =>
      (await import('./github-id-token.ts')).requestIdToken(url, requestToken, audience),
    ),
  };
}
