import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, start, uploadApk, type Harness } from './helpers.ts';

let h: Harness;
beforeEach(async () => {
  h = await start();
});
afterEach(async () => {
  await h.close();
});

async function testerId(email: string): Promise<number> {
  const tester = h.emulator.context.mobile.data.testers.find((t) => t.email === email);
  if (!tester) throw new Error(`no tester ${email}`);
  return tester.id;
}

describe('testers', () => {
  it('lists, adds and reads testers', async () => {
    const list = await call(h, 'GET', '/api/1/testers');
    expect(list.body.status).toBe('ok');
    const bob = (list.body.testers as Record<string, unknown>[]).find((t) => t.email === 'bob@example.com');
    expect(bob).toMatchObject({
      groups: [expect.objectContaining({ name: 'qa' }), expect.objectContaining({ name: 'beta' })],
    });
    expect(bob!.createdAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const added = await call(h, 'POST', '/api/1/testers/', {
      form: { email: 'dan@example.com, erin@example.com', group: 'newcomers', notify: 'on' },
    });
    expect(added.body).toEqual({ status: 'ok' });
    const dan = await call(h, 'GET', `/api/1/testers/${await testerId('dan@example.com')}`);
    expect(dan.body.tester).toMatchObject({
      email: 'dan@example.com',
      isBlocked: false,
      groups: [expect.objectContaining({ name: 'newcomers' })],
    });
    expect(typeof (dan.body.tester as { id: unknown }).id).toBe('number');
    const bad = await call(h, 'POST', '/api/1/testers/', { form: { email: 'not-an-email' } });
    expect(bad.status).toBe(400);
    expect((await call(h, 'GET', '/api/1/testers/9999')).status).toBe(404);
  });

  it('blocks and unblocks; unblocking an unblocked tester changes nothing', async () => {
    const { projectId, buildId } = await uploadApk(h);
    await call(h, 'POST', `/api/1/projects/${projectId}/builds/${buildId}/invites/`, {
      form: { groups: 'qa' },
    });
    const id = await testerId('alice@example.com');
    const auditsBefore = h.emulator.context.mobile.data.audits.length;
    expect((await call(h, 'DELETE', `/api/1/testers/${id}/block/`)).body).toEqual({ status: 'ok' });
    expect(h.emulator.context.mobile.data.audits.length).toBe(auditsBefore);

    expect((await call(h, 'POST', `/api/1/testers/${id}/block/`)).body).toEqual({ status: 'ok' });
    expect((await call(h, 'GET', `/api/1/testers/${id}`)).body.tester).toMatchObject({ isBlocked: true });
    let forBuild = await call(h, 'GET', `/api/1/testers?buildId=${buildId}`);
    let alice = (forBuild.body.testers as Record<string, unknown>[]).find(
      (t) => t.email === 'alice@example.com',
    );
    expect(alice).toMatchObject({
      isInvitedToBuild: true,
      buildInviteStatus: 'blocked',
      appDownloadLink: null,
    });

    await call(h, 'DELETE', `/api/1/testers/${id}/block/`);
    forBuild = await call(h, 'GET', `/api/1/testers?buildId=${buildId}`);
    alice = (forBuild.body.testers as Record<string, unknown>[]).find((t) => t.email === 'alice@example.com');
    expect(alice).toMatchObject({ isInvitedToBuild: true, buildInviteStatus: 'invited' });
    expect(alice!.appDownloadLink).not.toBeNull();
  });

  it('deletes a tester from every group and invalidates invitations; an emptied group is discarded', async () => {
    const { projectId, buildId } = await uploadApk(h);
    await call(h, 'POST', `/api/1/projects/${projectId}/builds/${buildId}/invites/`, {
      form: { groups: 'beta' },
    });
    const carol = await testerId('carol@example.com');
    const bob = await testerId('bob@example.com');
    expect((await call(h, 'DELETE', `/api/1/testers/${carol}`)).body).toEqual({ status: 'ok' });
    expect((await call(h, 'GET', `/api/1/testers/${carol}`)).status).toBe(404);
    const groups = await call(h, 'GET', '/api/1/groups/');
    const beta = (groups.body.groups as { id: number; name: string }[]).find((g) => g.name === 'beta')!;
    const members = await call(h, 'GET', `/api/1/groups/${beta.id}/testers`);
    expect(members.body.testers).toEqual([{ email: 'bob@example.com' }]);

    await call(h, 'DELETE', `/api/1/testers/${bob}`);
    const after = await call(h, 'GET', '/api/1/groups/');
    expect((after.body.groups as { name: string }[]).map((g) => g.name)).toEqual(['qa']);
    const forBuild = await call(h, 'GET', `/api/1/testers?buildId=${buildId}`);
    expect((forBuild.body.testers as { isInvitedToBuild: boolean }[]).every((t) => !t.isInvitedToBuild)).toBe(
      true,
    );
    const trail = await call(h, 'GET', '/api/2/audits/tester-trail/?action_type=1202');
    expect((trail.body.audits as unknown[]).length).toBe(2);
  });
});

describe('tester groups', () => {
  it('creates groups, adds and removes members, discards a group when its last member leaves', async () => {
    const created = await call(h, 'POST', '/api/1/testers/groups', { form: { groupName: 'ops' } });
    expect(created.body).toMatchObject({ status: 'ok', name: 'ops' });
    expect(typeof created.body.id).toBe('string');
    const id = created.body.id as string;
    const duplicate = await call(h, 'POST', '/api/1/testers/groups', { form: { groupName: 'ops' } });
    expect(duplicate.body.status).toBe('fail');
    expect((await call(h, 'POST', '/api/1/testers/groups', { form: {} })).body).toMatchObject({ code: 1 });

    const added = await call(h, 'POST', `/api/1/testers/groups/${id}`, {
      form: { email: 'alice@example.com,zed@example.com' },
    });
    expect(added.body).toEqual({
      status: 'ok',
      testers: [{ email: 'alice@example.com' }, { email: 'zed@example.com' }],
    });
    const list = await call(h, 'GET', '/api/1/testers/groups');
    expect(list.body.groups).toContainEqual({
      id: Number(id),
      name: 'ops',
      testers: [[{ email: 'alice@example.com' }, { email: 'zed@example.com' }]],
    });

    const removed = await call(h, 'DELETE', `/api/1/testers/groups/${id}`, {
      form: { email: 'zed@example.com' },
    });
    expect(removed.body).toEqual({ status: 'ok', testers: [{ email: 'alice@example.com' }] });
    await call(h, 'DELETE', `/api/1/testers/groups/${id}?email=alice@example.com`);
    expect((await call(h, 'GET', `/api/1/groups/${id}`)).status).toBe(404);
    const audits = await call(h, 'GET', '/api/2/audits/?action_type=1213');
    expect(audits.body.audits).toEqual([
      expect.objectContaining({ actionLabel: 'Discarded empty tester group' }),
    ]);
  });

  it('reads groups with their testers and projects, paginated', async () => {
    const groups = await call(h, 'GET', '/api/1/groups/');
    expect(groups.body.groups).toEqual([
      { id: 1, name: 'qa', private: false },
      { id: 2, name: 'beta', private: true },
    ]);
    expect((await call(h, 'GET', '/api/1/groups/2')).body).toEqual({
      status: 'ok',
      group: { id: 2, name: 'beta', private: true },
    });
    const testers = await call(h, 'GET', '/api/1/groups/1/testers?per_page=1&page=2');
    expect(testers.body).toEqual({
      status: 'ok',
      testers: [{ email: 'bob@example.com' }],
      pagination: { page: 2, per_page: 1, total: 2, total_pages: 2 },
    });
    expect(
      ((await call(h, 'GET', '/api/1/groups/1/testers?per_page=999')).body.pagination as { per_page: number })
        .per_page,
    ).toBe(200);
    const { projectId } = await uploadApk(h, 'com.example.g', '1.0', { groups: 'qa' });
    await uploadApk(h, 'com.example.other');
    const projects = await call(h, 'GET', '/api/1/groups/1/projects?per_page=999');
    expect(projects.body).toEqual({
      status: 'ok',
      projects: [{ id: projectId, name: 'Demo App' }],
      pagination: { page: 1, per_page: 100, total: 1, total_pages: 1 },
    });
    expect(
      ((await call(h, 'GET', '/api/1/groups/1/projects')).body.pagination as { per_page: number }).per_page,
    ).toBe(25);
  });
});
