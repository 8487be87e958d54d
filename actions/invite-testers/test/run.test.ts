import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createClient, InputError, InputReader, inputSource } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import {
  ApiError,
  SauceClient,
  type MobileInvite,
  type MobileTesterGroup,
  type MobileTestersAdd,
} from '@sauce-actions/api';
import { startEmulator } from '@sauce-actions/emulator';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { describe, expect, it } from 'vitest';
import { readInputs, type InviteInputs } from '../src/inputs.ts';
import { run, type InviteDeps } from '../src/run.ts';

/** An in-memory account: groups with members; `refuse` lists emails the service will not add. */
function fakeAccount(groups: MobileTesterGroup[], refuse: string[] = []) {
  const calls: {
    invites: { projectId: string; buildId: string; invite: MobileInvite }[];
    added: MobileTestersAdd[];
    created: string[];
  } = {
    invites: [],
    added: [],
    created: [],
  };
  let nextId = 100;
  const mobile = {
    testerGroups: {
      list: async () => ({ status: 'ok', groups: structuredClone(groups) }),
      create: async (name: string) => {
        calls.created.push(name);
        groups.push({ id: nextId++, name, testers: [[]] });
        return { status: 'ok', id: String(nextId), name };
      },
    },
    testers: {
      add: async (add: MobileTestersAdd) => {
        calls.added.push(add);
        let group = groups.find((g) => g.name === add.group);
        if (!group) {
          group = { id: nextId++, name: add.group as string, testers: [[]] };
          groups.push(group);
        }
        for (const email of add.emails ?? []) if (!refuse.includes(email)) group.testers[0]!.push({ email });
        return { status: 'ok' };
      },
    },
    builds: {
      invite: async (projectId: string | number, buildId: string | number, invite: MobileInvite) => {
        calls.invites.push({ projectId: String(projectId), buildId: String(buildId), invite });
        return { status: 'ok' };
      },
    },
  } as unknown as InviteDeps['client']['mobile'];
  const deps = { ...testStepDeps(), client: { mobile } };
  return { deps, calls, groups };
}

function inputs(overrides: Partial<InviteInputs> = {}): InviteInputs {
  return {
    connection: { service: 'mobile', region: 'us-east-1', apiKey: 'k', email: 'me@example.com' },
    projectId: '12',
    buildId: '77',
    tags: [],
    groups: [],
    testers: [],
    createGroups: false,
    notify: false,
    ...overrides,
  };
}

describe('invite-testers run', () => {
  it('adds testers to their group and invites it with the named groups', async () => {
    const { deps, calls } = fakeAccount(
      [{ id: 1, name: 'qa', testers: [[{ email: 'lead@example.com' }]] }],
      ['blocked@example.com'],
    );
    const report = await run(
      inputs({
        groups: ['1'],
        testers: ['alice@example.com', 'blocked@example.com'],
        testerGroup: 'nightly',
        comment: 'Try the login',
        notify: true,
      }),
      deps,
    );
    expect(calls.added).toEqual([{ emails: ['alice@example.com', 'blocked@example.com'], group: 'nightly' }]);
    expect(calls.invites).toEqual([
      {
        projectId: '12',
        buildId: '77',
        invite: { groups: ['qa', 'nightly'], comment: 'Try the login', notify: true },
      },
    ]);
    expect(report.failure).toBeUndefined();
    expect(report.outputs).toEqual({
      'build-id': '77',
      'invited-groups': ['qa', 'nightly'],
      'added-testers': ['alice@example.com'],
      'refused-testers': ['blocked@example.com'],
      // The service made `nightly` when the testers were added to it.
      'created-groups': ['nightly'],
    });
    expect(deps.logger.lines()).toContain(
      'Tester group nightly (created): 1 added, 1 refused (blocked@example.com)',
    );
    expect(deps.logger.lines()).toContain('Invited qa, nightly to build 77 of project 12, with emails');
    const html = report.summary;
    expect(html).toContain('<td>Invited groups</td><td>qa, nightly</td>');
    expect(html).toContain('<li>alice@example.com</li>');
    expect(html).toContain('Refused by the service');
    expect(html).toContain('<td>Created groups</td><td>nightly</td>');
  });

  it.each([
    { case: 'an existing group', testerGroup: 'nightly', groups: [], created: [] },
    { case: 'a group the adding created', testerGroup: 'fresh', groups: [], created: ['fresh'] },
    {
      case: 'a group of `groups` that the step created first',
      testerGroup: 'fresh',
      groups: ['fresh'],
      created: ['fresh'],
    },
  ])('created-groups with tester-group $case', async ({ testerGroup, groups, created }) => {
    const { deps, calls } = fakeAccount([
      { id: 1, name: 'qa', testers: [[]] },
      { id: 7, name: 'nightly', testers: [[]] },
    ]);
    const result = await run(
      inputs({ groups, createGroups: true, testers: ['dave@example.com'], testerGroup }),
      deps,
    );
    expect(result.failure).toBeUndefined();
    expect(result.outputs['created-groups']).toEqual(created);
    expect(result.outputs['added-testers']).toEqual(['dave@example.com']);
    expect(calls.invites[0]?.invite.groups).toEqual([testerGroup]);
  });

  it('refuses unknown groups unless told to create them', async () => {
    const account = fakeAccount([{ id: 1, name: 'qa', testers: [[]] }]);
    const refused = await run(inputs({ groups: ['qa', 'beta'] }), account.deps);
    expect(refused.failure).toEqual({
      kind: 'refused',
      message:
        'Unknown tester group: beta (the account has: qa). Fix `groups`, or set `create-groups: true` to create them.',
    });
    expect(refused.outputs['invited-groups']).toEqual([]);
    expect(refused.summary).toBe('');
    expect(account.calls.invites).toEqual([]);

    const report = await run(inputs({ groups: ['qa', 'beta'], createGroups: true }), account.deps);
    expect(account.calls.created).toEqual(['beta']);
    expect(report.outputs['invited-groups']).toEqual(['qa', 'beta']);
    expect(report.outputs['created-groups']).toEqual(['beta']);
  });

  it('names the id inputs when the build is unknown', async () => {
    const { deps } = fakeAccount([{ id: 1, name: 'qa', testers: [[]] }]);
    deps.client.mobile.builds.invite = async () => {
      throw new ApiError({
        operation: 'inviteToBuild',
        method: 'POST',
        url: '/api/1/projects/9/builds/9/invites/',
        status: 404,
      });
    };
    const result = await run(inputs({ groups: ['qa'], createGroups: true }), deps);
    expect(result.failure?.kind).toBe('refused');
    expect(result.failure?.message).toMatch(
      /^Build 77 of project 12 was not found: check `project-id` and `build-id`/,
    );
  });

  it('keeps what was done when a later request fails', async () => {
    const { deps } = fakeAccount([]);
    deps.client.mobile.builds.invite = async () => {
      throw new ApiError({ operation: 'inviteToBuild', method: 'POST', url: '/x', status: 503 });
    };
    const result = await run(inputs({ groups: ['fresh'], createGroups: true }), deps);
    expect(result.failure?.kind).toBe('service');
    expect(result.outputs['created-groups']).toEqual(['fresh']);
    expect(result.outputs['invited-groups']).toEqual([]);
    expect(result.summary).toContain('<h2>Testers of build 77: not invited</h2>');
    expect(result.summary).toContain('<td>Created groups</td><td>fresh</td>');
  });
});

describe('invite-testers inputs', () => {
  const read = (values: Record<string, string>) =>
    readInputs(
      new InputReader(inputSource({ 'api-key': 'k', email: 'me@example.com', ...values }, { env: {} })),
    );

  it('checks emails, drops duplicates and needs the group, before sending anything', () => {
    expect(
      read({
        'project-id': '12',
        'build-id': '77',
        testers: 'alice@example.com, Alice@example.com',
        'tester-group': 'g',
      }).testers,
    ).toEqual(['alice@example.com']);
    expect(() =>
      read({
        'project-id': '1',
        'build-id': '2',
        testers: 'ok@example.com, not-an-email, a@b',
        'tester-group': 'g',
      }),
    ).toThrow(
      'Input "testers" has invalid emails: "not-an-email", "a@b". Allowed: email addresses (`name@host`, such as `alice@example.com`), separated by commas or newlines.',
    );
    expect(() => read({ 'project-id': '1', 'build-id': '2', testers: 'ok@example.com' })).toThrow(
      /Input "tester-group" is required/,
    );
    expect(() => read({ 'project-id': '1', 'build-id': '2' })).toThrow(/no one to invite/);
    expect(() => read({ 'build-id': '2', groups: 'qa' })).toThrow(InputError);
    expect(() =>
      readInputs(
        new InputReader(inputSource({ 'api-key': 'k', 'project-id': '1', 'build-id': '2', groups: 'qa' })),
      ),
    ).toThrow(/Input "email" is required with `api-key`/);
  });
});

describe('invite-testers ids', () => {
  const read = (values: Record<string, string>) =>
    readInputs(
      new InputReader(
        inputSource(
          {
            'api-key': 'k',
            email: 'me@example.com',
            groups: 'qa',
            'project-id': '12',
            'build-id': '77',
            ...values,
          },
          { env: {} },
        ),
      ),
    );

  it('reads the ids as positive whole numbers', () => {
    expect(read({ 'project-id': ' 012 ', 'build-id': '77' })).toMatchObject({
      projectId: '12',
      buildId: '77',
    });
  });

  it.each([
    ['abc', 'has "abc", which is not a positive whole number'],
    ['12abc', 'has "12abc", which is not a positive whole number'],
    ['null', 'has "null", which is not a positive whole number'],
    ['0', 'has "0", which is not positive'],
    ['-1', 'has "-1", which is not a positive whole number'],
    ['1.5', 'has "1.5", which is not a positive whole number'],
    ['99999999999999999999', 'has "99999999999999999999", which is too large for an id'],
    [
      '${{ steps.upload.outputs.build-id }}',
      'has "${{ steps.upload.outputs.build-id }}", which is not a positive whole number',
    ],
  ])('refuses the build id %s, saying what an id is and where it comes from', (value, problem) => {
    for (const input of ['project-id', 'build-id']) {
      let message = '';
      try {
        read({ [input]: value });
      } catch (error) {
        expect(error).toBeInstanceOf(InputError);
        message = (error as Error).message;
      }
      const latest =
        input === 'build-id' ? ', or `latest` with `tags` for the newest build carrying them' : '';
      expect(message).toBe(
        `Input "${input}" ${problem}. Allowed: a positive whole number such as \`1234\`, at most 9007199254740991 (the \`${input}\` output of upload-build${latest}).`,
      );
    }
  });

  it('needs both ids, naming their form', () => {
    expect(() => read({ 'build-id': '' })).toThrow(
      'Input "build-id" is required but was empty. Allowed: a positive whole number such as `1234`, at most 9007199254740991 (the `build-id` output of upload-build, or `latest` with `tags` for the newest build carrying them).',
    );
  });
});

describe('invite-testers against the emulator', () => {
  it('refuses bad ids and emails as the host reads them, with no request sent', async () => {
    const emulator = await startEmulator({ port: 0 });
    try {
      for (const values of [
        { 'build-id': 'abc' },
        { 'project-id': '0' },
        { 'build-id': '99999999999999999999' },
        { email: 'demo' },
        { testers: 'dave', 'tester-group': 'nightly' },
      ]) {
        const attempt = async () => {
          const parsed = readInputs(
            new InputReader(
              inputSource(
                {
                  'api-url': emulator.url,
                  email: 'demo@example.com',
                  'api-key': 'demo-api-key',
                  'project-id': '1',
                  'build-id': '1',
                  groups: 'qa',
                  ...values,
                },
                { env: {} },
              ),
            ),
          );
          const client = createClient(parsed.connection, testStepDeps().logger);
          try {
            return await run(parsed, { ...testStepDeps(), client });
          } finally {
            await client.close();
          }
        };
        await expect(attempt(), JSON.stringify(values)).rejects.toThrow(InputError);
      }
      const journal = (await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as {
        requests: unknown[];
      };
      expect(journal.requests).toEqual([]);
    } finally {
      await emulator.close();
    }
  });

  it('invites a group and new testers to an uploaded build', async () => {
    const emulator = await startEmulator({ port: 0 });
    const client = new SauceClient({
      apiUrl: emulator.url,
      email: 'demo@example.com',
      apiKey: 'demo-api-key',
    });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'invite-'));
    try {
      const apk = path.join(dir, 'app.apk');
      await createSampleApk(apk, { packageId: 'com.example.a', name: 'A', version: '1.0.0', versionCode: 1 });
      const uploaded = await client.mobile.upload(apk);
      const deps = { ...testStepDeps(), client };
      const result = await run(
        inputs({
          projectId: String(uploaded.project_id),
          buildId: String(uploaded.build_id),
          groups: ['qa'],
          testers: ['dave@example.com'],
          testerGroup: 'nightly',
        }),
        deps,
      );
      expect(result.failure).toBeUndefined();
      expect(result.outputs['invited-groups']).toEqual(['qa', 'nightly']);
      expect(result.outputs['added-testers']).toEqual(['dave@example.com']);
      // The seed has no `nightly`: the service made it for the testers.
      expect(result.outputs['created-groups']).toEqual(['nightly']);
      expect(result.summary).toContain(`<h2>Invited testers to build ${uploaded.build_id}</h2>`);
      const journal = (await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as {
        requests: { method: string; path: string }[];
      };
      expect(journal.requests.some((r) => r.method === 'POST' && /\/invites\/?$/.test(r.path))).toBe(true);
    } finally {
      await client.close();
      await emulator.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
