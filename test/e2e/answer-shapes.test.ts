/**
 * Answers of the wrong shape, end to end on the committed bundles: a field the actions read holds
 * another type than the interface documents. Each step fails as service trouble naming the
 * operation and the field, keeps the outputs it already knew, and the post step still stops what
 * was started.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_STOP, JS_START, JS_STATUS } from './support/routes.ts';
import { closeLabs, errorsOf, openLab, requestsTo, SAUCE, type FaultSpec, type Lab } from './support/lab.ts';

const JS_INPUTS = {
  ...SAUCE,
  url: 'https://example.com/tests.html',
  framework: 'custom',
  platforms: 'Linux / firefox / 126',
  'poll-interval': '1s',
};

/** Three status answers whose `js tests` is text, not a list; the later ones show the job. */
const WRONG_SHAPED_STATUS: FaultSpec = {
  method: 'POST',
  path: JS_STATUS,
  status: 200,
  body: { completed: false, 'js tests': 'none' },
  times: 3,
};

let lab: Lab;
let workspace: string;

beforeAll(async () => {
  // Jobs stay queued for 2 s, then run 8 s: long enough to be stopped, short enough to wait for.
  lab = await openLab({ jobDurationMs: 10_000 });
  workspace = await mkdtemp(path.join(os.tmpdir(), 'e2e-answer-shapes-'));
  await createSampleApk(path.join(workspace, 'app-release.apk'), {
    packageId: 'com.example.shapes',
    name: 'Shapes',
    version: '2.0.1',
    versionCode: 21,
  });
});

afterAll(async () => {
  await closeLabs();
  await rm(workspace, { recursive: true, force: true });
});

describe('upload-build', () => {
  it('download_page_url: 42 after a stored upload: service trouble naming the field, with the ids', async () => {
    await lab.fault({
      method: 'POST',
      path: '/api/upload/',
      status: 200,
      body: {
        status: 'ok',
        build_id: 7,
        project_id: 3,
        app_name: 'Shapes',
        app_version: '2.0.1',
        download_page_url: 42,
      },
    });
    const step = await lab.step(
      'upload-build',
      { 'api-key': 'demo-api-key', file: 'app-release.apk' },
      { workspace },
    );

    expect(step.exitCode).toBe(1);
    const [failure] = errorsOf(step);
    expect(failure).toMatch(/^Sauce Labs answered in a form the action cannot read: uploadBuild: /);
    expect(failure).toContain("the answer's `download_page_url` is the number 42, where text was expected");
    expect(failure).toContain('stored the build');
    expect(step.log).not.toContain('Unexpected error');
    // What the answer said right is published: the ids, and the links built from them.
    expect(step.outputs).toMatchObject({
      'build-id': '7',
      'project-id': '3',
      'app-name': 'Shapes',
      'app-version': '2.0.1',
      'download-page-url': '',
      'build-url': `${lab.url}/projects/3/builds/7`,
    });
    expect(step.summary).toContain('service trouble');
  });
});

describe('run-js-tests', () => {
  it('a start answered {"js tests": "none"}: fails naming startJsTests and the field, post step clean', async () => {
    await lab.fault({ method: 'POST', path: JS_START, status: 200, body: { 'js tests': 'none' } });
    const step = await lab.step('run-js-tests', JS_INPUTS);

    expect(step.exitCode).toBe(1);
    const [failure] = errorsOf(step);
    expect(failure).toContain(
      'startJsTests: the answer\'s `js tests` is text "none", where a list was expected',
    );
    expect(failure).toContain('check the jobs on the Sauce Labs dashboard');
    expect(step.outputs.total).toBe('1');
    expect(step.log).not.toContain('Unexpected error');
    expect(step.post?.exitCode ?? 0).toBe(0);
    expect(step.post?.log ?? '').not.toContain('Unexpected error');
  });

  it('a status of the wrong shape after a good start: the main step fails clearly and the job is stopped', async () => {
    await lab.clearJournal();
    // The first answers are wrong; the later ones show the job, which is then stopped.
    await lab.fault(WRONG_SHAPED_STATUS);
    const step = await lab.step('run-js-tests', JS_INPUTS);

    expect(step.exitCode).toBe(1);
    const [failure] = errorsOf(step).slice(-1);
    expect(failure).toContain(
      'getJsTestStatus: the answer\'s `js tests` is text "none", where a list was expected',
    );
    expect(`${step.log}\n${step.post?.log ?? ''}`).not.toContain('Unexpected error');
    expect(step.post?.exitCode ?? 0).toBe(0);
    const journal = await lab.journal();
    expect(requestsTo(journal, 'PUT', JOB_STOP)).toHaveLength(1);
    expect(lab.leftRunning()).toEqual([]);
  });

  it('the main step killed after the start, the status wrong-shaped: the post step rides it out and stops the job', async () => {
    await lab.clearJournal();
    await lab.fault(WRONG_SHAPED_STATUS);
    const step = await lab.step('run-js-tests', JS_INPUTS, {
      cancelOn: /Started the JS tests/,
      cancelSignal: 'SIGKILL',
    });

    expect(step.post?.exitCode).toBe(0);
    expect(step.post?.log).not.toContain('Unexpected error');
    expect(step.post?.log).toMatch(/Stopped 1 unfinished job\(s\)/);
    const journal = await lab.journal();
    // Every wrong answer was read, by the main step or the post step, and the job was stopped.
    expect(requestsTo(journal, 'POST', JS_STATUS).length).toBeGreaterThan(3);
    expect(requestsTo(journal, 'PUT', JOB_STOP)).toHaveLength(1);
    expect(lab.leftRunning()).toEqual([]);
  });
});

describe('manage-tunnel', () => {
  it('a tunnel whose status cannot be read in the post step is deleted all the same', async () => {
    await lab.clearJournal();
    await lab.fault({
      method: 'GET',
      path: /^\/rest\/v1\/demo\/tunnels\/[^/]+$/,
      status: 200,
      body: { id: 7 },
    });
    const step = await lab.step('manage-tunnel', {
      ...SAUCE,
      operation: 'wait',
      'tunnel-name': 'demo-tunnel',
      'stop-on-exit': 'true',
      'poll-interval': '1s',
    });

    expect(step.exitCode, step.log).toBe(0);
    expect(step.post?.exitCode, step.post?.log).toBe(0);
    expect(step.post?.log).not.toContain('Unexpected error');
    const journal = await lab.journal();
    expect(requestsTo(journal, 'GET', /^\/rest\/v1\/demo\/tunnels\/[^/]+$/).map((e) => e.status)).toEqual([
      200,
    ]);
    expect(requestsTo(journal, 'DELETE', `/rest/v1/demo/tunnels/${step.outputs['tunnel-id']}`)).toHaveLength(
      1,
    );
  });
});
