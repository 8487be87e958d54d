/**
 * The build names a test run is started in and found again by. The default names one build per
 * attempt of the CI run, readable and unique to it: the label (a suite's name), the run's number
 * and attempt, and a token of the run's identity (`Smoke #42.2 · k3f9x2ab`), so that a re-run's
 * earlier results and a report's shards are this run's jobs, never those of another repository,
 * workflow or CI system that counts its runs from 1 as well.
 */
import type { WorkflowRun } from '../deps.ts';
import { runToken } from '../step/run-identity.ts';

/** Build names of case runs are capped at 100 characters by the service. */
const MAX_BUILD_NAME = 100;
/** Room kept for the ` - N` suffixes the service adds to a name used before. */
const SUFFIX_ROOM = 6;

type RunOfName = Pick<WorkflowRun, 'key' | 'runNumber' | 'runAttempt'>;

/**
 * The default build name of this attempt of the run: `<label> #<number>.<attempt> · <token>`
 * (GitHub), `<label> #<number> · <token>` (a system without attempts: GitLab, Jenkins), or
 * `<label> · <token>` (no number: CircleCI). Without an identity (a terminal) the label and the
 * time, which no other step can know. A long label is shortened, never the run's part.
 */
export function defaultBuildName(label: string, run: RunOfName, now: Date): string {
  const suffix =
    run.key !== undefined ? runSuffix(run.key, run) : now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const room = MAX_BUILD_NAME - suffix.length - 1 - SUFFIX_ROOM;
  return `${label.length > room ? `${label.slice(0, room - 1)}…` : label} ${suffix}`;
}

function runSuffix(key: string, run: RunOfName): string {
  const number = run.runNumber !== undefined ? `#${run.runNumber}${attemptPart(run)} ` : '';
  return `${number}· ${runToken(key)}`;
}

function attemptPart(run: RunOfName): string {
  return run.runAttempt !== undefined ? `.${run.runAttempt}` : '';
}

/**
 * The default build names of every attempt of the run up to this one, first to last (one name on
 * systems without attempts); undefined without an identity, whose default names nobody can know.
 */
export function attemptBuildNames(label: string, run: RunOfName): string[] | undefined {
  if (run.key === undefined) return undefined;
  if (run.runAttempt === undefined) return [defaultBuildName(label, run, new Date(0))];
  const attempt = Number(run.runAttempt);
  const attempts = Number.isSafeInteger(attempt) && attempt >= 1 ? attempt : 1;
  return Array.from({ length: attempts }, (_, k) =>
    defaultBuildName(label, { ...run, runAttempt: String(k + 1) }, new Date(0)),
  );
}

/**
 * The run a report covers: this one, or with a `workflow_run` event the run that triggered it (a
 * fork's pull request is reported from a workflow that has the base repository's token).
 */
export function reportedRun(workflow: WorkflowRun): WorkflowRun {
  const triggering = workflow.triggeredBy;
  if (triggering === undefined) return workflow;
  const { key: _key, createdAtMs: _createdAtMs, ...rest } = workflow;
  return {
    ...rest,
    ...(triggering.key !== undefined ? { key: triggering.key } : {}),
    runNumber: triggering.runNumber,
    runAttempt: triggering.runAttempt,
    ...(triggering.createdAtMs !== undefined ? { createdAtMs: triggering.createdAtMs } : {}),
  };
}

/**
 * Whether the service's build name is one of the names asked for, as given or with the ` - N`
 * suffixes the service adds to a name used before; nothing else (a longer number, another run).
 */
export function buildMatcher(builds: readonly string[]): (build: string | null | undefined) => boolean {
  if (builds.length === 0) return () => false;
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^(?:${builds.map(escape).join('|')})(?: - \\d+)*$`);
  return (build) => typeof build === 'string' && pattern.test(build);
}

/** The build names searched, for a log line or a summary: `"Smoke #42.1 · k3f9x2ab", "Smoke #42.2 · k3f9x2ab"`. */
export function searchedBuilds(builds: readonly string[]): string {
  return builds.map((build) => `"${build}"`).join(', ');
}
