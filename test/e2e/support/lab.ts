/**
 * An emulator of its own for one end-to-end case, with its admin endpoints and stores at hand, and
 * the committed bundles run through the runner-faithful harness against it.
 */
import path from 'node:path';
import { runStep, type StepOptions, type StepResult } from '@sauce-actions/action-harness';
import { startEmulator, type RunningEmulator, type Seed } from '@sauce-actions/emulator';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

export type ActionName =
  'upload-build' | 'invite-testers' | 'run-suite-and-wait' | 'run-js-tests' | 'manage-tunnel';

/** Connection inputs of the default seed's accounts. */
export const SAUCE = { username: 'demo', 'access-key': 'demo-access-key' } as const;
export const MOBILE = { 'api-key': 'demo-api-key', email: 'demo@example.com' } as const;

/** Every form in which a key could leak: as is, or inside a Basic header. */
export const SECRETS = [
  SAUCE['access-key'],
  Buffer.from(`${SAUCE.username}:${SAUCE['access-key']}`).toString('base64'),
  MOBILE['api-key'],
  Buffer.from(`${MOBILE.email}:${MOBILE['api-key']}`).toString('base64'),
];

export interface JournalEntry {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** 0 when the connection was cut without an answer. */
  status: number;
  time: string;
}

export interface FaultSpec {
  method?: string;
  /**
   * An exact path, or a regular expression (without flags). The emulator reads any path written
   * `/.../` as an expression, so a path is sent as an anchored one: `/api/upload/` matches only itself.
   */
  path: string | RegExp;
  status?: number;
  body?: unknown;
  retryAfter?: number;
  delayMs?: number;
  drop?: boolean;
  times?: number;
}

export type JobRecord = ReturnType<RunningEmulator['context']['automation']['jobs']['all']>[number];

/** A step's result with how long the runner took for it, main and post phases together. */
export type StepRun = StepResult & { elapsedMs: number };

export interface Lab {
  emulator: RunningEmulator;
  url: string;
  fault(...specs: FaultSpec[]): Promise<void>;
  journal(): Promise<JournalEntry[]>;
  /** Resolves once a request of this method to a matching path has reached the emulator (answered or not). */
  arrived(method: string, path: string | RegExp): Promise<JournalEntry>;
  clearJournal(): Promise<void>;
  /** Jobs created since the lab opened (the seed's finished jobs are older). */
  jobs(): JobRecord[];
  /** Jobs neither stopped nor over by their own duration: still queued or running. */
  leftRunning(): JobRecord[];
  step(action: ActionName, inputs: Record<string, string>, options?: StepExtras): Promise<StepRun>;
}

export type StepExtras = Omit<StepOptions, 'actionDir' | 'inputs'>;

const opened: RunningEmulator[] = [];
const results: StepResult[] = [];

export async function openLab(
  options: { jobDurationMs?: number; rateLimit?: number; seed?: Seed } = {},
): Promise<Lab> {
  const openedAt = Date.now();
  const emulator = await startEmulator({
    port: 0,
    jobDurationMs: options.jobDurationMs ?? 60_000,
    ...(options.rateLimit !== undefined ? { rateLimit: options.rateLimit } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  });
  opened.push(emulator);
  const admin = async (method: string, route: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${emulator.url}/_emulator/${route}`, {
      method,
      ...(body !== undefined
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
        : {}),
    });
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const jobs = (): JobRecord[] =>
    emulator.context.automation.jobs.all().filter((job) => job.createdMs >= openedAt);
  return {
    emulator,
    url: emulator.url,
    fault: async (...specs) => {
      for (const spec of specs) await admin('POST', 'faults', { ...spec, path: faultPath(spec.path) });
    },
    journal: async () => ((await admin('GET', 'requests')) as { requests: JournalEntry[] }).requests,
    arrived: (method, path) => requestArrives(emulator.url, method, path),
    clearJournal: async () => {
      await admin('DELETE', 'requests');
    },
    jobs,
    leftRunning: () => {
      const now = Date.now();
      return jobs().filter((job) => job.stoppedMs === null && job.createdMs + job.durationMs > now);
    },
    step: (action, inputs, extras = {}) => runAction(emulator.url, action, inputs, extras),
  };
}

/**
 * Resolves once a request of this method to a matching path has reached the emulator at `url`
 * (its journal opens an entry as the request comes in, before any fault holds it): the moment to
 * cancel a step during that request, however long the step took to get there.
 */
export async function requestArrives(
  url: string,
  method: string,
  path: string | RegExp,
  /** How many entries of the journal, from its start, were there before: only a later one counts. */
  since = 0,
): Promise<JournalEntry> {
  for (;;) {
    const response = await fetch(`${url}/_emulator/requests`);
    if (!response.ok) throw new Error(`GET /_emulator/requests: ${response.status}`);
    const { requests } = (await response.json()) as { requests: JournalEntry[] };
    const entry = requestsTo(requests.slice(since), method, path)[0];
    if (entry) return entry;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function faultPath(path: string | RegExp): string {
  if (typeof path !== 'string') return `/${path.source}/`;
  return `/^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$/`;
}

async function runAction(
  url: string,
  action: ActionName,
  inputs: Record<string, string>,
  extras: StepExtras,
): Promise<StepRun> {
  const started = Date.now();
  const result = await runStep({
    actionDir: path.join(ROOT, 'actions', action),
    inputs: { 'api-url': url, ...inputs },
    ...extras,
  });
  results.push(result);
  return Object.assign(result, { elapsedMs: Date.now() - started });
}

/** Closes every emulator and removes the steps' folders. */
export async function closeLabs(): Promise<void> {
  await Promise.all(results.splice(0).map((result) => result.cleanup()));
  await Promise.all(opened.splice(0).map((emulator) => emulator.close()));
}

/** The error annotations of a phase, in order; the last is the step's failure. */
export function errorsOf(phase: { annotations: { level: string; message: string }[] }): string[] {
  return phase.annotations.filter((a) => a.level === 'error').map((a) => a.message);
}

/** The warning annotations of a phase, in order. */
export function warningsOf(phase: { annotations: { level: string; message: string }[] }): string[] {
  return phase.annotations.filter((a) => a.level === 'warning').map((a) => a.message);
}

/** What a key leaking would look like, in every phase: the raw log, outputs, state, summary and annotations. */
export function leakedSecrets(result: StepResult): string[] {
  const written = [result, result.post]
    .filter((phase) => phase !== undefined)
    .flatMap((phase) => [
      phase.unmaskedLog,
      JSON.stringify(phase.outputs),
      JSON.stringify(phase.state),
      phase.summary,
      JSON.stringify(phase.annotations),
    ])
    .join('\n');
  return SECRETS.filter((secret) => written.includes(secret));
}

/** The answered requests a phase logged (`::debug::GET /path -> 200 in 3 ms`), as `METHOD path status`. */
export function answeredRequests(stdout: string): string[] {
  return [...stdout.matchAll(/^::debug::(GET|POST|PUT|PATCH|DELETE) (\S+) -> (\d+) in \d+ ms$/gm)].map(
    (match) => `${match[1]} ${match[2]!.split('?')[0]} ${match[3]}`,
  );
}

/** Journal entries of one method whose path matches. */
export function requestsTo(
  journal: readonly JournalEntry[],
  method: string,
  path: string | RegExp,
): JournalEntry[] {
  return journal.filter(
    (entry) =>
      entry.method === method && (typeof path === 'string' ? entry.path === path : path.test(entry.path)),
  );
}

/** The statuses of the requests of one method whose path matches, in the order they came. */
export function statusesOf(
  journal: readonly JournalEntry[],
  method: string,
  path: string | RegExp,
): number[] {
  return requestsTo(journal, method, path).map((entry) => entry.status);
}
