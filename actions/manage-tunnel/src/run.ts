/** The operations of the action: wait for, list, stop or start a tunnel, and say what was done. */
import { existsSync } from 'node:fs';
import {
  abortReasonOf,
  describeFailure,
  type ActionResult,
  type Failure,
  type StepDeps,
} from '@sauce-actions/action-kit';
import { withDeadline } from '@sauce-actions/action-kit/step/cancellation';
import type { AutomationInfo } from '@sauce-actions/api';
import { stopsWaitedFor, type FindInputs, type StartInputs, type TunnelInputs } from './inputs.ts';
import { tunnelOutputs, tunnelSummary, type TunnelOutputs, type TunnelReport } from './report.ts';
import { logFilePath, startTunnel } from './start.ts';
import { serializeCleanup, STATE_KEY, type CleanupState } from './state.ts';
import { stopTunnels, type StoppedTunnel } from './stop.ts';
import { matching, newestFirst, type TunnelApi } from './tunnels.ts';
import { waitForTunnel } from './wait.ts';

export interface TunnelDeps extends Pick<
  StepDeps,
  'logger' | 'signal' | 'clock' | 'tempDir' | 'state' | 'artifacts' | 'tools' | 'env' | 'workflow'
> {
  client: {
    automation: {
      tunnels: Pick<TunnelApi, 'list' | 'get' | 'delete'>;
      info: Pick<AutomationInfo, 'getSauceConnectDownload'>;
    };
  };
}

export async function run(inputs: TunnelInputs, deps: TunnelDeps): Promise<ActionResult<TunnelOutputs>> {
  const report: TunnelReport = {
    operation: inputs.operation,
    username: inputs.connection.username,
    stopOnExit: inputs.stopOnExit,
  };
  try {
    await operate(inputs, deps, report);
    return { outputs: tunnelOutputs(report), summary: tunnelSummary(report), annotations: [] };
  } catch (error) {
    const didWork = report.logFile !== undefined || (report.stopped?.length ?? 0) > 0;
    return {
      outputs: tunnelOutputs(report),
      summary: didWork ? tunnelSummary(report) : '',
      annotations: [],
      failure: failureOf(error, inputs, deps.signal),
    };
  }
}

function failureOf(error: unknown, inputs: TunnelInputs, signal: AbortSignal): Failure {
  if (abortReasonOf(signal) === 'cancelled') {
    return {
      kind: 'cancelled',
      message: `The run was cancelled during \`${inputs.operation}\`; the post step stops whatever this step had started.`,
    };
  }
  return describeFailure(error, signal);
}

function operate(inputs: TunnelInputs, deps: TunnelDeps, report: TunnelReport): Promise<void> {
  switch (inputs.operation) {
    case 'wait':
      return waitOperation(inputs, deps, report);
    case 'list':
      return bounded(inputs, deps, (signal) => listOperation(inputs, deps, report, signal));
    case 'stop':
      return bounded(inputs, deps, (signal) => stopOperation(inputs, deps, report, signal));
    case 'start':
      return startOperation(inputs, deps, report);
  }
}

/** Runs an operation that does not poll within `timeout`, and within the run's cancellation. */
async function bounded(
  inputs: TunnelInputs,
  deps: TunnelDeps,
  operation: (signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const deadline = withDeadline(deps.signal, inputs.timeoutMs);
  try {
    await operation(deadline.signal);
  } finally {
    deadline.dispose();
  }
}

function saveCleanup(deps: TunnelDeps, state: CleanupState): void {
  deps.state.save(STATE_KEY, serializeCleanup(state));
}

async function waitOperation(inputs: FindInputs, deps: TunnelDeps, report: TunnelReport): Promise<void> {
  // The deadline also cuts a listing that answers late, not only the checks between listings.
  const deadline = withDeadline(deps.signal, inputs.timeoutMs);
  const tunnel = await waitForTunnel({
    api: deps.client.automation.tunnels,
    username: report.username,
    target: inputs.target,
    timeoutMs: inputs.timeoutMs,
    intervalMs: inputs.pollIntervalMs,
    logger: deps.logger,
    clock: deps.clock,
    signal: deadline.signal,
  }).finally(() => deadline.dispose());
  deps.logger.info(`Tunnel ${tunnel.id} ("${tunnel.tunnel_identifier ?? ''}") is running.`);
  // A tunnel this step only waited for is often shared: deleting it would break every other job
  // using it, so only `stop-on-exit: true` asks for that.
  if (stopsWaitedFor(inputs.stopOnExit)) {
    saveCleanup(deps, { tunnels: [{ id: tunnel.id, name: tunnel.tunnel_identifier, origin: 'waited' }] });
  }
  report.tunnel = tunnel;
}

async function listOperation(
  inputs: FindInputs,
  deps: TunnelDeps,
  report: TunnelReport,
  signal: AbortSignal,
): Promise<void> {
  const all = await deps.client.automation.tunnels.list({ full: true }, { signal });
  const { target } = inputs;
  // Without a name or id every listed tunnel counts, shared ones of other users included.
  const listed = newestFirst(
    target.name === undefined && target.id === undefined ? all : matching(all, report.username, target),
  );
  deps.logger.info(`${listed.length} tunnel(s) listed.`);
  report.listed = listed;
}

async function stopOperation(
  inputs: FindInputs,
  deps: TunnelDeps,
  report: TunnelReport,
  signal: AbortSignal,
): Promise<void> {
  const stopped: StoppedTunnel[] = [];
  report.stopped = stopped;
  await stopTunnels(
    {
      api: deps.client.automation.tunnels,
      username: report.username,
      target: inputs.target,
      reason: 'stopped by the manage-tunnel action',
      logger: deps.logger,
      signal,
    },
    stopped,
  );
}

async function startOperation(inputs: StartInputs, deps: TunnelDeps, report: TunnelReport): Promise<void> {
  const logFile = logFilePath(deps.tempDir, inputs.tunnelName, deps.clock.now());
  try {
    const started = await startTunnel(inputs, logFile, {
      logger: deps.logger,
      signal: deps.signal,
      clock: deps.clock,
      artifacts: deps.artifacts,
      workflow: deps.workflow,
      tools: deps.tools,
      tunnels: deps.client.automation.tunnels,
      listing: deps.client.automation.info,
      env: deps.env,
      saveCleanup: (state) => saveCleanup(deps, state),
    });
    report.tunnel = started.tunnel;
    report.attempts = started.attempts;
    report.pid = started.process.pid;
    report.verified = started.verified;
  } finally {
    // A failed start still tells where its log is, once Sauce Connect has written one.
    if (existsSync(logFile)) report.logFile = logFile;
  }
}
