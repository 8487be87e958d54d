import { ActionError, InputError } from '@sauce-actions/action-kit';
import {
  ApiError,
  type MobileInvite,
  type MobileTesterGroup,
  type MobileTestersAdd,
} from '@sauce-actions/api';
import { describe, expect, it } from 'vitest';
import { run, type InviteDeps, type InviteInputs } from '../src/run.ts';
import { inviteSummary } from '../src/summary.ts';

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
  const deps: InviteDeps = {
    log: () => {},
    client: {
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
          for (const email of add.emails ?? [])
            if (!refuse.includes(email)) group.testers[0]!.push({ email });
          return { status: 'ok' };
        },
      },
      builds: {
        invite: async (projectId: string | number, buildId: string | number, invite: MobileInvite) => {
          calls.invites.push({ projectId: String(projectId), buildId: String(buildId), invite });
          return { status: 'ok' };
        },
      },
    } as unknown as InviteDeps['client'],
  };
  return { deps, calls, groups };
}

function inputs(overrides: Partial<InviteInputs> = {}): InviteInputs {
  return {
    projectId: '12',
    buildId: '77',
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
        testers: ['alice@example.com', 'Alice@example.com', 'blocked@example.com'],
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
    expect(report.outputs).toEqual({
      'invited-groups': ['qa', 'nightly'],
      'added-testers': ['alice@example.com'],
      'refused-testers': ['blocked@example.com'],
      'created-groups': [],
    });
    const html = inviteSummary(report).html();
    expect(html).toContain('<td>Invited groups</td><td>qa, nightly</td>');
    expect(html).toContain('<li>alice@example.com</li>');
    expect(html).toContain('Refused by the service');
  });

  it('refuses unknown groups unless told to create them', async () => {
    const account = fakeAccount([{ id: 1, name: 'qa', testers: [[]] }]);
    const error = await run(inputs({ groups: ['qa', 'beta'] }), account.deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActionError);
    expect((error as Error).message).toBe(
      'Unknown tester group: beta (the account has: qa). Fix `groups`, or set `create-groups: true` to create them.',
    );
    expect(account.calls.invites).toEqual([]);

    const report = await run(inputs({ groups: ['qa', 'beta'], createGroups: true }), account.deps);
    expect(account.calls.created).toEqual(['beta']);
    expect(report.outputs['invited-groups']).toEqual(['qa', 'beta']);
    expect(report.outputs['created-groups']).toEqual(['beta']);
  });

  it('names the id inputs when the build is unknown', async () => {
    const { deps } = fakeAccount([{ id: 1, name: 'qa', testers: [[]] }]);
    deps.client.builds.invite = async () => {
      throw new ApiError({
        operation: 'inviteToBuild',
        method: 'POST',
        url: '/api/1/projects/9/builds/9/invites/',
        status: 404,
      });
    };
    await expect(run(inputs({ groups: ['qa'] }), deps)).rejects.toThrow(
      /^Build 77 of project 12 was not found: check `project-id` and `build-id`/,
    );
  });

  it('checks emails and the group before sending anything', async () => {
    const { deps, calls } = fakeAccount([]);
    const invalid = await run(
      inputs({ testers: ['ok@example.com', 'not-an-email', 'a@b'], testerGroup: 'g' }),
      deps,
    ).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(InputError);
    expect((invalid as Error).message).toContain('has invalid emails: "not-an-email", "a@b"');
    await expect(run(inputs({ testers: ['ok@example.com'] }), deps)).rejects.toThrow(
      /Input "tester-group" is required/,
    );
    await expect(run(inputs(), deps)).rejects.toThrow(/no one to invite/);
    expect(calls.added).toEqual([]);
    expect(calls.invites).toEqual([]);
  });
});
