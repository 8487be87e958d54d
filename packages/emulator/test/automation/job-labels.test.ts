/**
 * A job's `tags` and `custom-data` as `PUT /rest/v1/:username/jobs/:id` sets them, read back from
 * the job and from the full job list; custom-data of up to 64 KiB (compact JSON) is kept, a
 * larger one refused with 413 and the job left as it was.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_USER, sleep, withEmulator } from '../support/emulator.ts';
import { call } from '../support/http.ts';

const LIMIT = 64 * 1024;

/** Custom-data whose compact JSON is exactly `bytes` long: one member holding filler text. */
function customDataOf(bytes: number, filler = 'x'): { history: string } {
  const overhead = JSON.stringify({ history: '' }).length;
  const fillerBytes = Buffer.byteLength(filler);
  if ((bytes - overhead) % fillerBytes !== 0) throw new Error(`no filler of ${filler} makes ${bytes} bytes`);
  return { history: filler.repeat((bytes - overhead) / fillerBytes) };
}

describe("a job's tags and custom-data", () => {
  const handle = withEmulator({ jobDurationMs: 30 });
  const rest = (path: string) => `${handle.url}/rest/v1/${DEMO_USER}${path}`;
  const newJob = () =>
    handle.emulator.context.automation.jobs.create({
      name: 'labelled',
      build: 'labels',
      browser: 'chrome',
      os: 'Linux',
      passes: true,
      tags: ['seeded'],
      customData: { from: 'creation' },
    }).id;

  /** The job's tags and custom-data as the job and the full list each answer them. */
  async function labelsOf(id: string) {
    const single = (await call(rest(`/jobs/${id}`))).json as Record<string, unknown>;
    const list = (await call(rest('/jobs?full=true&limit=1000'))).json as Record<string, unknown>[];
    const listed = list.find((job) => job['id'] === id)!;
    const pick = (job: Record<string, unknown>) => ({ tags: job['tags'], customData: job['custom-data'] });
    return { single: pick(single), listed: pick(listed), status: single['status'] };
  }

  it.each([
    {
      row: 'tags alone',
      put: { tags: ['nightly', 'run-7'] },
      tags: ['nightly', 'run-7'],
      customData: { from: 'creation' },
    },
    { row: 'no tags', put: { tags: [] }, tags: [], customData: { from: 'creation' } },
    {
      row: 'custom-data alone, nested',
      put: { 'custom-data': { history: [{ night: 1, passed: false }], note: 'ünïcode' } },
      tags: ['seeded'],
      customData: { history: [{ night: 1, passed: false }], note: 'ünïcode' },
    },
    { row: 'custom-data null', put: { 'custom-data': null }, tags: ['seeded'], customData: null },
    {
      row: 'both, with custom-data of exactly 64 KiB',
      put: { tags: ['big'], 'custom-data': customDataOf(LIMIT) },
      tags: ['big'],
      customData: customDataOf(LIMIT),
    },
    {
      row: 'custom-data of 64 KiB in two-byte characters',
      put: { 'custom-data': customDataOf(LIMIT, 'é') },
      tags: ['seeded'],
      customData: customDataOf(LIMIT, 'é'),
    },
  ])('keeps $row, in the job and in the full list', async ({ put, tags, customData }) => {
    const id = newJob();
    const updated = await call(rest(`/jobs/${id}`), { method: 'PUT', json: put });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ tags, 'custom-data': customData });
    expect(await labelsOf(id)).toMatchObject({ single: { tags, customData }, listed: { tags, customData } });
    // And once the job has ended.
    while ((await labelsOf(id)).status !== 'complete') await sleep(10);
    expect(await labelsOf(id)).toMatchObject({ single: { tags, customData }, listed: { tags, customData } });
  });

  it('counts the compact JSON: whitespace a client sends does not count', async () => {
    const id = newJob();
    const spaced = JSON.stringify({ 'custom-data': customDataOf(LIMIT) }, null, 8).replace(':', ' :   ');
    const updated = await call(rest(`/jobs/${id}`), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: spaced,
    });
    expect(updated.status).toBe(200);
    expect((await labelsOf(id)).single.customData).toEqual(customDataOf(LIMIT));
  });

  it.each([
    {
      row: 'one byte over 64 KiB',
      customData: customDataOf(LIMIT + 1),
      code: 'custom_data_too_large',
      says: /65537 bytes of JSON, more than the 65536/,
    },
    {
      row: 'over 64 KiB in two-byte characters',
      customData: customDataOf(LIMIT + 2, 'é'),
      code: 'custom_data_too_large',
      says: /65538 bytes/,
    },
    {
      row: 'a body over 1 MiB',
      customData: customDataOf(1024 * 1024 + 14),
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
      says: /too large/,
    },
  ])('refuses custom-data $row with 413, leaving the job as it was', async ({ customData, code, says }) => {
    const id = newJob();
    const refused = await call(rest(`/jobs/${id}`), {
      method: 'PUT',
      json: { tags: ['never'], 'custom-data': customData },
    });
    expect(refused.status).toBe(413);
    expect(refused.json).toMatchObject({ code });
    expect((refused.json as { message: string }).message).toMatch(says);
    const unchanged = { tags: ['seeded'], customData: { from: 'creation' } };
    expect(await labelsOf(id)).toMatchObject({ single: unchanged, listed: unchanged });
  });
});
