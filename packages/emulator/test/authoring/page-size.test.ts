/**
 * Page sizes of the authoring lists: seed 000 names no maximum for `limit`, so a large one is
 * served (at most 1,000 a page, with the total), never refused; the client's iterators ask for
 * that much and page on by what each answer holds.
 */
import { SauceClient } from '@sauce-actions/api';
import { describe, expect, it } from 'vitest';
import { defaultSeed } from '../../src/index.ts';
import { DEMO_ACCESS_KEY, DEMO_USER, withEmulator } from '../support/emulator.ts';
import { call } from '../support/http.ts';
import { PREFIX } from './http.ts';

const CASES = 1300;

function seedWithManyCases() {
  const seed = defaultSeed();
  const cases = Array.from({ length: CASES }, (_, i) => ({
    id: (0xa00000 + i).toString(16).padStart(24, '0'),
    name: `Bulk ${String(i).padStart(3, '0')}`,
    creationDate: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
  }));
  return { ...seed, authoring: { ...seed.authoring, testCases: cases } };
}

describe('authoring page sizes', () => {
  const handle = withEmulator({ seed: seedWithManyCases() });
  const list = (query: string) => call(`${handle.url}${PREFIX}/testcases?${query}`);

  it('serves a limit over 1,000 as a page of 1,000 with the total, rather than refusing it', async () => {
    const big = await list('limit=5000');
    expect(big.status).toBe(200);
    const page = (big.json as { data: { items: { name: string }[]; total: number } }).data;
    expect(page.total).toBe(CASES);
    expect(page.items).toHaveLength(1000);
    expect(((await list('')).json as { data: { items: unknown[] } }).data.items).toHaveLength(25);
    const rest = (await list('skip=1000&limit=5000')).json as { data: { items: unknown[] } };
    expect(rest.data.items).toHaveLength(CASES - 1000);
    expect((await list('limit=-1')).status).toBe(400);
  });

  it('the client’s iterator reads every case in pages the service serves', async () => {
    const client = new SauceClient({ username: DEMO_USER, accessKey: DEMO_ACCESS_KEY, apiUrl: handle.url });
    try {
      const names: string[] = [];
      for await (const testCase of client.authoring.testCases.iterate({})) {
        names.push(testCase.name);
      }
      expect(new Set(names).size).toBe(CASES);
    } finally {
      await client.close();
    }
    const journal = (await call(`${handle.url}/_emulator/requests`, { auth: null })).json as {
      requests: { path: string; query: Record<string, string>; status: number }[];
    };
    const pages = journal.requests.filter((entry) => entry.path === `${PREFIX}/testcases`);
    expect(pages.map((entry) => [entry.query.skip, entry.query.limit, entry.status])).toEqual([
      ['0', '1000', 200],
      ['1000', '1000', 200],
    ]);
  });
});
