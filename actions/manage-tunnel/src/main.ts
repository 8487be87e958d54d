/**
 * Entry point of both steps: the runner runs this bundle as the main step and again as the post
 * step, which it tells apart by the `isPost` state the main step saves (as the official actions do).
 */
import os from 'node:os';
import * as core from '@actions/core';
import * as toolCache from '@actions/tool-cache';
import {
  createClient,
  InputError,
  present,
  readBoolean,
  readDuration,
  readEnum,
  readFilePath,
  readInteger,
  readSauceConnection,
  readString,
  runAction,
  sauceClientOptions,
  setOutputs,
} from '@sauce-actions/action-kit';
import { checkAddress, splitArgs } from './args.ts';
import { logUploader } from './log-artifact.ts';
import { cleanUp } from './post.ts';
import { OPERATIONS, run, type StartSettings, type TunnelInputs } from './run.ts';
import { DEFAULT_SC_VERSION } from './sauce-connect.ts';
import { StartError } from './start.ts';
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
    const starts = operation === 'start';
    const defaultTimeoutMs = { wait: 5 * 60_000, start: 3 * 60_000, list: 60_000, stop: 60_000 }[operation];
    const inputs: TunnelInputs = {
      operation,
      ...present('tunnelName', readString('tunnel-name')),
      ...present('tunnelId', readString('tunnel-id')),
      stopOnExit: readBoolean('stop-on-exit', true),
      timeoutMs: readDuration('timeout', defaultTimeoutMs, { minMs: 1000 }),
      pollIntervalMs: readDuration('poll-interval', starts ? 1000 : 5000, { minMs: 100 }),
      ...present('start', starts ? readStartSettings() : undefined),
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
        ...present(
          'start',
          starts
            ? {
                accessKey: connection.accessKey,
                region: connection.region,
                tools: toolCache,
                uploadLog: logUploader(artifactClient, log, warn),
                logDir: process.env.RUNNER_TEMP || os.tmpdir(),
              }
            : undefined,
        ),
      });
      setOutputs({ ...report.outputs });
      await tunnelSummary(report).write();
    } catch (error) {
      // A failed start still tells where its log is.
      if (error instanceof StartError)
        setOutputs({ 'tunnel-id': '', tunnels: '[]', 'log-file': error.logFile });
      throw error;
    } finally {
      await client.close();
    }
  });
}

function readStartSettings(): StartSettings {
  const version = readString('sc-version') ?? DEFAULT_SC_VERSION;
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
    throw new InputError(
      'sc-version',
      `has "${version}", which is not a version`,
      'a full version such as `5.4.1`',
    );
  }
  const downloadUrl = readString('sc-download-url');
  if (downloadUrl !== undefined && !/^https?:\/\//.test(downloadUrl)) {
    throw new InputError(
      'sc-download-url',
      'is not an http:// or https:// address',
      'the address of a .tar.gz or .zip archive; `{version}` stands for `sc-version`',
    );
  }
  return {
    ...present('scPath', readFilePath('sc-path')),
    scVersion: version,
    ...present('scDownloadUrl', downloadUrl),
    scArgs: splitArgs(readString('sc-args') ?? ''),
    startRetries: readInteger('start-retries', 2, { min: 0, max: 10 }),
    statusAddress: checkAddress(readString('status-address') ?? 'localhost:8032'),
  };
}

/** Loaded only when a log is uploaded: the artifact client is large and needs the runner's token. */
async function artifactClient() {
  const { DefaultArtifactClient } = await import('@actions/artifact');
  return new DefaultArtifactClient();
}
