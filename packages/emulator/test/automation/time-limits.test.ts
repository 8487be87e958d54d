/**
 * The automation interface's time limits (seed 002, Limits), driven through the emulator's clock
 * option: job assets kept 30 days, temporary storage 7 days, and a JS unit test's maxDuration
 * (default 180 seconds).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_USER, withEmulator } from '../support/emulator.ts';
import { call } from '../support/http.ts';

const SECOND = 1000;
const DAY = 86_400 * SECOND;
const START = Date.parse('2026-06-01T00:00:00.000Z');

/**
 * A clock that tests move forward; the emulator reads it. It is back at START before each test,
 * ahead of the emulator's start, so each test's emulator starts at START too.
 */
function movableClock() {
  let now = START;
  beforeEach(() => {
    now = START;
  });
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

interface JsStatus {
  completed: boolean;
  'js tests': { id: string; job_id: string; result: unknown }[];
}

describe('JS unit tests honour maxDuration', () => {
  const clock = movableClock();
  // Jobs take 10 s: 2 s queued, then 8 s running.
  const handle = withEmulator({ jobDurationMs: 10 * SECOND, clock: clock.now });
  const rest = (path: string) => `${handle.url}/rest/v1${path}`;

  async function start(body: Record<string, unknown>): Promise<string> {
    const answer = await call(rest(`/${DEMO_USER}/js-tests`), {
      method: 'POST',
      json: {
        platforms: [['Windows 11', 'chrome', 'latest']],
        url: 'https://example.com/tests.html',
        framework: 'qunit',
        ...body,
      },
    });
    expect(answer.status).toBe(200);
    const [id] = (answer.json as { 'js tests': string[] })['js tests'];
    return id!;
  }

  const status = async (id: string): Promise<JsStatus> =>
    (await call(rest(`/${DEMO_USER}/js-tests/status`), { method: 'POST', json: { 'js tests': [id] } }))
      .json as JsStatus;

  it('ends a run that outlasts its maximum duration in error, when the maximum is reached', async () => {
    const short = await start({ maxDuration: 2 });
    const long = await start({ maxDuration: 60 });

    clock.advance(3 * SECOND);
    expect((await status(short)).completed).toBe(false);

    // Started at 2 s, cut off 2 s later: 4 s after creation, where a full run would last 10 s.
    clock.advance(1 * SECOND);
    const cut = await status(short);
    expect(cut.completed).toBe(true);
    expect(cut['js tests'][0]!.result).toBe('Test exceeded maximum duration after 2 seconds');
    const job = (await call(rest(`/${DEMO_USER}/jobs/${cut['js tests'][0]!.job_id}`))).json as Record<
      string,
      unknown
    >;
    expect(job).toMatchObject({
      status: 'error',
      consolidated_status: 'error',
      passed: null,
      error: 'Test exceeded maximum duration after 2 seconds',
      start_time: Math.floor((START + 2 * SECOND) / 1000),
      end_time: Math.floor((START + 4 * SECOND) / 1000),
    });

    // A maximum the run stays within changes nothing.
    expect((await status(long)).completed).toBe(false);
    clock.advance(6 * SECOND);
    const whole = await status(long);
    expect(whole.completed).toBe(true);
    expect(whole['js tests'][0]!.result).toMatchObject({ passed: 3, total: 3 });
  });

  it('refuses a maxDuration that is not a positive whole number of seconds', async () => {
    for (const maxDuration of [0, -5, 1.5, 'long']) {
      const answer = await call(rest(`/${DEMO_USER}/js-tests`), {
        method: 'POST',
        json: {
          platforms: [['Windows 11', 'chrome', 'latest']],
          url: 'https://example.com/tests.html',
          framework: 'qunit',
          maxDuration,
        },
      });
      expect(answer.status).toBe(400);
    }
  });
});

describe('JS unit tests without maxDuration', () => {
  const clock = movableClock();
  // Jobs of 5 minutes: 1 minute queued, then longer than the default maximum of 180 s.
  const handle = withEmulator({ jobDurationMs: 300 * SECOND, clock: clock.now });

  it('end after the default 180 seconds of running', async () => {
    const started = await call(`${handle.url}/rest/v1/${DEMO_USER}/js-tests`, {
      method: 'POST',
      json: {
        platforms: [['Linux', 'firefox', '120']],
        url: 'https://example.com/t.html',
        framework: 'mocha',
      },
    });
    const [id] = (started.json as { 'js tests': string[] })['js tests'];
    const status = async () =>
      (
        await call(`${handle.url}/rest/v1/${DEMO_USER}/js-tests/status`, {
          method: 'POST',
          json: { 'js tests': [id] },
        })
      ).json as JsStatus;
    clock.advance(239 * SECOND);
    expect((await status()).completed).toBe(false);
    clock.advance(1 * SECOND);
    const answer = await status();
    expect(answer.completed).toBe(true);
    expect(answer['js tests'][0]!.result).toBe('Test exceeded maximum duration after 180 seconds');
  });
});

describe('retention of job assets and stored files', () => {
  const clock = movableClock();
  const handle = withEmulator({ jobDurationMs: 10 * SECOND, clock: clock.now });
  const rest = (path: string) => `${handle.url}/rest/v1${path}`;

  it('keeps a job’s assets 30 days after the job ends, then answers them as deleted', async () => {
    const { id } = handle.emulator.context.automation.jobs.create({
      name: 'kept',
      build: 'b',
      browser: 'chrome',
      os: 'Linux',
      passes: true,
      owner: DEMO_USER,
    });
    const assets = () => call(rest(`/${DEMO_USER}/jobs/${id}/assets`));
    const log = () => call(rest(`/${DEMO_USER}/jobs/${id}/assets/log.json`));

    clock.advance(10 * SECOND);
    expect((await assets()).json).toMatchObject({ 'sauce-log': 'log.json' });
    clock.advance(30 * DAY - SECOND);
    expect((await assets()).json).toMatchObject({ 'sauce-log': 'log.json' });
    expect((await log()).status).toBe(200);

    clock.advance(SECOND);
    expect((await assets()).json).toEqual({
      'sauce-log': null,
      'selenium-log': null,
      video: null,
      screenshots: null,
    });
    expect((await log()).status).toBe(404);
    // Only the assets go: the job stays.
    expect((await call(rest(`/${DEMO_USER}/jobs/${id}`))).json).toMatchObject({ id, status: 'complete' });
  });

  it('keeps a stored file 7 days from its upload, then forgets it and its name', async () => {
    const store = (query = '') =>
      call(rest(`/storage/${DEMO_USER}/app.zip${query}`), {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: 'bytes',
      });
    const files = async () =>
      ((await call(rest(`/storage/${DEMO_USER}`))).json as { files: { name: string; mtime: number }[] })
        .files;

    expect((await store()).status).toBe(200);
    expect(await files()).toEqual([expect.objectContaining({ name: 'app.zip', mtime: START / 1000 })]);
    clock.advance(7 * DAY - SECOND);
    expect((await files()).map((file) => file.name)).toEqual(['app.zip']);
    expect((await store()).status).toBe(409);

    clock.advance(SECOND);
    expect(await files()).toEqual([]);
    // The name is free again: storing it needs no overwrite.
    expect((await store()).status).toBe(200);
    expect((await files()).map((file) => file.mtime)).toEqual([(START + 7 * DAY) / 1000]);
  });
});
