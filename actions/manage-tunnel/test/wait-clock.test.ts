/**
 * `wait` on a clock that lies: a wall clock set back an hour during the wait moves neither its
 * `timeout` nor its interval, which are reckoned on the monotonic clock; and a tunnel whose times
 * are in no form the service documents is still found and used.
 */
import { recordingLogger, type Clock } from '@sauce-actions/action-kit';
import { SauceClient, type Tunnel } from '@sauce-actions/api';
import { afterEach, describe, expect, it } from 'vitest';
import type { TunnelApi } from '../src/tunnels.ts';
import { waitForTunnel } from '../src/wait.ts';

/** A clock whose wall time jumps back an hour after the first check; its monotonic time moves only by sleeps. */
function steppedBackClock(): Clock & { sleeps: number[] } {
  let monotonic = 0;
  let wall = Date.parse('2026-03-01T12:00:00Z');
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => wall,
    monotonic: () => monotonic,
    sleep: async (ms) => {
      sleeps.push(ms);
      monotonic += ms;
      wall += ms - (sleeps.length === 1 ? 3_600_000 : 0);
    },
  };
}

const tunnel = (status: string, times: Partial<Record<keyof Tunnel, unknown>> = {}): Tunnel =>
  ({ id: 't1', owner: 'demo', status, tunnel_identifier: 'demo-tunnel', ...times }) as Tunnel;

describe('manage-tunnel wait on a wall clock set back an hour', () => {
  it('still ends at `timeout`, checking at the interval', async () => {
    const clock = steppedBackClock();
    let checks = 0;
    const failure = await waitForTunnel({
      api: { list: (async () => (checks++, [tunnel('starting')])) as TunnelApi['list'] },
      username: 'demo',
      target: { name: 'demo-tunnel' },
      timeoutMs: 10_000,
      intervalMs: 2000,
      logger: recordingLogger(),
      clock,
      signal: new AbortController().signal,
    }).catch((error: unknown) => error);
    expect((failure as Error).message).toMatch(/was not running within 10s/);
    expect(clock.sleeps).toEqual([2000, 2000, 2000, 2000, 2000]);
    expect(checks).toBe(6);
  });
});

describe('tunnel times in another form', () => {
  const servers: { close(): void }[] = [];
  afterEach(() => servers.splice(0).forEach((server) => server.close()));

  it.each([
    ['text', { creation_time: 'yesterday', launch_time: 'soon' }],
    ['null', { creation_time: null, launch_time: null }],
    ['negative', { creation_time: -5, launch_time: -1 }],
    ['huge', { creation_time: 1e300, launch_time: 9e15 }],
  ])('%s: read as unknown, and the running tunnel is used', async (_, times) => {
    const { createServer } = await import('node:http');
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify([{ ...tunnel('running'), ...times }]));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const client = new SauceClient({ apiUrl: `http://127.0.0.1:${port}`, username: 'demo', accessKey: 'k' });
    try {
      const found = await waitForTunnel({
        api: client.automation.tunnels,
        username: 'demo',
        target: { name: 'demo-tunnel' },
        timeoutMs: 10_000,
        intervalMs: 1000,
        logger: recordingLogger(),
        clock: steppedBackClock(),
        signal: new AbortController().signal,
      });
      expect(found).toMatchObject({ id: 't1', creation_time: null, launch_time: null });
    } finally {
      await client.close();
    }
  });
});
