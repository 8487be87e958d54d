/**
 * `build-id: latest` when the service writes upload times in other forms than its documented
 * `YYYY-MM-DD HH:MM:SS`: an ISO time with an offset, an hour of one digit, a year's turn across
 * time zones. As text each pair orders the older build last; read as instants, the newer one is
 * invited. A time that is none is said, naming the build, and no one is invited. The emulator
 * stores the builds and records the invitations; a fault rule answers the listing in those forms.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createClient, type MobileConnection } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runInvite } from './run-invite.ts';

const EMAIL = 'demo@example.com';
const API_KEY = 'demo-api-key';

let emulator: RunningEmulator;
let dir: string;
let projectId = '';
/** The builds stored, oldest first. */
const ids: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  dir = await mkdtemp(path.join(os.tmpdir(), 'invite-latest-times-'));
  const file = path.join(dir, 'app.apk');
  await createSampleApk(file, {
    packageId: 'com.example.times',
    name: 'Times',
    version: '1.0',
    versionCode: 1,
  });
  const connection: MobileConnection = {
    service: 'mobile',
    region: 'us-east-1',
    apiUrl: emulator.url,
    apiKey: API_KEY,
    email: EMAIL,
  };
  const client = createClient(connection, testStepDeps().logger);
  try {
    for (let i = 0; i < 2; i++) {
      const answer = await client.mobile.upload(file, { tags: ['main'] });
      ids.push(String(answer.build_id));
      projectId = String(answer.project_id);
    }
  } finally {
    await client.close();
  }
});

afterEach(async () => {
  await admin('DELETE', 'faults');
  await admin('DELETE', 'requests');
});

afterAll(async () => {
  await emulator?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function admin(method: string, route: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${emulator.url}/_emulator/${route}`, {
    method,
    ...(body !== undefined
      ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
      : {}),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status}`);
  return response.json();
}

/** The next listing of the project's builds answers these upload times, in the stored order. */
async function listingWithTimes(times: unknown[]): Promise<void> {
  const builds = ids.map((id, index) => ({ id: Number(id), uploadedAt: times[index], tags: ['main'] }));
  await admin('POST', 'faults', {
    method: 'GET',
    path: `/api/1/projects/${projectId}/builds/`,
    status: 200,
    body: { status: 'ok', builds },
  });
}

const inviteLatest = () =>
  runInvite(emulator.url, { 'project-id': projectId, 'build-id': 'latest', tags: 'main', groups: 'qa' });

/** The builds the emulator was asked to invite groups to. */
async function invitedBuilds(): Promise<string[]> {
  const { requests } = (await admin('GET', 'requests')) as { requests: { method: string; path: string }[] };
  return requests
    .filter((entry) => entry.method === 'POST' && entry.path.endsWith('/invites/'))
    .map((entry) => /\/builds\/(\d+)\/invites\/$/.exec(entry.path)?.[1] ?? entry.path);
}

describe('`build-id: latest` orders upload times as instants', () => {
  // In each pair the first build (the smaller id) is the newer, and as text the older.
  it.each<[string, [string, string]]>([
    ['an offset', ['2026-11-20 09:00:00', '2026-11-20T10:30:00+02:00']],
    ['an hour of one digit', ['2026-11-20 10:15:00', '2026-11-20 9:45:00']],
    ['a year turned in another time zone', ['2026-12-31T23:30:00-02:00', '2027-01-01 01:00:00']],
    ['fractions and Z', ['2026-11-20T08:00:00.250Z', '2026-11-20T09:59:59+02:00']],
  ])('with %s', async (_name, times) => {
    await listingWithTimes(times);
    const { result, deps } = await inviteLatest();
    expect(result.failure).toBeUndefined();
    expect(result.outputs['build-id']).toBe(ids[0]);
    expect(await invitedBuilds()).toEqual([ids[0]]);
    expect(deps.logger.lines().join('\n')).toContain(`build-id: latest is build ${ids[0]} of project`);
  });

  it.each<[string, unknown]>([
    ['a date of another order', '20/11/2026 10:00:00'],
    ['a day the month lacks', '2026-02-30 10:00:00'],
    ['no time at all', null],
  ])('says so, naming the build, for %s, and invites no one', async (_name, time) => {
    await listingWithTimes(['2026-11-20 09:00:00', time]);
    const { result } = await inviteLatest();
    expect(result.failure?.kind).toBe('service');
    expect(result.failure?.message).toContain(`\`builds[1].uploadedAt\` is`);
    expect(result.failure?.message).toContain(`that tells whether build ${ids[1]} is the newest`);
    expect(result.failure?.message).toContain("give `build-id` the build's id instead of `latest`");
    expect(result.outputs['build-id']).toBe('');
    expect(await invitedBuilds()).toEqual([]);
  });
});
