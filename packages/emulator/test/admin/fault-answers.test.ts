/**
 * Fault rules that shape an answer as it leaves: headers, a body cut short, trickled, or without
 * end; on an injected answer or on the route's own. Read on the wire, byte by byte.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/index.ts';
import { DEMO_USER, basic, loopbackCertificate, withEmulator } from '../support/emulator.ts';
import { call } from '../support/http.ts';

interface WireAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** How the body ended: whole, or cut by the server. */
  ended: 'whole' | 'cut';
  /** Milliseconds from the headers to the body's end. */
  bodyMs: number;
}

/** A GET read on the wire; `stopAfter` bytes ends the read (for an endless body). */
function get(url: string, options: { stopAfter?: number; ca?: string } = {}): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const req = send(
      url,
      { headers: { authorization: basic() }, ...(options.ca ? { ca: options.ca } : {}) },
      (res) => {
        const started = Date.now();
        const chunks: Buffer[] = [];
        let size = 0;
        const done = (ended: WireAnswer['ended']) =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            ended,
            bodyMs: Date.now() - started,
          });
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (options.stopAfter !== undefined && size >= options.stopAfter) {
            req.destroy();
            done('cut');
          }
        });
        res.on('end', () => done('whole'));
        res.on('aborted', () => done('cut'));
        res.on('error', () => done('cut'));
      },
    );
    req.on('error', (error) => (options.stopAfter === undefined ? reject(error) : undefined));
    req.end();
  });
}

describe('fault rules that shape an answer', () => {
  const handle = withEmulator();
  const addFault = (rule: Record<string, unknown>) =>
    call(`${handle.url}/_emulator/faults`, { method: 'POST', auth: null, json: rule });
  const tunnelsUrl = () => `${handle.url}/rest/v1/${DEMO_USER}/tunnels`;

  it('cuts the route’s own answer after some bytes, having promised the whole length', async () => {
    const whole = await get(tunnelsUrl());
    expect((await addFault({ path: `/rest/v1/${DEMO_USER}/tunnels`, truncate: 5 })).status).toBe(201);
    const cut = await get(tunnelsUrl());
    expect(cut.status).toBe(200);
    expect(Number(cut.headers['content-length'])).toBe(whole.body.length);
    expect(cut.body.toString()).toBe(whole.body.subarray(0, 5).toString());
    expect(cut.ended).toBe('cut');
    expect((await get(tunnelsUrl())).body).toEqual(whole.body);
  });

  it('sends an injected body as it is written, with the headers given', async () => {
    await addFault({
      path: '/rest/v1/demo/jobs',
      status: 200,
      body: '<html><title>Sign in to the Wi-Fi</title></html>',
      headers: { 'content-type': 'text/html' },
    });
    const page = await get(`${handle.url}/rest/v1/demo/jobs`);
    expect(page.headers['content-type']).toBe('text/html');
    expect(page.body.toString()).toBe('<html><title>Sign in to the Wi-Fi</title></html>');

    await addFault({
      path: '/rest/v1/demo/jobs',
      status: 302,
      headers: { location: 'https://portal.example/' },
    });
    const redirect = await get(`${handle.url}/rest/v1/demo/jobs`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toBe('https://portal.example/');
  });

  it.each(['gzip', 'deflate', 'br'] as const)(
    'compresses the route’s own answer with %s',
    async (compress) => {
      const whole = await get(tunnelsUrl());
      await addFault({ path: `/rest/v1/${DEMO_USER}/tunnels`, compress });
      const packed = await get(tunnelsUrl());
      expect(packed.headers['content-encoding']).toBe(compress);
      expect(Number(packed.headers['content-length'])).toBe(packed.body.length);
      const unpack = { gzip: gunzipSync, deflate: inflateSync, br: brotliDecompressSync }[compress];
      expect(unpack(packed.body).toString()).toBe(whole.body.toString());
    },
  );

  it('trickles a body at the pace given', async () => {
    await addFault({
      path: `/rest/v1/${DEMO_USER}/tunnels`,
      status: 200,
      body: 'x'.repeat(60),
      bytesPerSecond: 200,
    });
    const slow = await get(tunnelsUrl());
    expect(slow.body.toString()).toBe('x'.repeat(60));
    expect(slow.ended).toBe('whole');
    // 60 bytes at 200 a second, in slices of 20: two pauses of 100 ms.
    expect(slow.bodyMs).toBeGreaterThanOrEqual(180);
    expect(slow.bodyMs).toBeLessThan(2000);
  });

  it('sends a body without end until the client closes', async () => {
    await addFault({
      path: `/rest/v1/${DEMO_USER}/tunnels`,
      status: 200,
      body: '{"tunnels":[',
      endless: true,
    });
    const endless = await get(tunnelsUrl(), { stopAfter: 1024 * 1024 });
    expect(endless.headers['content-length']).toBeUndefined();
    expect(endless.body.subarray(0, 12).toString()).toBe('{"tunnels":[');
    expect(endless.body.length).toBeGreaterThanOrEqual(1024 * 1024);
    expect(endless.ended).toBe('cut');
    // The emulator noticed the client left, and still answers.
    expect((await get(tunnelsUrl())).status).toBe(200);
  });

  it.each([
    [{ path: '/x', drop: true, truncate: 2 }, 'a dropped connection has no answer'],
    [{ path: '/x', endless: true, truncate: 2 }, 'exclude each other'],
    [{ path: '/x', bytesPerSecond: 0 }, 'bytesPerSecond'],
    [{ path: '/x', headers: 'text/html' }, 'headers'],
  ])('refuses a rule that cannot be kept: %j', async (rule, why) => {
    const refused = await addFault(rule);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(why);
  });
});

describe('https', () => {
  it('serves the interfaces over TLS with the key and certificate given', async () => {
    const pems = await loopbackCertificate();
    const emulator = await startEmulator({ port: 0, tls: pems });
    try {
      expect(emulator.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const answer = await get(`${emulator.url}/rest/v1/${DEMO_USER}/tunnels`, { ca: pems.cert });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body.toString())).toEqual(expect.any(Array));
      await expect(get(`${emulator.url}/rest/v1/${DEMO_USER}/tunnels`)).rejects.toThrow(
        /self.signed|certificate/i,
      );
    } finally {
      await emulator.close();
    }
  });
});
