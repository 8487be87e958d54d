/**
 * The service's clock as its answers' `Date` header tells it: the client keeps the offset of
 * this machine's clock from it, reckons the service's time with it, and says once when the
 * machine's clock is far off.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SauceClient } from '../../src/index.ts';
import { ServiceClock, SKEW_WARNING_MS } from '../../src/core/timing/service-clock.ts';
import { json, startServer, stopAll } from '../support/server.ts';

afterEach(stopAll);

const LOCAL = Date.parse('2026-03-01T12:10:00Z');

describe('the service clock', () => {
  it('knows no offset before an answer with a Date, and reads the machine’s time then', () => {
    const clock = new ServiceClock({ debug: () => {}, warn: () => {} }, () => LOCAL);
    expect(clock.offsetMs).toBeUndefined();
    expect(clock.now()).toBe(LOCAL);
    clock.observe({ date: 'not a date' });
    expect(clock.offsetMs).toBeUndefined();
  });

  it.each([
    ['ahead of', 'Sun, 01 Mar 2026 12:00:00 GMT', -599_500, /is 10 min ahead of the service's/],
    ['behind', 'Sun, 01 Mar 2026 12:20:00 GMT', 600_500, /is 10 min behind the service's/],
  ])('a machine clock 10 minutes %s the service: the offset, and one warning', (_, date, offset, said) => {
    const warnings: string[] = [];
    const clock = new ServiceClock(
      { debug: () => {}, warn: (message) => warnings.push(message) },
      () => LOCAL,
    );
    clock.observe({ date });
    clock.observe({ date });
    expect(clock.offsetMs).toBe(offset);
    expect(clock.now()).toBe(LOCAL + offset);
    expect(clock.fromLocal(LOCAL - 60_000)).toBe(LOCAL + offset - 60_000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(said);
  });

  it('says nothing of a skew within the threshold', () => {
    const warnings: string[] = [];
    const clock = new ServiceClock(
      { debug: () => {}, warn: (message) => warnings.push(message) },
      () => LOCAL,
    );
    clock.observe({ date: new Date(LOCAL - SKEW_WARNING_MS + 5000).toUTCString() });
    expect(warnings).toEqual([]);
    expect(clock.offsetMs).toBeLessThan(0);
  });

  it('is the client’s, fed by every answer of its transports', async () => {
    const serviceTime = Date.now() - 30 * 60_000;
    const server = await startServer((_request, response) =>
      json(response, 200, [], { date: new Date(serviceTime).toUTCString() }),
    );
    const warnings: string[] = [];
    const client = new SauceClient({
      apiUrl: server.url,
      username: 'alice',
      accessKey: 'key',
      logger: { debug: () => {}, warn: (message) => warnings.push(message) },
    });
    try {
      await client.automation.jobs.list({});
      expect(client.serviceClock.offsetMs).toBeGreaterThan(-31 * 60_000);
      expect(client.serviceClock.offsetMs).toBeLessThan(-29 * 60_000);
      expect(warnings).toEqual([expect.stringMatching(/clock is 30 min ahead of the service's/)]);
    } finally {
      await client.close();
    }
  });
});
