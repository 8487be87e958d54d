/** Round trips through the typed API client against the emulator. */
import { readFile } from 'node:fs/promises';
import { ApiError, SauceClient } from '@sauce-actions/api';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { API_KEY, EMAIL, sampleApk, sampleIpa, start, type Harness } from './helpers.ts';

let h: Harness;
let client: SauceClient;
beforeEach(async () => {
  h = await start();
  client = new SauceClient({ email: EMAIL, apiKey: API_KEY, apiUrl: h.url, retry: { retries: 0 } });
});
afterEach(async () => {
  await h.close();
});

describe('SauceClient mobile operations against the emulator', () => {
  it('uploads, lists, updates, invites, downloads and deletes', async () => {
    const apk = await sampleApk(h, 'com.example.client', '4.0.0', 400);
    const uploaded = await client.mobile.upload(apk, {
      tags: ['ci'],
      metadata: { sha: 'f00' },
      groups: ['qa'],
    });
    expect(uploaded).toMatchObject({ status: 'ok', app_version: '4.0.0', platform: 'Android', tags: ['ci'] });
    const projectId = uploaded.project_id;
    const buildId = uploaded.build_id;

    const projects = await client.mobile.projects.list();
    expect(projects.projects.map((p) => p.packageName)).toEqual(['com.example.client']);
    const builds = await client.mobile.projects.listBuilds(projectId);
    expect(builds.builds[0]).toMatchObject({ id: buildId, appVersionCode: '400' });

    const updated = await client.mobile.builds.update(projectId, buildId, { comment: 'Notes', groups: [] });
    expect(updated).toMatchObject({ changelog: 'Notes', groups: [], tags: ['ci'] });

    const invited = await client.mobile.builds.invite(projectId, buildId, { groups: ['beta'], notify: true });
    expect(invited.status).toBe('ok');
    const testers = await client.mobile.testers.list({ buildId });
    const carol = testers.testers.find((t) => t.email === 'carol@example.com');
    expect(carol).toMatchObject({ isInvitedToBuild: true });
    // A tester who never signed in has no last login; one not invited has no invitation time or link.
    expectTypeOf(carol!.lastLogin).toEqualTypeOf<string | null>();
    expectTypeOf(carol!.buildInviteTime).toEqualTypeOf<string | null | undefined>();
    expect(carol?.lastLogin).toBeNull();
    const alice = testers.testers.find((t) => t.email === 'alice@example.com');
    expect(alice).toMatchObject({ isInvitedToBuild: false, buildInviteTime: null, appDownloadLink: null });
    const everyone = await client.mobile.testers.list();
    expect(everyone.testers.every((t) => t.lastLogin === null)).toBe(true);

    const downloaded = await client.mobile.builds.download(projectId, buildId, {
      dir: h.dir,
      fileName: 'back.apk',
    });
    expect((await readFile(downloaded.path)).equals(await readFile(apk))).toBe(true);

    await client.mobile.builds.delete(projectId, buildId);
    expect((await client.mobile.projects.listV1()).projects).toEqual([]);
  });

  it('joins a second version to the project and reports failures as ApiError', async () => {
    const first = await client.mobile.upload(await sampleIpa(h, { version: '1.0', versionCode: 1 }));
    const second = await client.mobile.upload(await sampleIpa(h, { version: '1.1', versionCode: 2 }));
    expect(second.project_id).toBe(first.project_id);

    const wrong = new SauceClient({
      email: EMAIL,
      apiKey: 'not-the-key',
      apiUrl: h.url,
      retry: { retries: 0 },
    });
    const failure = await wrong.mobile.upload(await sampleApk(h)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(String((failure as Error).message)).not.toContain('not-the-key');
  });

  it('manages testers, groups, webhooks and sites', async () => {
    await client.mobile.testers.add({ emails: ['zoe@example.com'], group: 'night' });
    const groups = await client.mobile.groups.list();
    const night = groups.groups.find((g) => g.name === 'night')!;
    const members = await client.mobile.groups.listTesters(night.id);
    expect(members.testers).toEqual([{ email: 'zoe@example.com' }]);
    await client.mobile.testerGroups.removeTesters(night.id, ['zoe@example.com']);
    expect((await client.mobile.groups.list()).groups.some((g) => g.name === 'night')).toBe(false);

    await client.mobile.webhooks.create({
      name: 'w',
      url: 'https://hooks.example.com',
      enabled: true,
      actions: ['upload'],
    });
    const hooks = await client.mobile.webhooks.list();
    expect(hooks.webhooks[0]).toMatchObject({ name: 'w', status: '1', actions: 'upload' });
    await client.mobile.sites.create({ name: 'branch-1' });
    const site = await client.mobile.sites.get();
    expect(site.site.accounts.map((a) => a.name)).toContain('branch-1');
    const trail = await client.mobile.audits.listAdminTrail();
    expect(trail.audits.map((a) => a.actionType)).toEqual([1920, 1910]);
  });
});
