/**
 * The job list's rules, row by row, over HTTP: newest first, jobs of one creation time in the
 * order they were made, inclusive `from`/`to` bounds in epoch seconds, then `skip` and `limit`;
 * each account's own jobs only; a deleted job gone. Then every combination of a sweep of queries
 * against the list as the plain rule computes it from the records (filter by owner, stable sort
 * newest first, bounds, slice).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../src/automation/model.ts';
import { defaultSeed, type Seed } from '../../src/index.ts';
import { basic, DEMO_USER, withEmulator } from '../support/emulator.ts';
import { call } from '../support/http.ts';

const SUB = 'demo-sub';
const STRANGER = 'stranger';
const AS_SUB = basic(SUB, 'sub-key');
const AS_STRANGER = basic(STRANGER, 'stranger-key');
/** The emulator's time at each reset: a whole second, so that offsets below fall in known seconds. */
const T0 = Date.UTC(2026, 0, 1, 12);
const S0 = T0 / 1000;

function seed(): Seed {
  const base = defaultSeed();
  base.automation.users.push(
    { username: SUB, accessKey: 'sub-key', parent: DEMO_USER },
    { username: STRANGER, accessKey: 'stranger-key' },
  );
  // Two seeded jobs that ended together, so were created in the same millisecond: seed order.
  base.automation.jobs = [
    { id: 'seeded-b', owner: DEMO_USER, name: 'seeded-b', passes: true, endedSecondsAgo: 7200 },
    { id: 'seeded-a', owner: DEMO_USER, name: 'seeded-a', passes: true, endedSecondsAgo: 7200 },
  ];
  return base;
}

/** [name, owner, milliseconds after T0], in the order they are created. */
const CREATED: [string, string, number][] = [
  ['a', DEMO_USER, 0],
  ['b', DEMO_USER, 999],
  ['c', DEMO_USER, 1500],
  ['f', SUB, 1500],
  ['d', DEMO_USER, 1500],
  ['e', DEMO_USER, 1500],
  ['x', STRANGER, 2000],
  ['g', DEMO_USER, 2000],
  ['h', DEMO_USER, 3000],
  ['i', SUB, 3500],
  // The clock set back: a tie of c, d and e made after them, and a job older than the newest.
  ['e2', DEMO_USER, 1500],
  ['late', DEMO_USER, 1200],
];

describe('the job list', () => {
  let now = T0;
  beforeEach(() => {
    now = T0;
  });
  const handle = withEmulator({ seed: seed(), clock: () => now, jobDurationMs: 60_000 });
  const names = new Map<string, string>();

  /** Creates the jobs above and deletes g through the interface. */
  async function populate(): Promise<void> {
    names.clear();
    for (const [name, owner, offset] of CREATED) {
      now = T0 + offset;
      const { id } = handle.emulator.context.automation.jobs.create({
        name,
        build: 'list',
        browser: 'chrome',
        os: 'Linux',
        passes: true,
        owner,
      });
      names.set(id, name);
    }
    now = T0 + 10_000;
    const g = [...names].find(([, name]) => name === 'g')![0];
    expect((await call(`${handle.url}/rest/v1/${DEMO_USER}/jobs/${g}`, { method: 'DELETE' })).status).toBe(
      200,
    );
  }

  const listed = async (path: string, auth?: string) => {
    const answer = await call(`${handle.url}${path}`, auth === undefined ? {} : { auth });
    return { status: answer.status, json: answer.json, text: answer.text };
  };
  const nameOf = (id: string) => names.get(id) ?? id;
  const namesOf = (json: unknown) => (json as { id: string }[]).map((job) => nameOf(job.id));

  const ALL = ['h', 'c', 'd', 'e', 'e2', 'late', 'b', 'a', 'seeded-b', 'seeded-a'];
  const rows: { query: string; expected: string[] }[] = [
    { query: '', expected: ALL },
    { query: 'limit=3', expected: ['h', 'c', 'd'] },
    { query: 'skip=2&limit=3', expected: ['d', 'e', 'e2'] },
    { query: 'skip=4&limit=3', expected: ['e2', 'late', 'b'] },
    { query: 'skip=9', expected: ['seeded-a'] },
    { query: 'skip=10', expected: [] },
    { query: 'skip=500&limit=1000', expected: [] },
    { query: 'limit=1000', expected: ALL },
    { query: `from=${S0 + 1}`, expected: ['h', 'c', 'd', 'e', 'e2', 'late'] },
    { query: `to=${S0 + 1}`, expected: ['c', 'd', 'e', 'e2', 'late', 'b', 'a', 'seeded-b', 'seeded-a'] },
    { query: `from=${S0 + 1}&to=${S0 + 1}`, expected: ['c', 'd', 'e', 'e2', 'late'] },
    { query: `from=${S0}&to=${S0}`, expected: ['b', 'a'] },
    { query: `from=${S0 + 1}&to=${S0 + 1}&skip=1&limit=2`, expected: ['d', 'e'] },
    { query: `from=${S0 + 1}&to=${S0 + 1}&skip=5`, expected: [] },
    // g was the only job of its second, and is deleted.
    { query: `from=${S0 + 2}&to=${S0 + 2}`, expected: [] },
    { query: `from=${S0 + 2}&to=${S0 + 3}`, expected: ['h'] },
    { query: `from=${S0 + 3}&to=${S0 + 3}`, expected: ['h'] },
    { query: `from=${S0 + 4}`, expected: [] },
    { query: `to=${S0 - 1}`, expected: ['seeded-b', 'seeded-a'] },
    { query: `to=${S0 - 7260}`, expected: ['seeded-b', 'seeded-a'] },
    { query: `to=${S0 - 7261}`, expected: [] },
    { query: `from=${S0 + 2}&to=${S0 + 1}`, expected: [] },
    { query: `from=0&to=${S0 + 100}&skip=1&limit=2`, expected: ['c', 'd'] },
  ];

  it.each(rows)('lists ?$query', async ({ query, expected }) => {
    await populate();
    const ids = await listed(`/rest/v1/${DEMO_USER}/jobs?${query}`);
    expect(ids.status).toBe(200);
    expect(namesOf(ids.json)).toEqual(expected);
    const full = await listed(`/rest/v1/${DEMO_USER}/jobs?full=true&${query}`);
    expect((full.json as { name: string }[]).map((job) => job.name)).toEqual(expected);
    const wrapped = await listed(`/rest/v1.1/${DEMO_USER}/jobs?${query}`);
    expect(namesOf((wrapped.json as { jobs: unknown }).jobs)).toEqual(expected);
    const csv = await listed(`/rest/v1/${DEMO_USER}/jobs?format=csv&${query}`);
    const lines = csv.text.trim().split('\r\n').slice(1);
    expect(lines.map((line) => nameOf(line.split(',')[0]!))).toEqual(expected);
  });

  const owners: { path: string; as: string; as_name: string; status: number; expected?: string[] }[] = [
    { path: SUB, as: basic(), as_name: 'its parent', status: 200, expected: ['i', 'f'] },
    { path: SUB, as: AS_SUB, as_name: 'itself', status: 200, expected: ['i', 'f'] },
    { path: DEMO_USER, as: AS_SUB, as_name: 'a sub-account', status: 403 },
    { path: STRANGER, as: AS_STRANGER, as_name: 'itself', status: 200, expected: ['x'] },
    { path: STRANGER, as: basic(), as_name: 'another account', status: 403 },
    { path: SUB, as: AS_STRANGER, as_name: 'another account', status: 403 },
  ];

  it.each(owners)('lists $path for $as_name: $status', async ({ path, as, status, expected }) => {
    await populate();
    const answer = await listed(`/rest/v1/${path}/jobs`, as);
    expect(answer.status).toBe(status);
    if (expected) expect(namesOf(answer.json)).toEqual(expected);
  });

  it('answers every page of a sweep as the plain rule over the records does', async () => {
    await populate();
    const records = handle.emulator.context.automation.data.jobs;
    const bounds = [undefined, S0 - 7260, S0, S0 + 1, S0 + 3, S0 + 9];
    const queries: Query[] = [];
    for (const owner of [DEMO_USER, SUB, STRANGER]) {
      for (const from of bounds) {
        for (const to of bounds) {
          for (const [skip, limit] of [
            [0, 100],
            [0, 1],
            [1, 2],
            [3, 3],
            [9, 1000],
            [10, 1],
          ] as const) {
            queries.push({ owner, from, to, skip, limit });
          }
        }
      }
    }
    for (const query of queries) {
      const search = new URLSearchParams({ skip: String(query.skip), limit: String(query.limit) });
      if (query.from !== undefined) search.set('from', String(query.from));
      if (query.to !== undefined) search.set('to', String(query.to));
      // demo may list its sub-account; the others are listed with their own credentials.
      const auth = query.owner === STRANGER ? AS_STRANGER : basic();
      const answer = await listed(`/rest/v1/${query.owner}/jobs?${search}`, auth);
      const ids = (answer.json as { id: string }[]).map((job) => job.id);
      expect({ query, ids }).toEqual({ query, ids: plainRule(records, query) });
    }
  });

  it('lists a job made after a deletion and after a reset, newest first', async () => {
    await populate();
    now = T0 + 20_000;
    const { id } = handle.emulator.context.automation.jobs.create({
      name: 'newest',
      build: 'list',
      browser: 'chrome',
      os: 'Linux',
      passes: true,
    });
    names.set(id, 'newest');
    expect(namesOf((await listed(`/rest/v1/${DEMO_USER}/jobs?limit=2`)).json)).toEqual(['newest', 'h']);
    now = T0;
    expect((await call(`${handle.url}/_emulator/reset`, { method: 'POST' })).status).toBe(200);
    expect(namesOf((await listed(`/rest/v1/${DEMO_USER}/jobs`)).json)).toEqual(['seeded-b', 'seeded-a']);
    expect(namesOf((await listed(`/rest/v1/${SUB}/jobs`)).json)).toEqual([]);
    const again = handle.emulator.context.automation.jobs.create({
      name: 'after reset',
      build: 'list',
      browser: 'chrome',
      os: 'Linux',
      passes: true,
    });
    names.set(again.id, 'after reset');
    expect(namesOf((await listed(`/rest/v1/${DEMO_USER}/jobs`)).json)).toEqual([
      'after reset',
      'seeded-b',
      'seeded-a',
    ]);
  });
});

interface Query {
  owner: string;
  from: number | undefined;
  to: number | undefined;
  skip: number;
  limit: number;
}

/** The list as the rule states it, from every record. */
function plainRule(records: Record<string, JobRecord>, query: Query): string[] {
  return Object.values(records)
    .filter((job) => job.owner === query.owner)
    .sort((a, b) => b.createdMs - a.createdMs)
    .filter((job) => {
      const created = Math.floor(job.createdMs / 1000);
      return (
        (query.from === undefined || created >= query.from) && (query.to === undefined || created <= query.to)
      );
    })
    .slice(query.skip, query.skip + query.limit)
    .map((job) => job.id);
}
