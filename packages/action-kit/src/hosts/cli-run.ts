/**
 * One run of an action on the command line: the flags and `action.yml` defaults read by the
 * action's own readers, the result published to a terminal (outputs on standard output, the rest
 * on standard error, the summary to `--summary`), SIGINT and SIGTERM as the cancel, and what the
 * post step does on the runner done in this one process, with the state the main run kept in
 * memory.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rmdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  memoryState,
  systemClock,
  type ActionDefinition,
  type Artifacts,
  type StepDeps,
  type StepState,
  type WorkflowRun,
} from '../deps.ts';
import { RequestPacer, REQUESTS_PER_SECOND } from '../step/request-pacer.ts';
import { noIdToken } from '../inputs/id-token.ts';
import type { InputSource } from '../inputs/inputs.ts';
import { MAX_SUMMARY_BYTES } from '../reporting/budget.ts';
import { commandFreeJson } from '../reporting/log-text.ts';
import { boundOutputs } from '../reporting/output-budget.ts';
import { checkOutputFile, ensureFolder, writeOutputFile } from '../reporting/output-files.ts';
import {
  outputText,
  summaryWithFailure,
  type ActionResult,
  type Outputs,
  type OutputValue,
} from '../reporting/result.ts';
import { ciContextOf, ciSystemOf, type CiContext } from '../step/ci-context.ts';
import { runIdentityOf } from '../step/run-identity.ts';
import { ActionError, CancelledError, describeFailure, type Failure } from '../step/failure.ts';
import { localGitHistory } from '../step/git-history.ts';
import type { Logger } from '../step/logger.ts';
import { redactSecrets } from '../step/secrets.ts';
import type { ActionMetadata } from './action-metadata.ts';
import { ENVIRONMENT_FALLBACKS, type HostOptions } from './cli-args.ts';
import {
  EXIT_DONE,
  EXIT_FAILED,
  EXIT_USAGE,
  type ActionModule,
  type CliCommand,
  type CliIo,
} from './cli-command.ts';
import { localToolCache } from './cli-tool-cache.ts';
import { runDefinition } from './run-definition.ts';

export async function runAction(
  command: CliCommand,
  { action, post }: ActionModule,
  given: ReadonlyMap<string, string>,
  options: HostOptions,
  io: CliIo,
): Promise<number> {
  // Like `junit-file`, the places the run writes to are refused before anything is sent, rather
  // than lost after the run.
  let runFolder: RunFolder;
  try {
    if (options.summaryFile !== undefined) {
      await checkOutputFile(path.resolve(io.cwd, options.summaryFile), {
        what: 'The summary file of --summary,',
        fix: 'Name a file in a folder that can be written.',
      });
    }
    runFolder = await makeRunFolder(command.name, io);
  } catch (error) {
    const failure = describeFailure(error);
    io.stderr(`error: ${failure.message}\n`);
    if (options.json) printOutputs({}, true, io, failure);
    return EXIT_USAGE;
  }
  const signals = watchSignals();
  const logger = cliLogger(io, options.verbose);
  const source = commandLineInputs(command.metadata, given, io);
  reportEnvironmentFallbacks(command.metadata, given, io, logger);
  const state = memoryState();
  const summary = summaryWriter(options.summaryFile, io, logger);
  const run = await ciContext(io.env);
  const deps = (signal: AbortSignal): StepDeps => stepDeps(signal, state, runFolder.path, io, logger, run);
  try {
    const main = await runStep(action, source, deps(signals.phase()));
    const { outputs, notes } = boundOutputs(main.outputs);
    printOutputs(outputs, options.json, io, main.failure);
    for (const note of notes) logger.info(note);
    await summary(action.title, main);
    report(main, io);
    let code = exitCodeOf(main.failure);
    if (post?.hasLeftRunning(state)) {
      if (main.failure === undefined && command.holdsWhatItStarted) {
        logger.info('Running until SIGINT or SIGTERM (Ctrl-C): then what this command started is stopped.');
        await holdUntil(signals.received);
      }
      // A fresh signal: the cleanup runs even when the main run was cancelled, as the post step does.
      const cleanup = await runStep(post, source, deps(signals.phase()));
      await summary(post.title, cleanup);
      report(cleanup, io);
      if (code === EXIT_DONE && cleanup.failure !== undefined) code = EXIT_FAILED;
    }
    return code;
  } finally {
    signals.dispose();
    await runFolder.removeIfEmpty();
  }
}

/** Where the files a run leaves for the CI system to keep go, unless SAUCE_ACTIONS_OUTPUT_DIR says. */
export const OUTPUT_FOLDER = 'sauce-actions-output';

interface RunFolder {
  path: string;
  removeIfEmpty(): Promise<void>;
}

/**
 * A folder of this run's own for the files the outputs name (the results file, Sauce Connect's
 * log, downloaded assets), which outlive it: inside the working folder, where a CI system's
 * artifact paths reach, not in the system's temporary folder (the runner's `RUNNER_TEMP` has no
 * equivalent here). One per run, so that two runs of an action in one job keep both results. It
 * goes at the end when nothing was written to it, with the output folder when this run made
 * that and it is left empty; a run that ends meanwhile may remove the output folder just made,
 * so it is made again.
 */
async function makeRunFolder(action: string, io: CliIo): Promise<RunFolder> {
  const root = path.resolve(io.cwd, io.env.SAUCE_ACTIONS_OUTPUT_DIR || OUTPUT_FOLDER);
  const madeRoot = !existsSync(root);
  for (let attempt = 1; ; attempt++) {
    try {
      await ensureFolder(root);
      const folder = await mkdtemp(path.join(root, `${action}-`));
      return {
        path: folder,
        async removeIfEmpty() {
          // rmdir refuses a folder that holds anything: what was written stays.
          for (const empty of madeRoot ? [folder, root] : [folder]) {
            const removed = await rmdir(empty).then(
              () => true,
              () => false,
            );
            if (!removed) return;
          }
        },
      };
    } catch (error) {
      if (attempt < 3 && (error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new ActionError(
        'input',
        `The output folder ${root} could not be made (${(error as Error).message}). Run in a folder that can be written, or name one in SAUCE_ACTIONS_OUTPUT_DIR.`,
        { cause: error },
      );
    }
  }
}

/** One step, main or cleanup: its result, whatever it threw. */
async function runStep(
  definition: ActionDefinition,
  source: InputSource,
  deps: StepDeps,
): Promise<ActionResult> {
  return (await runDefinition(definition, source, deps)).result;
}

/**
 * Flags first, then the command line's own environment fallbacks (`SAUCE_API_URL`), then
 * `action.yml`'s default, as the runner hands an input over.
 */
function commandLineInputs(
  metadata: ActionMetadata,
  given: ReadonlyMap<string, string>,
  io: CliIo,
): InputSource {
  const fromEnvironment = (name: string): string | undefined => {
    const fallback = Object.hasOwn(ENVIRONMENT_FALLBACKS, name) ? ENVIRONMENT_FALLBACKS[name] : undefined;
    return fallback !== undefined && Object.hasOwn(metadata.inputs, name)
      ? io.env[fallback.variable] || undefined
      : undefined;
  };
  return {
    input: (name) =>
      given.get(name) ??
      fromEnvironment(name) ??
      (Object.hasOwn(metadata.inputs, name) ? metadata.inputs[name]?.default : '') ??
      '',
    env: (name) => io.env[name],
    workspace: io.cwd,
  };
}

/** Says which inputs came from the environment, so that a mistake in one is traced to its variable. */
function reportEnvironmentFallbacks(
  metadata: ActionMetadata,
  given: ReadonlyMap<string, string>,
  io: CliIo,
  logger: Logger,
): void {
  for (const [name, { variable }] of Object.entries(ENVIRONMENT_FALLBACKS)) {
    if (Object.hasOwn(metadata.inputs, name) && !given.has(name) && io.env[variable]) {
      // The variable's name only: a value with a password in it is refused, never printed.
      logger.info(`--${name} not given: using the environment variable ${variable}.`);
    }
  }
}

/**
 * 2 only for a mistake in the inputs found before any request (the readers' checks, a file that is
 * not there); whatever the service's answers showed is a refusal or a failure of the work, 1.
 */
function exitCodeOf(failure: Failure | undefined): number {
  if (failure === undefined) return EXIT_DONE;
  return failure.kind === 'input' ? EXIT_USAGE : EXIT_FAILED;
}

/**
 * `name=value` lines, a value with a line break, a leading quote or a CI system's command
 * (`##[`, `##vso[`) as a JSON string; or one JSON object, with `error` (its kind and message) when
 * the run failed, so that standard output holds one JSON object whatever happened. In JSON such a
 * command's `#` is written `\u0023`: the same value once parsed, and nothing a CI system reads.
 */
function printOutputs(outputs: Outputs, json: boolean, io: CliIo, failure?: Failure): void {
  const entries = Object.entries(outputs);
  if (json) {
    const object: Record<string, unknown> = Object.fromEntries(
      entries.map(([name, value]) => [name, jsonValue(value)]),
    );
    if (failure !== undefined) {
      object.error = { kind: failure.kind, message: redactSecrets(failure.message) };
    }
    io.stdout(`${commandFreeJson(JSON.stringify(object))}\n`);
    return;
  }
  for (const [name, value] of entries) {
    const text = redactSecrets(outputText(value));
    const quoted = commandFreeJson(JSON.stringify(text));
    const asJson = /[\r\n]/.test(text) || text.startsWith('"') || quoted !== JSON.stringify(text);
    io.stdout(`${name}=${asJson ? quoted : text}\n`);
  }
}

/** Counts stay numbers and lists arrays, so that `jq` reads them as they are. */
function jsonValue(value: OutputValue): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) return value.map((item: string) => redactSecrets(item));
  return value;
}

/** Annotations and the failure as plain lines on standard error. */
function report(result: ActionResult, io: CliIo): void {
  for (const annotation of result.annotations) {
    const title = annotation.title !== undefined ? `${annotation.title}: ` : '';
    io.stderr(`${annotation.level}: ${title}${annotation.message}\n`);
  }
  // The comment belongs to a GitHub pull request, which a command line run has none of.
  if (result.comment)
    io.stderr('warning: `pr-comment` writes only in a GitHub pull request: no comment written.\n');
  // So does the check run: other CI systems show the JUnit report (`junit-file`) instead.
  if (result.check)
    io.stderr(
      'warning: `check-name` writes only on GitHub: no check run written; publish `junit-file` instead.\n',
    );
  // And the issues: other CI systems' trackers are not GitHub's.
  if (result.issues)
    io.stderr("warning: `issues` files GitHub issues only on GitHub's runner: no issue written.\n");
  if (result.failure) io.stderr(`error: ${result.failure.message}\n`);
}

/**
 * Writes the first summary to the file, then the first and the cleanup's, within 1 MiB in all as
 * on the runner; nothing without `--summary`. Each time the whole file is written anew beside it
 * and renamed over it, as every output file is, so that no link or pipe put there is followed.
 */
function summaryWriter(
  file: string | undefined,
  io: CliIo,
  logger: Logger,
): (title: string, result: ActionResult) => Promise<void> {
  if (file === undefined) return async () => {};
  const target = path.resolve(io.cwd, file);
  let written = '';
  return async (title, result) => {
    const room = MAX_SUMMARY_BYTES - Buffer.byteLength(written, 'utf8');
    const markdown = redactSecrets(summaryWithFailure(title, result, room));
    try {
      await writeOutputFile(target, `${written}${markdown}`);
      written += markdown;
    } catch (error) {
      logger.warning(`Could not write the summary to ${target}: ${(error as Error).message}`);
    }
  };
}

/**
 * SIGINT and SIGTERM cancel the running phase, as the runner's cancel does on GitHub; each phase
 * (the main run, the cleanup) gets a signal of its own. `received` resolves at the first one.
 */
function watchSignals(): {
  phase(): AbortSignal;
  received: Promise<void>;
  dispose(): void;
} {
  let controller = new AbortController();
  let resolveReceived: () => void = () => {};
  const received = new Promise<void>((resolve) => (resolveReceived = resolve));
  const names: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
  const onSignal = (name: NodeJS.Signals): void => {
    resolveReceived();
    if (!controller.signal.aborted) controller.abort(new CancelledError(`the run was cancelled (${name})`));
  };
  for (const name of names) process.on(name, onSignal);
  return {
    phase() {
      controller = new AbortController();
      return controller.signal;
    },
    received,
    dispose() {
      for (const name of names) process.off(name, onSignal);
    },
  };
}

/** Waits for `end`: a listener alone does not keep Node running, a timer does. */
async function holdUntil(end: Promise<void>): Promise<void> {
  const alive = setInterval(() => {}, 2 ** 30);
  try {
    await end;
  } finally {
    clearInterval(alive);
  }
}

function cliLogger(io: CliIo, verbose: boolean): Logger {
  return {
    info: (message) => io.stderr(`${message}\n`),
    warning: (message) => io.stderr(`warning: ${message}\n`),
    debug: (message) => {
      if (verbose) io.stderr(`debug: ${message}\n`);
    },
    async group(name, body) {
      io.stderr(`${name}\n`);
      return body();
    },
  };
}

/** Artifacts stay where the action left them: other CI systems archive folders themselves. */
const noArtifacts: Artifacts = {
  upload: async () => ({
    outcome: 'unavailable',
    reason:
      "the command line uploads no artifact: keep the folder with your CI system's own (GitLab `artifacts: paths`, Jenkins `archiveArtifacts`, CircleCI `store_artifacts`)",
  }),
};

/**
 * What the CI system running the command says of the run, and which run it is: GitLab CI, Jenkins,
 * CircleCI, or GitHub Actions (a `run:` step, whose event file is read as the action's host reads it).
 */
async function ciContext(env: CliIo['env']): Promise<{ ci: CiContext; workflow: WorkflowRun }> {
  const eventFile = ciSystemOf(env) === 'github' ? env.GITHUB_EVENT_PATH : undefined;
  const event = eventFile
    ? await readFile(eventFile, 'utf8')
        .then((text) => JSON.parse(text) as unknown)
        .catch(() => undefined)
    : undefined;
  return { ci: ciContextOf(env, event), workflow: runIdentityOf(env, event) };
}

function stepDeps(
  signal: AbortSignal,
  state: StepState,
  tempDir: string,
  io: CliIo,
  logger: Logger,
  { ci, workflow }: { ci: CiContext; workflow: WorkflowRun },
): StepDeps {
  return {
    logger,
    signal,
    clock: systemClock,
    pacer: new RequestPacer(REQUESTS_PER_SECOND),
    workspace: io.cwd,
    tempDir,
    state,
    workflow,
    artifacts: noArtifacts,
    // Downloads and their unpacking are no output: the system's temporary folder.
    tools: localToolCache(io.env, os.tmpdir(), io.cwd),
    env: io.env,
    ci,
    git: localGitHistory(io.cwd, io.env, signal),
    // The command line has no job ID token: `oidc: github` is refused, naming what to pass instead.
    idToken: noIdToken,
  };
}
