import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultMobileSeed } from '../../src/mobile/seed.ts';
import { EMAIL, basic, call, start, uploadApk, type Harness } from './helpers.ts';

const VIEWER = basic('viewer@example.com', 'viewer-key');
const TESTER = basic('tester@example.com', 'tester-key');

let h: Harness;
beforeEach(async () => {
  h = await start({
    accounts: [
      ...defaultMobileSeed().accounts,
      { email: 'viewer@example.com', apiKey: 'viewer-key', role: 'admin', permissions: ['*:r'] },
      { email: 'tester@example.com', apiKey: 'tester-key', role: 'tester', permissions: [] },
    ],
  });
});
afterEach(async () => {
  await h.close();
});

describe('projects and builds', () => {
  it('lists projects in v1 and v2 shapes', async () => {
    const { projectId, buildId } = await uploadApk(h, 'com.example.one', '1.0', { folder_name: 'Releases' });
    const v1 = await call(h, 'GET', '/api/1/projects/');
    expect(v1.body.status).toBe('ok');
    expect(v1.body.projects).toEqual([
      expect.objectContaining({
        id: String(projectId),
        self: `/api/1/projects/${projectId}/`,
        name: 'Demo App',
        packageName: 'com.example.one',
        platform: 'Android',
        landingPageMode: 'open',
      }),
    ]);
    const v2 = await call(h, 'GET', '/api/2/projects');
    expect(v2.body.projects).toEqual([expect.objectContaining({ id: projectId, platform: 'Android' })]);
    expect(v2.body.pagination).toEqual({ page: 1, per_page: 25, total: 1, total_pages: 1 });
    const single = await call(h, 'GET', `/api/2/projects/${projectId}`);
    expect(single.body.project).toMatchObject({
      id: projectId,
      folderName: 'Releases',
      landingPageMode: 'open',
    });
    const v1Builds = await call(h, 'GET', `/api/1/projects/${projectId}/builds/`);
    expect(v1Builds.body.builds).toEqual([
      expect.objectContaining({
        id: buildId,
        projectId,
        appVersion: '1.0',
        downloads: 0,
        hasVendorSdk: false,
      }),
    ]);
    const build = v1Builds.body.builds as Record<string, unknown>[];
    expect(build[0]!.uploadedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const missing = await call(h, 'GET', '/api/2/projects/999');
    expect(missing.status).toBe(404);
    expect(missing.body.status).toBe('fail');
  });

  it('paginates v2 projects with per_page at most 100 and builds the same way', async () => {
    for (let i = 0; i < 3; i++) await uploadApk(h, `com.example.p${i}`);
    const page = await call(h, 'GET', '/api/2/projects?page=2&per_page=2');
    expect((page.body.projects as unknown[]).length).toBe(1);
    expect(page.body.pagination).toEqual({ page: 2, per_page: 2, total: 3, total_pages: 2 });
    const capped = await call(h, 'GET', '/api/2/projects?per_page=500');
    expect((capped.body.pagination as { per_page: number }).per_page).toBe(100);
    const bad = await call(h, 'GET', '/api/2/projects?page=0');
    expect(bad.status).toBe(400);
    const { projectId } = await uploadApk(h, 'com.example.p0', '2.0');
    const builds = await call(h, 'GET', `/api/2/projects/${projectId}/builds?per_page=1000`);
    expect(builds.body.pagination).toEqual({ page: 1, per_page: 100, total: 2, total_pages: 1 });
    const testers = await call(h, 'GET', `/api/2/projects/${projectId}/testers?per_page=1000`);
    expect((testers.body.pagination as { per_page: number }).per_page).toBe(200);
    const defaults = await call(h, 'GET', `/api/2/projects/${projectId}/testers`);
    expect((defaults.body.pagination as { per_page: number }).per_page).toBe(50);
  });

  it('updates only the supplied fields, by form or JSON, and refuses multipart', async () => {
    const { projectId, buildId } = await uploadApk(h, 'com.example.patch', '1.0', {
      tags: 'a',
      groups: 'qa',
    });
    const path = `/api/1/projects/${projectId}/builds/${buildId}/`;
    const form = await call(h, 'PATCH', path, { form: { release_notes: 'Notes', metadata_commit: 'abc' } });
    expect(form.body).toEqual({
      status: 'ok',
      build_id: buildId,
      tags: ['a'],
      metadata: { commit: 'abc' },
      changelog: 'Notes',
      groups: ['qa'],
      landing_page_mode: 'open',
    });
    const json = await call(h, 'PATCH', path, {
      json: { tags: 'x,y', groups: '', landing_page_mode: 'closed' },
    });
    expect(json.body).toMatchObject({
      tags: ['x', 'y'],
      groups: [],
      landing_page_mode: 'closed',
      changelog: 'Notes',
    });
    const multipart = new FormData();
    multipart.append('comment', 'x');
    const refused = await fetch(`${h.url}${path}`, {
      method: 'PATCH',
      body: multipart,
      headers: { authorization: basic(EMAIL, 'demo-api-key') },
    });
    expect(refused.status).toBe(415);
    expect(await refused.json()).toMatchObject({ status: 'fail' });
    const after = await call(h, 'GET', `/api/1/projects/${projectId}/builds/${buildId}`);
    expect((after.body.build as { landingPageMode: string }).landingPageMode).toBe('closed');
  });

  it('counts as a build’s testers those invited and the members of the groups with access, each once', async () => {
    // The default seed's groups: qa (alice, bob) and beta (bob, carol).
    const { projectId, buildId } = await uploadApk(h, 'com.example.count', '1.0', { groups: 'qa' });
    const testers = async () =>
      (
        (await call(h, 'GET', `/api/1/projects/${projectId}/builds/${buildId}`)).body.build as {
          testers: number;
        }
      ).testers;
    expect(await testers()).toBe(2);
    await call(h, 'POST', `/api/1/projects/${projectId}/builds/${buildId}/invites/`, {
      form: { groups: 'beta' },
    });
    expect(await testers()).toBe(3);
    await call(h, 'PATCH', `/api/1/projects/${projectId}/builds/${buildId}/`, { form: { groups: '' } });
    // The invitations stay: alice lost her access through qa, bob and carol are invited through beta.
    expect(await testers()).toBe(2);
    const listed = await call(h, 'GET', `/api/1/projects/${projectId}/builds/`);
    expect((listed.body.builds as { testers: number }[])[0]!.testers).toBe(2);
  });

  it('fails updates with codes 1, 99, 133 and 156', async () => {
    const { projectId, buildId } = await uploadApk(h);
    const path = `/api/1/projects/${projectId}/builds/${buildId}/`;
    const missing = await call(h, 'PATCH', `/api/1/projects/${projectId}/builds/999/`, {
      form: { comment: 'x' },
    });
    expect(missing.body).toMatchObject({ status: 'fail', code: 1 });
    const invalid = await call(h, 'PATCH', `/api/1/projects/${projectId}/builds/abc/`, {
      form: { comment: 'x' },
    });
    expect(invalid.body).toMatchObject({ status: 'fail', code: 1 });
    const viewer = await call(h, 'PATCH', path, { form: { comment: 'x' }, auth: VIEWER });
    expect(viewer.status).toBe(403);
    expect(viewer.body).toMatchObject({ status: 'fail', code: 99 });
    const tester = await call(h, 'PATCH', path, { form: { comment: 'x' }, auth: TESTER });
    expect(tester.body).toMatchObject({ status: 'fail', code: 133 });

    h.emulator.context.mobile.data.requireLogin = true;
    const open = await call(h, 'PATCH', path, { form: { landing_page_mode: 'open' } });
    expect(open.body).toMatchObject({ status: 'fail', code: 156 });
    const closed = await call(h, 'PATCH', path, { form: { landing_page_mode: 'closed' } });
    expect(closed.body.status).toBe('ok');
  });

  it('copies a build into a folder with resolved groups', async () => {
    const { projectId, buildId } = await uploadApk(h, 'com.example.copy', '1.0', { groups: 'qa' });
    const missing = await call(h, 'POST', `/api/1/projects/${projectId}/builds/${buildId}/copy`, {
      form: {},
    });
    expect(missing.body).toMatchObject({ status: 'fail', code: 1 });
    const copy = await call(h, 'POST', `/api/1/projects/${projectId}/builds/${buildId}/copy`, {
      form: {
        folder_name: '/Clients/Acme/',
        app_name: 'Acme App',
        groups: 'beta,nope',
        allowAllTesters: '1',
      },
    });
    expect(copy.body).toMatchObject({
      status: 'ok',
      folder_path: 'Clients/Acme',
      app_name: 'Acme App',
      assigned_groups: ['beta'],
      invalid_groups: ['nope'],
      assigned_project_groups: [],
      invalid_project_groups: [],
    });
    expect(copy.body.build_id).not.toBe(buildId);
    const projects = await call(h, 'GET', '/api/2/projects');
    const copied = (projects.body.projects as { id: number; name: string }[]).find(
      (p) => p.name === 'Acme App',
    );
    expect(copied).toBeDefined();
    const project = await call(h, 'GET', `/api/2/projects/${copied!.id}`);
    expect((project.body.project as { folderName: string }).folderName).toBe('Clients/Acme');
  });

  it('invites groups and reports each tester against the build', async () => {
    const { projectId, buildId } = await uploadApk(h);
    const none = await call(h, 'POST', `/api/1/projects/${projectId}/builds/${buildId}/invites/`, {
      form: {},
    });
    expect(none.body).toMatchObject({ status: 'fail', code: 1 });
    const invite = await call(h, 'POST', `/api/1/projects/${projectId}/builds/${buildId}/invites/`, {
      form: { groups: 'qa', comment: 'Please test', notify: 'on' },
    });
    expect(invite.status).toBe(200);
    expect(invite.body.status).toBe('ok');
    expect(invite.body.invited_testers).toEqual(['alice@example.com', 'bob@example.com']);

    const testers = await call(h, 'GET', `/api/1/testers?buildId=${buildId}`);
    const byEmail = new Map((testers.body.testers as Record<string, unknown>[]).map((t) => [t.email, t]));
    expect(byEmail.get('alice@example.com')).toMatchObject({
      isInvitedToBuild: true,
      buildInviteStatus: 'invited',
    });
    expect(byEmail.get('alice@example.com')!.buildInviteTime).toMatch(/^\d{4}-\d{2}-\d{2} /);
    const link = String(byEmail.get('alice@example.com')!.appDownloadLink);
    expect(link.startsWith(h.url)).toBe(true);
    expect(byEmail.get('carol@example.com')).toMatchObject({
      isInvitedToBuild: false,
      buildInviteTime: null,
      appDownloadLink: null,
    });
    expect((await fetch(`${link}app`)).status).toBe(200);

    const projectTesters = await call(h, 'GET', `/api/2/projects/${projectId}/testers`);
    expect((projectTesters.body.testers as { email: string }[]).map((t) => t.email)).toEqual([
      'alice@example.com',
      'bob@example.com',
    ]);
    const audits = await call(h, 'GET', '/api/2/audits/tester-trail/?action_type=1200');
    expect(audits.body.audits).toEqual([
      expect.objectContaining({
        actionType: 1200,
        actionLabel: 'Invited testers',
        actionData: expect.objectContaining({ emails: ['alice@example.com', 'bob@example.com'] }),
      }),
    ]);
  });

  it('deletes builds; the project leaves the list with its last build', async () => {
    const first = await uploadApk(h, 'com.example.del', '1.0');
    const second = await uploadApk(h, 'com.example.del', '2.0');
    const del1 = await call(h, 'DELETE', `/api/1/projects/${first.projectId}/builds/${first.buildId}`);
    expect(del1.body).toEqual({ status: 'ok' });
    expect((await call(h, 'GET', '/api/1/projects/')).body.projects).toHaveLength(1);
    const gone = await call(h, 'GET', `/api/1/projects/${first.projectId}/builds/${first.buildId}/download/`);
    expect(gone.status).toBe(404);
    await call(h, 'DELETE', `/api/1/projects/${second.projectId}/builds/${second.buildId}`);
    expect((await call(h, 'GET', '/api/1/projects/')).body.projects).toEqual([]);
    expect((await call(h, 'GET', `/api/2/projects/${first.projectId}`)).status).toBe(404);
    const audits = await call(h, 'GET', '/api/2/audits/?action_type=1302');
    expect((audits.body.audits as unknown[]).length).toBe(2);
  });
});
