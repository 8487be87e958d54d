/**
 * `start`: runs Sauce Connect on the runner and proves the tunnel ready, both locally (`/readyz` on
 * the status address) and at the service (listed as running), retrying a failed start.
 */
import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ActionError,
  formatDuration,
  InputError,
  optionalProperty,
  quoteValue,
  type StepDeps,
} from '@sauce-actions/action-kit';
import { ApiError, type AutomationInfo, type Tunnel } from '@sauce-actions/api';
import { stopsStarted, type StartInputs } from './inputs.ts';
import { joinsPool } from './args.ts';
import { addressInUse, isReady, launch, readinessUrl, tunnelInfo, type Environment } from './launch.ts';
import { uploadLog } from './log-artifact.ts';
import { isRunning, stopProcess } from './process.ts';
import { locateSauceConnect } from './sauce-connect.ts';
import type { CleanupState, LaunchedProcess } from './state.ts';
import { matching, newestFirst, type TunnelApi } from './tunnels.ts';

/** Time a launch that failed has after SIGINT before it is killed. */
const FAILED_LAUNCH_GRACE_MS = 10_000;
/** The same when the step is cancelled: the runner kills it within seconds. */
const CANCELLED_LAUNCH_GRACE_MS = 3000;

interface StartDeps extends Pick<
  StepDeps,
  'logger' | 'signal' | 'clock' | 'artifacts' | 'tools' | 'workflow'
> {
  tunnels: Pick<TunnelApi, 'list' | 'get'>;
  /** The download listing, where Sauce Connect's archive and its checksums are found. */
  listing: Pick<AutomationInfo, 'getSauceConnectDownload'>;
  /** The environment Sauce Connect starts from. */
  env: Environment;
  /** Saves what the post step cleans up; called as soon as there is something. */
  saveCleanup(state: CleanupState): void;
}

interface Started {
  tunnel: Tunnel;
  attempts: number;
  process: LaunchedProcess;
  /** How the executable was verified. */
  verified: string;
}

/** Starts Sauce Connect, its output going to `logFile`; fails of kind `service` when no start worked. */
export async function startTunnel(inputs: StartInputs, logFile: string, deps: StartDeps): Promise<Started> {
  const { tunnelName, start } = inputs;
  if (await addressInUse(start.statusAddress)) {
    throw new InputError(
      'status-address',
      `has ${quoteValue(start.statusAddress)}, which is already in use (another Sauce Connect of this job, or another program)`,
      'a free `host:port` for each tunnel of a job, such as `localhost:8033`',
    );
  }
  await checkNameFree(inputs, deps);
  const { executable, verified } = await locateSauceConnect({
    ...optionalProperty('scPath', start.scPath),
    version: start.scVersion,
    ...optionalProperty('downloadUrl', start.scDownloadUrl),
    ...optionalProperty('archive', start.scArchive),
    ...optionalProperty('checksum', start.scChecksum),
    listing: deps.listing,
    ...optionalProperty('plainHttpOrigin', plainHttpOrigin(inputs.connection.apiUrl)),
    tools: deps.tools,
    logger: deps.logger,
    signal: deps.signal,
  });
  deps.logger.info(`Sauce Connect: ${executable}; its log: ${logFile}`);
  const attempts = start.startRetries + 1;
  const failures: string[] = [];
  // Tunnels this step's own launches opened: one left listed by a failed attempt is not another run's.
  const opened = new Set<string>();
  for (let attempt = 1; attempt <= attempts; attempt++) {
    deps.signal.throwIfAborted();
    const outcome = await attemptStart(inputs, deps, { executable, logFile, attempt, attempts, opened });
    if ('tunnel' in outcome) return { ...outcome, attempts: attempt, verified };
    // Another start holds the name: starting again would shut its tunnel down.
    if ('taken' in outcome) throw nameTakenError(inputs, outcome.taken);
    failures.push(`attempt ${attempt}: ${outcome.failure}`);
    deps.logger.warning(`Sauce Connect start ${attempt} of ${attempts} failed: ${outcome.failure}.`);
    if (attempt < attempts) await deps.clock.sleep(1000, deps.signal);
  }
  await uploadLog(deps, { file: logFile, tunnelName, retentionDays: inputs.retentionDays });
  const tail = await logTail(logFile, 15);
  throw new ActionError(
    'service',
    `Sauce Connect did not start the tunnel "${tunnelName}" (${failures.join('; ')}). ` +
      `Its log is ${logFile}${tail ? `; it ends with:\n${tail}\n` : '. '}` +
      'Check the credentials, `region`, `sc-args` and the network between the runner and Sauce Labs, or raise `timeout` or `start-retries`.',
  );
}

/**
 * Refuses a name that is running already: Sauce Connect 5 would shut that tunnel down as this one
 * starts, cutting off whatever uses it, unless both are in a pool (`--tunnel-pool`).
 */
async function checkNameFree(inputs: StartInputs, deps: StartDeps): Promise<void> {
  const { tunnelName, connection } = inputs;
  const listed = await deps.tunnels.list({ full: true }, { signal: deps.signal });
  const up = newestFirst(
    matching(listed, connection.username, { name: tunnelName }).filter(
      (tunnel) => tunnel.status !== 'terminated' && tunnel.status !== 'halting',
    ),
  );
  if (up.length === 0) return;
  const ids = up.map((tunnel) => tunnel.id).join(', ');
  if (joinsPool(inputs.start.scArgs, deps.env)) {
    deps.logger.info(
      `Joining the pool of ${up.length} running tunnel(s) named "${tunnelName}" (${ids}): Sauce Connect starts with \`--tunnel-pool\`.`,
    );
    return;
  }
  throw new ActionError(
    'refused',
    `A tunnel named "${tunnelName}" is already running for ${connection.username} (${ids}). ` +
      'Sauce Connect would shut it down as this one starts with its name, cutting off whatever uses it: another step or job, or a tunnel left by an earlier run. ' +
      'Give this start a name of its own (for example with `${{ github.run_id }}-${{ github.run_attempt }}`), add `--tunnel-pool` to `sc-args` to run both as one pool, stop it first (`operation: stop`), or use it (`operation: wait`).',
  );
}

/** The origin of a plain http `api-url`, whose listing may name downloads on that same origin. */
function plainHttpOrigin(apiUrl: string | undefined): string | undefined {
  if (apiUrl === undefined) return undefined;
  const url = new URL(apiUrl);
  return url.protocol === 'http:' ? url.origin : undefined;
}

/** Where a start's log goes: the runner's temporary folder, one file per start. */
export function logFilePath(dir: string, tunnelName: string, now: number): string {
  const safeName = tunnelName.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60);
  return path.join(dir, `sauce-connect-${safeName}-${now}.log`);
}

type Exit = { code: number | null; signal: NodeJS.Signals | null };
/**
 * The name is another start's: its tunnels `others` run under it, and `own` (when this start's
 * Sauce Connect had opened one) was shut down by the service as theirs came up.
 */
class NameTaken {
  readonly others: string[];
  readonly own: string | undefined;

  constructor(others: string[], own?: string) {
    this.others = others;
    this.own = own;
  }
}
type AttemptOutcome =
  { tunnel: Tunnel; process: LaunchedProcess } | { failure: string } | { taken: NameTaken };

/** Running tunnels of the start's name but those of `opened`: outside a pool, another start's. */
function othersRunning(
  inputs: StartInputs,
  listed: readonly Tunnel[],
  opened: ReadonlySet<string>,
): string[] {
  return matching(listed, inputs.connection.username, { name: inputs.tunnelName })
    .filter((tunnel) => !opened.has(tunnel.id) && tunnel.status === 'running')
    .map((tunnel) => tunnel.id);
}

function nameTakenError(inputs: StartInputs, taken: NameTaken): ActionError {
  const ids = taken.others.join(', ');
  const own =
    taken.own !== undefined
      ? `, and Sauce Labs shut down the tunnel this start had opened (${taken.own}) as that one came up`
      : '';
  return new ActionError(
    'refused',
    `Another run started a tunnel named "${inputs.tunnelName}" while this step was starting one: tunnel ${ids} of ${inputs.connection.username} is running under that name${own}. ` +
      `This step stopped only the Sauce Connect it launched and left ${ids} running for the run that started it; starting again would shut that tunnel down. ` +
      'Give each start a name of its own (for example with `${{ github.run_id }}-${{ github.run_attempt }}`), or add `--tunnel-pool` to `sc-args` of both to run them as one pool.',
  );
}

interface Attempt {
  executable: string;
  logFile: string;
  attempt: number;
  attempts: number;
  /** The tunnels the step's launches opened so far; this one's joins it once known. */
  opened: Set<string>;
}

async function attemptStart(inputs: StartInputs, deps: StartDeps, current: Attempt): Promise<AttemptOutcome> {
  const { connection, tunnelName, start } = inputs;
  const { executable, logFile, attempt, attempts, opened } = current;
  // Tunnels listed before the launch are someone else's, even with the same name.
  const listed = await deps.tunnels.list({ full: true }, { signal: deps.signal });
  const pool = joinsPool(start.scArgs, deps.env);
  // Outside a pool, Sauce Connect would shut down a running tunnel of the name: a retry, or a
  // start that another run overtook since the name was checked, launches nothing over it.
  const others = pool ? [] : othersRunning(inputs, listed, opened);
  if (others.length > 0) return { taken: new NameTaken(others) };
  const before = new Set(listed.map((t) => t.id));
  const child = launch(
    {
      executable,
      username: connection.username,
      accessKey: connection.accessKey,
      region: connection.region,
      tunnelName,
      statusAddress: start.statusAddress,
      extraArgs: start.scArgs,
      logFile,
      env: deps.env,
    },
    `--- manage-tunnel: start ${attempt} of ${attempts} at ${new Date(deps.clock.now()).toISOString()} ---`,
  );
  const exited = exitOf(child);
  if (child.pid === undefined) {
    const { code } = await exited;
    return { failure: `could not be launched (${code ?? 'no exit code'})` };
  }
  const launched: LaunchedProcess = { pid: child.pid, executable, logFile, tunnelName };
  // Saved at once: should this step be cut short, the post step still stops the process.
  if (stopsStarted(inputs.stopOnExit)) deps.saveCleanup({ tunnels: [], process: launched });
  deps.logger.info(`Started Sauce Connect (pid ${child.pid}); waiting until it is ready.`);

  try {
    const tunnel = await waitUntilReady(inputs, deps, { before, exited, pool, opened });
    if (typeof tunnel === 'string') {
      await stopLaunched(deps, launched, FAILED_LAUNCH_GRACE_MS);
      return { failure: tunnel };
    }
    if (tunnel instanceof NameTaken) {
      await stopLaunched(deps, launched, FAILED_LAUNCH_GRACE_MS);
      return { taken: tunnel };
    }
    if (stopsStarted(inputs.stopOnExit)) {
      deps.saveCleanup({
        tunnels: [{ id: tunnel.id, name: tunnel.tunnel_identifier, origin: 'started' }],
        process: launched,
      });
    }
    return { tunnel, process: launched };
  } catch (error) {
    // Cancelled: there is little time left, so the post step finishes the job if this cannot.
    await stopLaunched(deps, launched, CANCELLED_LAUNCH_GRACE_MS);
    throw error;
  }
}

/** The tunnel once ready, or why it never became so. */
async function waitUntilReady(
  inputs: StartInputs,
  deps: StartDeps,
  launch: {
    /** The tunnels listed before the launch: someone else's. */
    before: ReadonlySet<string>;
    exited: Promise<Exit>;
    pool: boolean;
    opened: Set<string>;
  },
): Promise<Tunnel | string | NameTaken> {
  const { before, exited, pool, opened } = launch;
  /**
   * Another start of the name came up after this one and the service shut this one's tunnel
   * down: it is no longer listed as running (the list leaves out terminated tunnels), its own
   * record says so, and another tunnel of the name runs.
   */
  const takenFrom = async (ownId: string, listed: readonly Tunnel[]): Promise<NameTaken | undefined> => {
    if (listed.some((t) => t.id === ownId && t.status !== 'terminated' && t.status !== 'halting')) {
      return undefined;
    }
    const others = othersRunning(inputs, listed, opened);
    if (others.length === 0) return undefined;
    let status: string;
    try {
      status = String((await deps.tunnels.get(ownId, {}, { signal })).status);
    } catch (error) {
      // Not known yet by id either: it may still be on its way, as a tunnel just opened can be.
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
    return status === 'terminated' || status === 'halting' ? new NameTaken(others, ownId) : undefined;
  };
  const { signal, clock } = deps;
  const { statusAddress } = inputs.start;
  const readyz = readinessUrl(statusAddress);
  const within = formatDuration(inputs.timeoutMs);
  const deadline = clock.monotonic() + inputs.timeoutMs;
  let exit: Exit | undefined;
  void exited.then((value) => (exit = value));
  let locallyReady = false;
  // The tunnel this Sauce Connect opened, as its `/info` says: others may carry the same name.
  let ownId: string | undefined;
  let noInfo = false;
  let lastStatus = 'not listed yet';
  for (;;) {
    signal.throwIfAborted();
    if (exit) return `Sauce Connect exited (${exit.signal ?? `code ${exit.code}`}) before it was ready`;
    if (!locallyReady) {
      locallyReady = await isReady(readyz, Math.min(5000, inputs.pollIntervalMs + 2000), signal);
      if (locallyReady) deps.logger.info(`Sauce Connect answers ready at ${readyz}.`);
    }
    if (locallyReady && ownId === undefined && !noInfo) {
      const info = await tunnelInfo(statusAddress, 5000, signal);
      if (info === 'unsupported') noInfo = true;
      else if (info !== 'unavailable') {
        if (before.has(info.id) || (info.name !== undefined && info.name !== inputs.tunnelName)) {
          return `the status address ${statusAddress} answers for another Sauce Connect (tunnel ${info.id}${info.name === undefined ? '' : ` "${info.name}"`}): give each start its own \`status-address\``;
        }
        ownId = info.id;
        opened.add(ownId);
        deps.logger.info(`Sauce Connect opened tunnel ${ownId}.`);
      }
    }
    if (locallyReady && (ownId !== undefined || noInfo)) {
      const listed = await deps.tunnels.list({ full: true }, { signal });
      const named = matching(listed, inputs.connection.username, { name: inputs.tunnelName }).filter(
        (t) => !before.has(t.id),
      );
      const candidates = named.filter(
        (t) => (ownId === undefined || t.id === ownId) && t.status === 'running',
      );
      if (!pool && ownId !== undefined) {
        const taken = await takenFrom(ownId, listed);
        if (taken) return taken;
      }
      const [running] = candidates;
      if (running && candidates.length === 1) {
        deps.logger.info(`Tunnel ${running.id} ("${inputs.tunnelName}") is running.`);
        return running;
      }
      lastStatus =
        candidates.length > 1
          ? `${candidates.length} new tunnels of the name are running (${candidates.map((t) => t.id).join(', ')}), and this Sauce Connect does not say which is its own at /info`
          : ownId !== undefined
            ? `${ownId} ${named.find((t) => t.id === ownId)?.status ?? 'not listed yet'}`
            : named.length > 0
              ? named.map((t) => `${t.id} ${t.status}`).join(', ')
              : 'not listed yet';
    } else if (locallyReady) {
      lastStatus = 'Sauce Connect does not tell its tunnel id at /info yet';
    }
    const remaining = deadline - clock.monotonic();
    if (remaining <= 0) {
      return locallyReady
        ? `Sauce Connect was ready but the tunnel was not running at Sauce Labs within ${within} (${lastStatus})`
        : `Sauce Connect did not answer ready at ${readyz} within ${within}`;
    }
    // An exit ends the nap at once; the race handles a later rejection of the nap.
    await Promise.race([clock.sleep(Math.min(inputs.pollIntervalMs, remaining), signal), exited]);
  }
}

function exitOf(child: ChildProcess): Promise<Exit> {
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: null, signal: null }));
  });
}

/** Stops a launch that failed; the state then holds nothing for the post step to stop. */
async function stopLaunched(deps: StartDeps, launched: LaunchedProcess, graceMs: number): Promise<void> {
  if (isRunning(launched.pid)) {
    const outcome = await stopProcess(launched.pid, { graceMs, clock: deps.clock });
    deps.logger.info(
      `Sauce Connect (pid ${launched.pid}) ${outcome === 'killed' ? 'was killed' : 'stopped'}.`,
    );
  }
  if (!isRunning(launched.pid)) deps.saveCleanup({ tunnels: [] });
}

async function logTail(file: string, lines: number): Promise<string> {
  try {
    const text = await readFile(file, 'utf8');
    return text.trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
