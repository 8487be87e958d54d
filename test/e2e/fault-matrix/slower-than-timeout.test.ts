/**
 * The fault matrix, end to end, on answers slower than `timeout`: every action's committed bundle,
 * run as the runner runs it (post step included) against an emulator of its own that holds one
 * answer far beyond the step's `timeout`. Each case checks that the step ended on its `timeout`,
 * not on the answer: the exit code, the time taken, the message (what happened, and what to do),
 * the outputs, and what the service was left with (every job it started stopped).
 */
import { describe, expect, it } from 'vitest';
import {
  expectIdlePost,
  expectOutputs,
  failureOf,
  JOB_STOP,
  jobIdsOf,
  JOBS,
  JS_INPUTS,
  JS_STATUS,
  lastHeading,
  mobileState,
  SMOKE_BUILD,
  sortedIds,
  step,
  SUITE_INPUTS,
  TUNNEL_INPUTS,
  TUNNELS,
  UPLOAD,
  UPLOAD_INPUTS,
  withWorkspace,
  type ExpectedOutputs,
} from '../support/fault-matrix.ts';
import {
  openLab,
  requestsTo,
  SAUCE,
  type ActionName,
  type FaultSpec,
  type Lab,
  type StepRun,
} from '../support/lab.ts';

withWorkspace();

// The answers come long after the `timeout` of 3 s, so that the steps' ends tell the one from the
// other even where a loaded machine takes seconds to start the steps' processes.
const LATE_MS = 20_000;

describe.concurrent('an answer slower than `timeout`', () => {
  const TUNNEL_OUTPUTS = { exactly: { 'tunnel-id': '', tunnels: '[]', 'log-file': '' } };
  const rows: {
    name: string;
    action: ActionName;
    jobDurationMs?: number;
    late: FaultSpec;
    inputs: Record<string, string>;
    /** The step ends on its own `timeout` of 3 s, well before the late answer. */
    withinMs: number;
    failure: RegExp;
    heading?: string;
    outputs: ExpectedOutputs;
    then: (lab: Lab, result: StepRun) => Promise<void>;
  }[] = [
    {
      name: 'upload-build: the upload is not taken in time',
      action: 'upload-build',
      late: { method: 'POST', path: UPLOAD, delayMs: LATE_MS },
      inputs: UPLOAD_INPUTS,
      withinMs: 12_000,
      failure:
        /^The service did not take app-release\.apk within 3s of receiving it \(`timeout`\)\. It may still store the build: check the project's builds in Sauce Labs mobile app distribution before uploading again\. Raise `timeout`/,
      heading: 'Upload build: timed out',
      outputs: { exactly: {} },
      then: async (lab) => {
        expect(requestsTo(await lab.journal(), 'POST', UPLOAD)).toHaveLength(1);
        expect(mobileState(lab).builds).toBe(0);
      },
    },
    {
      name: 'run-suite-and-wait: the job listing',
      action: 'run-suite-and-wait',
      late: { method: 'GET', path: JOBS, delayMs: LATE_MS },
      inputs: SUITE_INPUTS,
      withinMs: 14_000,
      failure: new RegExp(
        `^Timed out while waiting for build "${SMOKE_BUILD}": 0 of 3 job\\(s\\) finished \\(0 passed, 0 failed\\); 3 did not finish and 3 were stopped\\. Raise \`timeout\` \\(now 3s\\)`,
      ),
      heading: 'Run suite and wait: timed out',
      outputs: { including: { 'build-name': SMOKE_BUILD, total: '3', passed: '0', failed: '0' } },
      then: async (lab, result) => {
        expect(sortedIds(result.outputs['job-ids'])).toEqual(jobIdsOf(lab));
        expect(lab.jobs().map((job) => job.stoppedMs !== null)).toEqual([true, true, true]);
        expect(lab.leftRunning()).toEqual([]);
        expect(requestsTo(await lab.journal(), 'PUT', JOB_STOP)).toHaveLength(3);
        expectIdlePost(result);
      },
    },
    {
      name: 'run-js-tests: the status',
      action: 'run-js-tests',
      // Queued for the first 4 s: the stop waits for each job to be assigned.
      jobDurationMs: 20_000,
      late: { method: 'POST', path: JS_STATUS, delayMs: LATE_MS },
      inputs: JS_INPUTS,
      withinMs: 15_000,
      failure:
        /^The JS tests did not finish within the timeout \(\d+s\)\. No platform finished\. Did not finish: Windows 11 \/ chrome \/ latest \(stopped before it finished\); Linux \/ firefox \/ 126 \(stopped before it finished\)\. Raise `timeout`/,
      heading: 'Run JS tests: timed out',
      outputs: { including: { total: '2', passed: '0', failed: '0' } },
      then: async (lab, result) => {
        expect(sortedIds(result.outputs['job-ids'])).toEqual(jobIdsOf(lab));
        expect(lab.jobs().map((job) => job.stoppedMs !== null)).toEqual([true, true]);
        expect(lab.leftRunning()).toEqual([]);
        expectIdlePost(result);
      },
    },
    {
      name: 'manage-tunnel list: the listing',
      action: 'manage-tunnel',
      late: { method: 'GET', path: TUNNELS, delayMs: LATE_MS },
      inputs: { ...SAUCE, operation: 'list' },
      withinMs: 12_000,
      failure:
        /^Timed out: the `timeout` of 3s passed during listTunnels\. Raise `timeout` if the step needs longer\.$/,
      outputs: TUNNEL_OUTPUTS,
      then: async (_lab, result) => expectIdlePost(result),
    },
    {
      name: 'manage-tunnel wait: the listing',
      action: 'manage-tunnel',
      late: { method: 'GET', path: TUNNELS, delayMs: LATE_MS },
      inputs: TUNNEL_INPUTS,
      withinMs: 12_000,
      failure:
        /^The tunnel named "demo-tunnel" of user demo was not running within 3s \(no answer yet\)\. .*raise `timeout`/,
      outputs: TUNNEL_OUTPUTS,
      then: async (_lab, result) => expectIdlePost(result),
    },
  ];

  it.each(rows)(
    '$name',
    async ({ action, jobDurationMs, late, inputs, withinMs, failure, heading, outputs, then }) => {
      const lab = await openLab(jobDurationMs !== undefined ? { jobDurationMs } : {});
      await lab.fault(late);
      const result = await step(lab, action, { ...inputs, timeout: '3s' });
      expect(result.exitCode).toBe(1);
      expect(result.elapsedMs).toBeLessThan(withinMs);
      expect(failureOf(result)).toMatch(failure);
      if (heading !== undefined) expect(lastHeading(result)).toBe(heading);
      expectOutputs(result, outputs);
      await then(lab, result);
    },
  );
});
