/**
 * What the scenarios share: an emulator of the file for an adapter, with a client and a folder;
 * the deps of a step whose logger calls back on every line as it is logged (the moment to cancel);
 * the runner's cancellation; the emulator's requests and the jobs of a build as it has them.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CancelledError, wholeText, type ActionResult, type Logger } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import type { TestRunOutputs } from '@sauce-actions/action-kit/test-run/results';
import { SauceClient } from '@sauce-actions/api';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, beforeAll, expect } from 'vitest';
import { requestArrives } from '../../e2e/support/lab.ts';
import { addFault, emulatorsForFile, journal } from '../../support/emulators.ts';
import type { Adapter, Request, ScenarioDeps } from './adapters.ts';

export interface ScenarioLab {
  emulator: () => RunningEmulator;
  folder: () => string;
  /** A step's deps: its own results file, the signal given, `onLine` called with every line logged. */
  deps(options?: { signal?: AbortSignal; onLine?: (line: string) => void }): ScenarioDeps;
}

/** For the tests of a `describe`: an emulator of the adapter's seed with jobs of this duration. */
export function scenarioLab(adapter: Adapter, jobDurationMs: number): ScenarioLab {
  let emulator: RunningEmulator | undefined;
  let client: SauceClient | undefined;
  let folder = '';
  let steps = 0;
  emulatorsForFile([{ jobDurationMs, ...(adapter.seed ? { seed: adapter.seed } : {}) }], ([started]) => {
    emulator = started;
  });
  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), `${adapter.name}-scenarios-`));
    client = new SauceClient({
      region: 'us-west-1',
      apiUrl: emulator!.url,
      username: 'demo',
      accessKey: 'demo-access-key',
      // Quick retries keep the rows that meet faults short.
      retry: { minDelayMs: 5, maxDelayMs: 20 },
    });
  });
  afterAll(async () => {
    await client?.close();
    await rm(folder, { recursive: true, force: true });
  });
  return {
    emulator: () => emulator!,
    folder: () => folder,
    deps: ({ signal, onLine } = {}) => {
      steps += 1;
      const deps = testStepDeps({
        tempDir: folder,
        workspace: folder,
        workflow: { step: `step-${steps}` },
        ...(signal !== undefined ? { signal } : {}),
      });
      return { ...deps, logger: onLine ? listened(deps.logger, onLine) : deps.logger, client: client! };
    },
  };
}

/** The logger, calling `onLine` after it wrote each line, whatever its level. */
function listened<L extends Logger>(logger: L, onLine: (line: string) => void): L {
  const heard =
    (write: (message: string) => void) =>
    (message: string): void => {
      write(message);
      onLine(message);
    };
  return { ...logger, info: heard(logger.info), warning: heard(logger.warning), debug: heard(logger.debug) };
}

/** The runner's cancellation (SIGINT), as the host turns it into an abort of the step's signal. */
export function cancellation(): { signal: AbortSignal; cancel: () => void } {
  const controller = new AbortController();
  return {
    signal: controller.signal,
    cancel: () => controller.abort(new CancelledError('the run was cancelled (SIGINT)')),
  };
}

/** Calls `then` once, at the first line logged that matches. */
export function onFirst(pattern: RegExp, then: () => void): (line: string) => void {
  let done = false;
  return (line) => {
    if (done || !pattern.test(line)) return;
    done = true;
    then();
  };
}

/** The emulator holds the next request (or `times` of them) for `delayMs` before it answers. */
export async function hold(emulator: RunningEmulator, request: Request, delayMs: number, times = 1) {
  await addFault(emulator, { method: request.method, path: `/${request.path.source}/`, delayMs, times });
}

/**
 * Calls `then` once a request arrived after the first `since` of the journal, answered or not (the
 * emulator's journal opens its entry as it comes in, before a fault holds it). A request that
 * never comes, as in a test that failed before it, ends the watch when the emulator closes.
 */
export function whenArrives(
  emulator: RunningEmulator,
  request: Request,
  since: number,
  then: () => void,
): void {
  requestArrives(emulator.url, request.method, request.path, since).then(then, () => undefined);
}

/** The requests of the journal after its first `since`, of that method and path. */
export async function requestsSince(emulator: RunningEmulator, request: Request, since = 0) {
  return (await journal(emulator))
    .slice(since)
    .filter((entry) => entry.method === request.method && request.path.test(entry.path));
}

/** The jobs of a build (and of its unique names, `<build> - 1`), as the emulator has them. */
export function jobsOf(emulator: RunningEmulator, build: string) {
  return emulator.context.automation.jobs
    .all()
    .filter((job) => job.build === build || job.build?.startsWith(`${build} - `));
}

/** The jobs of a build neither stopped nor ended by their own duration. */
export function leftRunning(emulator: RunningEmulator, build: string) {
  const now = Date.now();
  return jobsOf(emulator, build).filter(
    (job) => job.stoppedMs === null && job.createdMs + job.durationMs > now,
  );
}

export async function readJson(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, 'utf8'));
}

/**
 * A run that ended early and stopped its jobs: every job of its build stopped on the emulator, and
 * the outputs, the results file, the summary and the failure saying so; the state cleared, as
 * nothing is left for the post step.
 */
export async function expectStopped(
  adapter: Adapter,
  lab: ScenarioLab,
  run: { build: string; deps: ScenarioDeps; result: ActionResult<TestRunOutputs> },
  why: 'cancelled' | 'timeout',
): Promise<void> {
  const { build, deps, result } = run;
  const jobs = jobsOf(lab.emulator(), build);
  expect(jobs).toHaveLength(adapter.jobs);
  expect(jobs.filter((job) => job.stoppedMs === null)).toEqual([]);
  expect(result.failure?.kind).toBe(why);
  expect(result.failure?.message).toMatch(
    why === 'cancelled' ? adapter.words.cancelled(build) : adapter.words.timedOut(build),
  );
  const ids = (JSON.parse(result.outputs['job-ids']) as string[]).sort();
  expect(result.outputs).toMatchObject({ total: adapter.jobs, passed: 0, failed: 0 });
  expect(ids).toEqual(jobs.map((job) => job.id).sort());
  const results = await readJson(result.outputs['results-file']);
  expect(adapter.stoppedInResults(results).sort()).toEqual(ids);
  expect(adapter.endedInResults(results)).toBe(why);
  for (const line of adapter.words.summary[why]) expect(wholeText(result.summary)).toContain(line);
  expect(deps.state.get(adapter.stateKey)).toBe('');
}
