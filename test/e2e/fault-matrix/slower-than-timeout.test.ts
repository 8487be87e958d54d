/**
 * The fault matrix, end to end, on answers slower than `timeout`: every action's committed bundle,
 * run as the runner runs it (post step included) against an emulator of its own that holds one
 * answer far beyond the step's `timeout` of 3 s. Each row checks that the step ended on its
 * `timeout`, not on the answer: the exit code, the time taken, the message (what happened, and
 * what to do), the outputs, and what the service was left with (every job it started stopped).
 */
import { expect } from 'vitest';
import {
  describeRows,
  mobileState,
  SMOKE_BUILD,
  STEP,
  withWorkspace,
  type Row,
} from '../support/fault-matrix.ts';
import * as route from '../support/routes.ts';
import { SAUCE, type FaultSpec } from '../support/lab.ts';

// The answers come long after the `timeout` of 3 s, so that the steps' ends tell the one from the
// other even where a loaded machine takes seconds to start the steps' processes.
const late = (method: string, target: string): FaultSpec[] => [{ method, path: target, delayMs: 20_000 }];
const TUNNEL_OUTPUTS = { 'tunnel-id': '', tunnels: '[]', 'log-file': '' };

const rows: Row[] = [
  {
    name: 'upload-build: the upload is not taken in time',
    ...STEP.upload,
    faults: late('POST', route.UPLOAD),
    withinMs: 12_000,
    failure:
      /^The service did not take app-release\.apk within 3s of receiving it \(`timeout`\)\. It may still store the build: check the project's builds in Sauce Labs mobile app distribution before uploading again\. Raise `timeout`/,
    heading: 'Upload build: timed out',
    outputs: {},
    sent: [['POST', route.UPLOAD, [0]]],
    then: (lab) => expect(mobileState(lab).builds).toBe(0),
  },
  {
    name: 'run-suite-and-wait: the job listing',
    ...STEP.suite,
    faults: late('GET', route.JOBS),
    withinMs: 14_000,
    failure: new RegExp(
      `^Timed out while waiting for build "${SMOKE_BUILD}": 0 of 3 job\\(s\\) finished \\(0 passed, 0 failed\\); 3 did not finish and 3 were stopped\\. Raise \`timeout\` \\(now 3s\\)`,
    ),
    heading: 'Run suite and wait: timed out',
    outputsIncluding: { 'build-name': SMOKE_BUILD, total: '3', passed: '0', failed: '0' },
    jobs: 3,
    stopped: true,
    post: 'idle',
  },
  {
    name: 'run-js-tests: the status',
    ...STEP.js,
    // Queued for the first 4 s: the stop waits for each job to be assigned.
    lab: { jobDurationMs: 20_000 },
    faults: late('POST', route.JS_STATUS),
    withinMs: 15_000,
    failure:
      /^The JS tests did not finish within the timeout \(\d+s\)\. No platform finished\. Did not finish: Windows 11 \/ chrome \/ latest \(stopped before it finished\); Linux \/ firefox \/ 126 \(stopped before it finished\)\. Raise `timeout`/,
    heading: 'Run JS tests: timed out',
    outputsIncluding: { total: '2', passed: '0', failed: '0' },
    jobs: 2,
    stopped: true,
    post: 'idle',
  },
  {
    name: 'manage-tunnel list: the listing',
    action: 'manage-tunnel',
    inputs: { ...SAUCE, operation: 'list' },
    faults: late('GET', route.TUNNELS),
    withinMs: 12_000,
    failure:
      /^Timed out: the `timeout` of 3s passed during listTunnels\. Raise `timeout` if the step needs longer\.$/,
    outputs: TUNNEL_OUTPUTS,
    post: 'idle',
  },
  {
    name: 'manage-tunnel wait: the listing',
    ...STEP.tunnel,
    faults: late('GET', route.TUNNELS),
    withinMs: 12_000,
    failure:
      /^The tunnel named "demo-tunnel" of user demo was not running within 3s \(no answer yet\)\. .*raise `timeout`/,
    outputs: TUNNEL_OUTPUTS,
    post: 'idle',
  },
];

withWorkspace();
describeRows(
  'an answer slower than `timeout`',
  rows.map((row) => ({ ...row, exit: 1, inputs: { ...row.inputs, timeout: '3s' } })),
);
