/** Entry point: reads the typed inputs, hands them to `run`, publishes the outputs. */
import os from 'node:os';
import * as core from '@actions/core';
import {
  createClient,
  InputError,
  present,
  readBoolean,
  readDuration,
  readEnum,
  readSauceConnection,
  readString,
  runAction,
  sauceClientOptions,
  setOutputs,
  workspaceDir,
} from '@sauce-actions/action-kit';
import { collectJobAssets } from '@sauce-actions/action-kit/assets-artifact';
import { startCancellation } from '@sauce-actions/action-kit/cancellation';
import path from 'node:path';
import { run, RunVerdict, type RunInputs } from './run.ts';
import { parseTargets, parseTestCases } from './selection.ts';

await runAction({ title: 'Run suite and wait' }, async (actionSignal) => {
  const connection = readSauceConnection();
  const suite = readString('suite');
  const testCasesText = readString('test-cases');
  if ((suite === undefined) === (testCasesText === undefined)) {
    throw new InputError(
      'suite',
      suite === undefined ? 'and `test-cases` are both empty' : 'and `test-cases` are both set',
      'either a suite (id or exact name) or a list of test case ids',
    );
  }
  const targetsText = readString('targets');
  const junitFile = readString('junit-file');
  const inputs: RunInputs = {
    ...present('suite', suite),
    ...present('testCases', testCasesText !== undefined ? parseTestCases(testCasesText) : undefined),
    ...present('targets', targetsText !== undefined ? parseTargets(targetsText) : undefined),
    ...present('buildName', readString('build-name')),
    ...present('tunnelName', readString('tunnel-name')),
    failOnFailure: readBoolean('fail-on-failure', true),
    stopOnCancel: readBoolean('stop-on-cancel', true),
    downloadAssets: readEnum('download-assets', ['none', 'failed', 'all'], 'none'),
    ...present('junitFile', junitFile !== undefined ? path.resolve(workspaceDir(), junitFile) : undefined),
    pollIntervalMs: readDuration('poll-interval', 10_000, { minMs: 1000, maxMs: 600_000 }),
  };
  const timeoutMs = readDuration('timeout', 60 * 60_000, { minMs: 1000 });
  const cancellation = startCancellation({
    timeoutMs,
    onAbort: (reason) =>
      core.info(
        reason === 'timeout' ? 'Timeout reached: stopping the wait.' : 'Cancelled: stopping the wait.',
      ),
  });
  const client = createClient(sauceClientOptions(connection));
  const outputDir = process.env.RUNNER_TEMP || os.tmpdir();
  try {
    const outputs = await run(inputs, {
      authoring: client.authoring,
      jobs: client.automation.jobs,
      jobUrl: (id) => client.jobUrl(id),
      log: (line) => core.info(line),
      signal: AbortSignal.any([cancellation.signal, actionSignal]),
      reason: () => cancellation.reason() ?? (actionSignal.aborted ? 'cancelled' : undefined),
      outputDir,
      collectAssets: (jobs) =>
        collectJobAssets({
          assets: client.automation.assets,
          jobs,
          dir: path.join(outputDir, 'sauce-job-assets'),
          artifactName: `sauce-job-assets-${process.env.GITHUB_JOB ?? 'run'}`,
          log: (line) => core.info(line),
          signal: AbortSignal.timeout(5 * 60_000),
        }),
    });
    setOutputs(outputs);
  } catch (error) {
    if (error instanceof RunVerdict) setOutputs(error.outputs);
    throw error;
  } finally {
    cancellation.dispose();
    await client.close();
  }
});
