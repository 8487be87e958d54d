import { describe, expect, it } from 'vitest';
import { basic, withEmulator } from '../support/emulator.ts';
import { SCREENSHOT_ARTIFACT_ID, UNKNOWN_UUID } from './fixtures.ts';
import { PREFIX } from './http.ts';

describe('authoring storage', () => {
  const handle = withEmulator({ jobDurationMs: 50 });
  const download = (id: string, auth: string | null = basic()) =>
    fetch(new URL(`${PREFIX}/storage/${id}`, handle.url), { headers: auth ? { authorization: auth } : {} });

  it('streams the seeded screenshot as application/octet-stream', async () => {
    const response = await download(SCREENSHOT_ARTIFACT_ID);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    expect(response.headers.get('content-disposition')).toContain('checkout-failure.png');
  });

  it('answers errors as JSON: 404 unknown, 400 invalid, 401 without credentials', async () => {
    for (const [id, auth, status, code] of [
      [UNKNOWN_UUID, basic(), 404, 'NOT_FOUND'],
      ['screenshot.png', basic(), 400, 'BAD_REQUEST'],
      [SCREENSHOT_ARTIFACT_ID, null, 401, 'UNAUTHORIZED'],
      [SCREENSHOT_ARTIFACT_ID, basic('demo', 'wrong'), 401, 'UNAUTHORIZED'],
    ] as const) {
      const response = await download(id, auth);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
    }
  });

  it('comes back, file and all, after the admin reset to the seed', async () => {
    handle.emulator.context.authoring.data.artifacts.length = 0;
    expect((await download(SCREENSHOT_ARTIFACT_ID)).status).toBe(404);
    const reset = await fetch(new URL('/_emulator/reset', handle.url), { method: 'POST' });
    expect(reset.status).toBe(200);
    const response = await download(SCREENSHOT_ARTIFACT_ID);
    expect(response.status).toBe(200);
    expect(
      Buffer.from(await response.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });
});
