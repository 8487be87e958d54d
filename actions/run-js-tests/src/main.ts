/** Entry point: reads the typed inputs, hands them to `run`, publishes outputs, annotations and the summary. */
import path from 'node:path';
import os from 'node:os';
import * as core from '@actions/core';
import {
  ActionError,
  createClient,
  readSauceConnection,
  runAction,
  sauceClientOptions,
  setOutputs,
} from '@sauce-actions/action-kit';
import { startCancellation } from '@sauce-actions/action-kit/cancellation';
import { annotateFailedJobs } from '@sauce-actions/action-kit/job-report';
import { readJsTestsInputs } from './inputs.ts';
import { jsTestsSummary, reportedJobs } from './report.ts';
import { run } from './run.ts';

await runAction({ title: 'Run JS tests' }, async (signal) => {
  const connection = readSauceConnection();
  const { timeoutMs, ...inputs } = readJsTestsInputs();
  const resultsFile = path.join(
    process.env.RUNNER_TEMP || os.tmpdir(),
    `run-js-tests-${process.env.GITHUB_ACTION || 'results'}.json`,
  );
  const client = createClient(sauceClientOptions(connection));
  const cancellation = startCancellation({
    timeoutMs,
    onAbort: (reason) =>
      core.warning(
        reason === 'timeout'
          ? 'The timeout passed: stopping the unfinished jobs.'
          : 'Cancelled: stopping the unfinished jobs.',
      ),
  });
  try {
    const result = await run(inputs, {
      client: client.automation,
      jobUrl: (jobId) => client.jobUrl(jobId),
      resultsFile,
      log: (line) => core.info(line),
      warn: (line) => core.warning(line),
      signal: AbortSignal.any([signal, cancellation.signal]),
      abortReason: () => cancellation.reason() ?? (signal.aborted ? 'cancelled' : undefined),
    });
    setOutputs(result.outputs);
    annotateFailedJobs(reportedJobs(result.report));
    await jsTestsSummary(result.report).write();
    if (result.failure !== undefined) throw new ActionError(result.failure);
  } finally {
    cancellation.dispose();
    await client.close();
  }
});
