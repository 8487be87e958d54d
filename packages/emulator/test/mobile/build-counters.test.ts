/**
 * `PATCH /_emulator/builds/:id`: a build's counters as a test plays its life (sessions, crashes,
 * feedbacks, downloads), shown by the build's v1 reads; refusals name what is wrong.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, start, uploadApk, type Harness } from './helpers.ts';

let h: Harness;
beforeEach(async () => {
  h = await start();
});
afterEach(async () => {
  await h.close();
});

const counters = (id: number | string, json: unknown) =>
  call(h, 'PATCH', `/_emulator/builds/${id}`, { json, auth: null });

describe("a build's counters", () => {
  it('start at 0, and show what was set, one counter at a time', async () => {
    const { projectId, buildId } = await uploadApk(h, 'com.example.counters', '1.0');
    const read = async () =>
      ((await call(h, 'GET', `/api/1/projects/${projectId}/builds/${buildId}`)).body.build ?? {}) as Record<
        string,
        unknown
      >;
    expect(await read()).toMatchObject({ sessions: 0, crashes: 0, feedbacks: 0, downloads: 0 });
    const set = await counters(buildId, { sessions: 40, crashes: 2 });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ id: buildId, sessions: 40, crashes: 2, feedbacks: 0, downloads: 0 });
    await counters(buildId, { feedbacks: 3, downloads: 9 });
    expect(await read()).toMatchObject({ sessions: 40, crashes: 2, feedbacks: 3, downloads: 9 });
    const listed = (await call(h, 'GET', `/api/1/projects/${projectId}/builds/`)).body.builds as unknown[];
    expect(listed).toEqual([
      expect.objectContaining({ id: buildId, sessions: 40, crashes: 2, feedbacks: 3 }),
    ]);
  });

  it.each<[string, unknown, number, RegExp]>([
    [
      'an unknown member',
      { installs: 1 },
      400,
      /unknown member "installs": the counters are sessions, crashes, feedbacks, downloads/,
    ],
    ['a negative count', { crashes: -1 }, 400, /crashes.*>= 0/],
    ['a count that is no whole number', { sessions: 1.5 }, 400, /sessions.*integer/],
    ['a count as text', { sessions: 'many' }, 400, /sessions.*integer/],
  ])('refuses %s', async (_, body, status, said) => {
    const { buildId } = await uploadApk(h, 'com.example.refused', '1.0');
    const answer = await counters(buildId, body);
    expect(answer.status).toBe(status);
    expect(String(answer.body.message)).toMatch(said);
  });

  it('answers 404 for a build that is not there', async () => {
    const answer = await counters(999_999, { sessions: 1 });
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe('No build 999999');
  });
});
