/**
 * Answers that arrive broken, end to end: the committed bundles, run as the runner runs them,
 * against an emulator whose fault rules trickle an answer, send one without end, cut or garble
 * it, send an HTML page or a redirect in its place, or compress it. Each step stops in time,
 * reads no more than the client's limit, asks again where that is safe, and says what came.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FaultSpec } from '@sauce-actions/emulator';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeLabs,
  errorsOf,
  leakedSecrets,
  MOBILE,
  openLab,
  requestsTo,
  SAUCE,
  type ActionName,
  type Lab,
  type StepRun,
  warningsOf,
} from './support/lab.ts';
import { JOBS, SUITE_RUN, TUNNELS } from './support/routes.ts';

const SUITE_GREEN = { ...SAUCE, suite: 'Smoke', 'poll-interval': '1s', 'fail-on-failure': 'false' };

let lab: Lab;
let workspace: string;

beforeAll(async () => {
  lab = await openLab({ jobDurationMs: 1500 });
  workspace = await mkdtemp(path.join(os.tmpdir(), 'e2e-hostile-answers-'));
  await createSampleApk(path.join(workspace, 'app.apk'), {
    packageId: 'com.example.hostile',
    name: 'Hostile Shop',
    version: '2.0.0',
    versionCode: 2,
  });
});

afterAll(async () => {
  await closeLabs();
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

/** Adds a fault rule for an exact path, with the abilities that shape an answer. */
async function fault(rule: FaultSpec): Promise<void> {
  const response = await fetch(`${lab.url}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // An exact path, as an anchored expression.
    body: JSON.stringify({ ...rule, path: `/^${rule.path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$/` }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
}

async function step(action: ActionName, inputs: Record<string, string>): Promise<StepRun> {
  await lab.clearJournal();
  const result = await lab.step(action, inputs, { workspace });
  expect(leakedSecrets(result)).toEqual([]);
  return result;
}

/** The step's failure: the first error annotation. */
const failureOf = (result: StepRun): string => errorsOf(result)[0] ?? '';

describe('an answer that does not end in time', () => {
  it('upload-build: an answer trickled at a byte a second ends at `timeout`, body included', async () => {
    await fault({ method: 'POST', path: '/api/upload/', bytesPerSecond: 1 });
    const result = await step('upload-build', {
      'api-key': MOBILE['api-key'],
      file: 'app.apk',
      timeout: '3s',
    });
    expect(result.exitCode).toBe(1);
    expect(result.elapsedMs).toBeLessThan(15_000);
    expect(failureOf(result)).toMatch(/did not take app\.apk within 3s/);
  });

  it('run-suite-and-wait: a job listing without end stops at the size limit, and the run rides it out', async () => {
    await fault({
      method: 'GET',
      path: JOBS,
      status: 200,
      body: '[',
      endless: true,
      headers: { 'content-type': 'application/json' },
    });
    const result = await step('run-suite-and-wait', SUITE_GREEN);
    // One listing that could not be read does not end the run: the next poll finds the jobs.
    expect(result.exitCode, result.log).toBe(0);
    expect(result.outputs.total).toBe('3');
    // What came is the limit and what the last read brought past it: up to 64 KiB, as many as the
    // socket held when it was read, which a loaded machine lets grow.
    expect(warningsOf(result).join('\n')).toMatch(
      /listJobs: 200 the answer is larger than the 8\.0 MiB an answer may have: 8\.[01] MiB of application\/json came/,
    );
    // Not asked for again at once: an answer that large is not retried within the poll.
    expect(result.log).not.toMatch(/listJobs: .*retrying/);
    expect(lab.leftRunning()).toEqual([]);
  });
});

describe('a garbled answer', () => {
  it.each([
    ['cut off mid-body', { truncate: 30 }, 'UND_ERR_SOCKET'],
    [
      'complete as HTTP but not JSON',
      { status: 200, body: '[{"id":"', headers: { 'content-type': 'application/json' } },
      '200 answer unreadable (not JSON: cut short or garbled)',
    ],
    [
      'in gzip that does not decode',
      { status: 200, body: '[]', headers: { 'content-encoding': 'gzip' } },
      '200 answer unreadable (not JSON: cut short or garbled)',
    ],
  ] as const)(
    'run-suite-and-wait: a job listing %s is asked for again, and the run passes',
    async (_how, shape, told) => {
      await fault({ method: 'GET', path: JOBS, ...shape });
      const result = await step('run-suite-and-wait', SUITE_GREEN);
      expect(result.exitCode, result.log).toBe(0);
      expect(result.outputs.total).toBe('3');
      expect(result.log).toContain(`::warning::listJobs: ${told}; retrying`);
      expect(requestsTo(await lab.journal(), 'GET', JOBS).length).toBeGreaterThanOrEqual(2);
    },
  );

  it('run-suite-and-wait: an HTML page in place of the run’s answer says so, and that the run may have started', async () => {
    await fault({
      method: 'POST',
      path: SUITE_RUN,
      status: 200,
      body: '<!DOCTYPE html><html><head><title>Guest Wi-Fi: accept the terms</title></head></html>',
      headers: { 'content-type': 'text/html' },
    });
    const result = await step('run-suite-and-wait', SUITE_GREEN);
    expect(result.exitCode).toBe(1);
    const failure = failureOf(result);
    expect(failure).toMatch(
      /^A web page came instead of Sauce Labs' answer: runSuite: 200 an HTML page came/,
    );
    expect(failure).toContain('"Guest Wi-Fi: accept the terms"');
    expect(failure).toContain('captive portal');
    expect(failure).toContain('it may have started the suite run already');
    expect(result.summary).toContain('network trouble');
    expect(requestsTo(await lab.journal(), 'POST', SUITE_RUN)).toHaveLength(1);
  });

  it('manage-tunnel: a redirect names its Location and is not followed', async () => {
    await fault({
      method: 'GET',
      path: TUNNELS,
      status: 302,
      headers: { location: 'https://portal.example/login' },
    });
    const result = await step('manage-tunnel', { ...SAUCE, operation: 'list' });
    expect(result.exitCode).toBe(1);
    expect(failureOf(result)).toMatch(
      /^The address answered with a redirect instead of an answer: listTunnels: 302 redirected to https:\/\/portal\.example\/login .*check `api-url`/,
    );
    expect(requestsTo(await lab.journal(), 'GET', TUNNELS)).toHaveLength(1);
  });

  it.each(['gzip', 'br'] as const)(
    'manage-tunnel: an answer compressed with %s is read',
    async (compress) => {
      await fault({ method: 'GET', path: TUNNELS, compress });
      const result = await step('manage-tunnel', { ...SAUCE, operation: 'list' });
      expect(result.exitCode, result.log).toBe(0);
      expect(result.outputs.tunnels).toContain('demo-tunnel');
    },
  );
});
