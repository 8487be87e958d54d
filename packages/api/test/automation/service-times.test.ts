/**
 * Job times in forms the service does not document (text, null, negative, past the year 9999)
 * only order and date a job: they read as unknown (null) and fail no listing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SauceClient } from '../../src/index.ts';
import { serviceTime } from '../../src/automation/times.ts';
import { json, startServer, stopAll } from '../support/server.ts';

afterEach(stopAll);

describe('service times', () => {
  it.each<[unknown, number | null]>([
    [1_700_000_000, 1_700_000_000],
    ['1700000000', 1_700_000_000],
    ['2023-11-14T22:13:20Z', 1_700_000_000],
    ['yesterday', null],
    [null, null],
    [undefined, null],
    [-5, null],
    [0, null],
    [1e300, null],
    [Number.NaN, null],
    [true, null],
  ])('%s reads as %s', (value, seconds) => {
    expect(serviceTime(value)).toBe(seconds);
  });

  it('a listing with odd job times answers the jobs, their times unknown', async () => {
    const server = await startServer((_request, response) =>
      json(response, 200, [
        { id: 'a', status: 'complete', creation_time: 'soon', start_time: -1, end_time: 1e20 },
        {
          id: 'b',
          status: 'complete',
          creation_time: 1_700_000_000,
          start_time: null,
          end_time: '1700000060',
        },
      ]),
    );
    const client = new SauceClient({ apiUrl: server.url, username: 'alice', accessKey: 'key' });
    try {
      const jobs = await client.automation.jobs.list({ full: true });
      expect(
        jobs.map(({ creation_time, start_time, end_time }) => [creation_time, start_time, end_time]),
      ).toEqual([
        [null, null, null],
        [1_700_000_000, null, 1_700_000_060],
      ]);
    } finally {
      await client.close();
    }
  });
});
