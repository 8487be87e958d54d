import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCESS_KEY, DEMO_USER, withEmulator } from '../support/emulator.ts';

/** node:http turns credentials written in the URL (`https://user:key@host/...`) into a Basic header. */
function getWithUserinfo(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

describe('credentials in the request URL', () => {
  const handle = withEmulator();

  it('authenticates user:key@host the same as the header', async () => {
    const withCreds = handle.url.replace('http://', `http://${DEMO_USER}:${DEMO_ACCESS_KEY}@`);
    expect(await getWithUserinfo(`${withCreds}/rest/v1/users/${DEMO_USER}`)).toBe(200);
    const wrong = handle.url.replace('http://', `http://${DEMO_USER}:bad@`);
    expect(await getWithUserinfo(`${wrong}/rest/v1/users/${DEMO_USER}`)).toBe(401);
  });
});
