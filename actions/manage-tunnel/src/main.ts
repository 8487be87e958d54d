/**
 * Entry point of both steps: the runner runs this bundle as the main step and again as the post
 * step, which it tells apart by the `isPost` state the main step saves (as the official actions do).
 */
import * as core from '@actions/core';
import {
  createClient,
  present,
  readBoolean,
  readDuration,
  readEnum,
  readSauceConnection,
  readString,
  runAction,
  sauceClientOptions,
  setOutputs,
} from '@sauce-actions/action-kit';
import { logUploader } from './log-artifact.ts';
import { cleanUp } from './post.ts';
import { OPERATIONS, run, type TunnelInputs } from './run.ts';
import { IS_POST_KEY, parseCleanup, serializeCleanup, STATE_KEY } from './state.ts';
import { postSummary, tunnelSummary } from './summary.ts';

/** Time Sauce Connect has to shut its tunnel down after SIGINT before it is killed. */
const STOP_GRACE_MS = 20_000;

const log = (line: string): void => core.info(line);
const warn = (line: string): void => core.warning(line);

if (core.getState(IS_POST_KEY) === 'true') {
  await runAction({ title: 'Manage tunnel: cleanup' }, async (signal) => {
    const state = parseCleanup(core.getState(STATE_KEY));
    if (state.tunnels.length === 0 && !state.process) {
      log('Nothing to clean up.');
      return;
    }
    const connection = readSauceConnection();
    const client = createClient(sauceClientOptions(connection));
    try {
      const report = await cleanUp(state, {
        api: client.automation.tunnels,
        log,
        warn,
        uploadLog: logUploader(artifactClient, log, warn),
        graceMs: STOP_GRACE_MS,
        signal,
      });
      await postSummary(report).write();
    } finally {
      await client.close();
    }
  });
} else {
  core.saveState(IS_POST_KEY, 'true');
  await runAction({ title: 'Manage tunnel' }, async (signal) => {
    const operation = readEnum('operation', OPERATIONS, 'wait');
    const connection = readSauceConnection();
    const waits = operation === 'wait';
    const inputs: TunnelInputs = {
      operation,
      ...present('tunnelName', readString('tunnel-name')),
      ...present('tunnelId', readString('tunnel-id')),
      stopOnExit: readBoolean('stop-on-exit', true),
      timeoutMs: readDuration('timeout', waits ? 5 * 60_000 : 60_000, { minMs: 1000 }),
      pollIntervalMs: readDuration('poll-interval', 5000, { minMs: 100 }),
    };
    const client = createClient(sauceClientOptions(connection));
    try {
      const report = await run(inputs, {
        api: client.automation.tunnels,
        username: connection.username,
        log,
        warn,
        saveCleanup: (state) => core.saveState(STATE_KEY, serializeCleanup(state)),
        signal,
      });
      setOutputs({ ...report.outputs });
      await tunnelSummary(report).write();
    } finally {
      await client.close();
    }
  });
}

/** Loaded only when a log is uploaded: the artifact client is large and needs the runner's token. */
async function artifactClient() {
  const { DefaultArtifactClient } = await import('@actions/artifact');
  return new DefaultArtifactClient();
}
