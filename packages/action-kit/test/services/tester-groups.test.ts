/** Tester groups looked up before anything depends on them, against the emulator's seed (`qa`, `beta`). */
import { SauceClient } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkTesterGroups,
  findTesterGroup,
  unknownGroupsMessage,
} from '../../src/services/tester-groups.ts';

let emulator: RunningEmulator;
let client: SauceClient;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new SauceClient({ apiUrl: emulator.url, email: 'demo@example.com', apiKey: 'demo-api-key' });
});

afterAll(async () => {
  await client.close();
  await emulator.close();
});

describe('checkTesterGroups', () => {
  it('finds groups by name or id with one request, and lists the unknown ones', async () => {
    const { groups } = await client.mobile.testerGroups.list();
    const beta = groups.find((g) => g.name === 'beta');
    expect(beta).toBeDefined();
    const before = await journalLength();

    const check = await checkTesterGroups(client.mobile.testerGroups, ['qa', String(beta?.id), 'nope', 'qa']);
    expect(check.found.map((g) => g.name)).toEqual(['qa', 'beta']);
    expect(check.unknown).toEqual(['nope']);
    expect(check.existing.map((g) => g.name)).toEqual(expect.arrayContaining(['qa', 'beta']));
    expect(await journalLength()).toBe(before + 1);

    expect(unknownGroupsMessage(check, 'Fix `groups`.')).toBe(
      `Unknown tester group: nope (the account has: ${check.existing.map((g) => g.name).join(', ')}). Fix \`groups\`.`,
    );
  });

  it('prefers a name to an id that reads the same', () => {
    const groups = [
      { id: 7, name: 'nightly', testers: [] },
      { id: 8, name: '7', testers: [] },
    ];
    expect(findTesterGroup(groups, '7')?.id).toBe(8);
    expect(findTesterGroup(groups, '8')?.name).toBe('7');
    expect(findTesterGroup(groups, 'qa')).toBeUndefined();
  });

  it('says "none" when the account has no group, and the plural', () => {
    expect(unknownGroupsMessage({ existing: [], found: [], unknown: ['a', 'b'] }, 'Fix it.')).toBe(
      'Unknown tester groups: a, b (the account has: none). Fix it.',
    );
  });
});

async function journalLength(): Promise<number> {
  const journal = (await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as {
    requests: unknown[];
  };
  return journal.requests.length;
}
