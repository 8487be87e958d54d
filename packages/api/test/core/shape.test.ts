/**
 * The answer checks: each guard on its own, then every checked operation against the emulator,
 * its answer replaced by one of the wrong shape (a fault rule with status 200 and a body).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  boolean,
  checkAnswer,
  describeValue,
  either,
  id,
  list,
  number,
  optional,
  present,
  record,
  ResponseShapeError,
  text,
  type Shape,
} from '../../src/core/resources/shape.ts';
import { SauceClient } from '../../src/index.ts';

describe('shape guards', () => {
  it.each<[string, unknown, string | undefined, Shape]>([
    ['text', 'a', undefined, text],
    ['text', 42, 'text', text],
    ['text', null, 'text', text],
    ['number', 4, undefined, number],
    ['number', Number.NaN, 'a number', number],
    ['number', '4', 'a number', number],
    ['boolean', false, undefined, boolean],
    ['boolean', 'false', 'true or false', boolean],
    ['id', '0a1b', undefined, id],
    ['id', 12, undefined, id],
    ['id', '', 'an id (text or a whole number)', id],
    ['id', 1.5, 'an id (text or a whole number)', id],
    ['id', null, 'an id (text or a whole number)', id],
    ['optional text', undefined, undefined, optional(text)],
    ['optional text', null, undefined, optional(text)],
    ['optional text', 42, 'text', optional(text)],
    ['text or id', 3, undefined, either(text, number)],
    ['text or id', true, 'text or a number', either(text, number)],
    ['present', null, undefined, present],
    ['present', undefined, 'a value', present],
    ['list', [], undefined, list()],
    ['list', 'none', 'a list', list()],
    ['record', {}, undefined, record()],
    ['record', [], 'an object', record()],
    ['record', 'x', 'an object', record()],
  ])('%s of %j: expects %s', (_name, value, expected, shape) => {
    expect(shape(value, 'f')?.expected).toBe(expected);
  });

  it.each<[unknown, Shape, string]>([
    [{ a: 1 }, record({ a: text }), 'a'],
    [{ a: { b: [1, 'x'] } }, record({ a: record({ b: list(number) }) }), 'a.b[1]'],
    [{ 'js tests': [{ id: 'x' }, {}] }, record({ 'js tests': list(record({ id })) }), 'js tests[1].id'],
    [['a', 2], list(text), '[1]'],
  ])('names the field of %j', (value, shape, field) => {
    expect(shape(value, '(the answer)')?.field).toBe(field);
  });

  it.each<[unknown, string]>([
    [undefined, 'missing'],
    [null, 'null'],
    [42, 'the number 42'],
    ['none', 'text "none"'],
    ['a\nb', 'text "a b"'],
    ['x'.repeat(60), `text "${'x'.repeat(37)}..."`],
    [true, 'true'],
    [[1, 2], 'a list of 2'],
    [{}, 'an object'],
  ])('describes %j as %s', (value, words) => {
    expect(describeValue(value)).toBe(words);
  });

  it('throws a ResponseShapeError with the operation, the field, what was expected and what came', () => {
    const request = { operation: 'uploadBuild', method: 'POST' as const, path: '/api/upload/' };
    const answer = { build_id: 7, download_page_url: 42 };
    let caught: unknown;
    try {
      checkAnswer(request, answer, record({ build_id: id, download_page_url: optional(text) }));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ResponseShapeError);
    expect(caught).toMatchObject({
      operation: 'uploadBuild',
      field: 'download_page_url',
      expected: 'text',
      got: 'the number 42',
      answer,
      message:
        "uploadBuild: the answer's `download_page_url` is the number 42, where text was expected (POST /api/upload/)",
    });
    expect(checkAnswer(request, { build_id: 7 }, record({ build_id: id }))).toEqual({ build_id: 7 });
  });
});

describe('operations check the fields their callers read', () => {
  let emulator: RunningEmulator;
  let client: SauceClient;
  let dir: string;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    client = new SauceClient({
      apiUrl: emulator.url,
      username: 'demo',
      accessKey: 'demo-access-key',
      email: 'demo@example.com',
      apiKey: 'demo-api-key',
      retry: { retries: 0 },
    });
    dir = await mkdtemp(path.join(os.tmpdir(), 'shape-'));
    await writeFile(path.join(dir, 'app.apk'), 'not an apk: the fault answers first');
  });

  afterAll(async () => {
    await client.close();
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  });

  const fault = async (method: string, route: string, body: unknown): Promise<void> => {
    const response = await fetch(`${emulator.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method, path: `/^${route.replace(/[/.?]/g, '\\$&')}$/`, status: 200, body }),
    });
    expect(response.ok).toBe(true);
  };

  const AI = '/v1/ai-authoring';
  const SUITE = '3e0a6b2d-8c41-4f7a-9b5e-6d2c1a0f9e01';
  it.each<[string, string, string, unknown, () => Promise<unknown>, string]>([
    [
      'uploadBuild',
      'POST',
      '/api/upload/',
      { status: 'ok', build_id: 7, project_id: 3, download_page_url: 42 },
      () => client.mobile.upload(path.join(dir, 'app.apk')),
      'download_page_url',
    ],
    [
      'uploadBuild',
      'POST',
      '/api/upload/',
      { status: 'ok', project_id: 3 },
      () => client.mobile.upload(path.join(dir, 'app.apk')),
      'build_id',
    ],
    [
      'getBuild',
      'GET',
      '/api/1/projects/1/builds/1',
      { status: 'ok', build: 'x' },
      () => client.mobile.builds.get(1, 1),
      'build',
    ],
    [
      'listProjects',
      'GET',
      '/api/2/projects/',
      { status: 'ok', projects: {} },
      () => client.mobile.projects.list(),
      'projects',
    ],
    [
      'listTesterGroups',
      'GET',
      '/api/1/testers/groups',
      { status: 'ok', groups: [{ id: 1, name: 7 }] },
      () => client.mobile.testerGroups.list(),
      'groups[0].name',
    ],
    [
      'createTesterGroup',
      'POST',
      '/api/1/testers/groups',
      { status: 'ok', name: 'qa' },
      () => client.mobile.testerGroups.create('qa'),
      'id',
    ],
    [
      'inviteToBuild',
      'POST',
      '/api/1/projects/1/builds/1/invites/',
      ['invited'],
      () => client.mobile.builds.invite(1, 1, { groups: ['qa'] }),
      '(the answer)',
    ],
    [
      'listTestSuites',
      'GET',
      `${AI}/testsuites`,
      { data: { items: [{ id: SUITE }], total: 1 } },
      () => client.authoring.testSuites.list(),
      'data.items[0].name',
    ],
    [
      'getTestSuite',
      'GET',
      `${AI}/testsuites/${SUITE}`,
      { data: null },
      () => client.authoring.testSuites.get(SUITE),
      'data',
    ],
    [
      'runSuite',
      'POST',
      `${AI}/testsuites/${SUITE}/run`,
      { data: { id: 'r', buildName: 'b', runCount: '3' } },
      () => client.authoring.testSuites.run(SUITE),
      'data.runCount',
    ],
    [
      'listTestCases',
      'GET',
      `${AI}/testcases`,
      { data: { items: 'none', total: 0 } },
      () => client.authoring.testCases.list(),
      'data.items',
    ],
    [
      'runTestCase',
      'POST',
      `${AI}/testcases/65f1c0ffee0123456789abcd/run`,
      { data: { build: 'b', jobs: [{ sauceJobId: 5 }] } },
      () => client.authoring.testCases.run('65f1c0ffee0123456789abcd'),
      'data.jobs[0].sauceJobId',
    ],
    [
      'listJobs',
      'GET',
      '/rest/v1/demo/jobs',
      [{ id: 'j', status: 'complete', build: 7, creation_time: 1_700_000_000 }],
      () => client.automation.jobs.list({ full: true }),
      '[0].build',
    ],
    [
      'getJob',
      'GET',
      '/rest/v1/demo/jobs/abc',
      { id: 'abc', status: 'complete', creation_time: 1, error: { why: 1 } },
      () => client.automation.jobs.get('abc'),
      'error',
    ],
    [
      'startJsTests',
      'POST',
      '/rest/v1/demo/js-tests',
      { 'js tests': 'none' },
      () =>
        client.automation.jsTests.start({
          platforms: [['Linux', 'firefox', '126']],
          url: 'https://example.com/t.html',
          framework: 'custom',
        }),
      'js tests',
    ],
    [
      'getJsTestStatus',
      'POST',
      '/rest/v1/demo/js-tests/status',
      { 'js tests': 'none' },
      () => client.automation.jsTests.getStatus(['t']),
      'completed',
    ],
    [
      'getJsTestStatus',
      'POST',
      '/rest/v1/demo/js-tests/status',
      { completed: false, 'js tests': 'none' },
      () => client.automation.jsTests.getStatus(['t']),
      'js tests',
    ],
    [
      'listTunnels',
      'GET',
      '/rest/v1/demo/tunnels',
      [{ id: 't', tunnel_identifier: ['demo'] }],
      () => client.automation.tunnels.list({ full: true }),
      '[0].tunnel_identifier',
    ],
    [
      'getTunnel',
      'GET',
      '/rest/v1/demo/tunnels/t',
      { status: 'running' },
      () => client.automation.tunnels.get('t'),
      'id',
    ],
  ])('%s (%s %s): names the field', async (operation, method, route, body, call, field) => {
    await fault(method, route, body);
    const error = await call().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error).toMatchObject({ operation, field });
    expect((error as Error).message).toContain(`${operation}: the answer's`);
  });

  it('passes the answers the emulator gives as they are', async () => {
    const suites = await client.authoring.testSuites.list();
    expect(suites.items.map((suite) => suite.name)).toContain('Smoke');
    expect(await client.automation.tunnels.list({ full: true })).not.toEqual([]);
    expect(Array.isArray(await client.automation.jobs.list({ full: true }))).toBe(true);
    expect((await client.mobile.testerGroups.list()).groups).toBeDefined();
  });
});
