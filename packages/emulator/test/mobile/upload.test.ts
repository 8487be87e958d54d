import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY, OIDC, call, sampleApk, sampleIpa, start, upload, type Harness } from './helpers.ts';

let h: Harness;
beforeEach(async () => {
  h = await start();
});
afterEach(async () => {
  await h.close();
});

describe('upload', () => {
  it('reads name, version and package from an APK and serves the same bytes back', async () => {
    const apk = await sampleApk(h, 'com.example.shop', '2.3.4', 57);
    const answer = await upload(h, apk, {
      tags: 'nightly, qa',
      release_notes: 'Fixes',
      'metadata.commit': 'abc123',
      notify: 'on',
    });
    expect(answer.status).toBe(200);
    const body = answer.body;
    expect(body).toMatchObject({
      status: 'ok',
      app_name: 'Demo App',
      app_version: '2.3.4',
      platform: 'Android',
      tags: ['nightly', 'qa'],
      metadata: [{ key: 'commit', value: 'abc123' }],
      has_vendor_sdk: false,
      attachments: null,
      landing_page_mode: 'open',
      options: 'notify',
    });
    const bytes = await readFile(apk);
    expect(body.file_size).toBe(bytes.length);
    expect(Number.isInteger(body.build_id)).toBe(true);
    expect(Number.isInteger(body.project_id)).toBe(true);
    for (const field of [
      'build_url',
      'download_page_url',
      'app_url',
      'invite_testers_url',
      'icon_url',
      'landing_page_url',
      'build_specific_landing_page_url',
    ]) {
      expect(String(body[field]).startsWith(h.url)).toBe(true);
    }

    const build = await call(h, 'GET', `/api/1/projects/${body.project_id}/builds/${body.build_id}`);
    expect(build.body.build).toMatchObject({
      appVersion: '2.3.4',
      appVersionCode: '57',
      appName: 'Demo App',
    });
    const project = await call(h, 'GET', `/api/2/projects/${body.project_id}`);
    expect(project.body.project).toMatchObject({ packageName: 'com.example.shop', platform: 'Android' });

    const download = await fetch(
      `${h.url}/api/1/projects/${body.project_id}/builds/${body.build_id}/download/`,
      {
        headers: { authorization: `Basic ${Buffer.from(`demo@example.com:${API_KEY}`).toString('base64')}` },
      },
    );
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    const direct = await fetch(String(body.app_url));
    expect(Buffer.from(await direct.arrayBuffer()).equals(bytes)).toBe(true);
    const page = await fetch(String(body.landing_page_url));
    expect(await page.text()).toContain('Demo App 2.3.4 (57)');
    const icon = await fetch(String(body.icon_url));
    expect(icon.headers.get('content-type')).toBe('image/png');
  });

  it('reads an IPA with a binary Info.plist, with OIDC bearer credentials instead of api_key', async () => {
    const ipa = await sampleIpa(h, {
      packageId: 'com.example.ios',
      name: 'Shop',
      version: '5.1',
      versionCode: 501,
      binaryPlist: true,
    });
    const answer = await upload(h, ipa, { api_key: '' }, OIDC);
    expect(answer.body).toMatchObject({
      status: 'ok',
      app_name: 'Shop',
      app_version: '5.1',
      platform: 'iOS',
    });
    const download = await call(
      h,
      'GET',
      `/api/1/projects/${answer.body.project_id}/builds/${answer.body.build_id}`,
    );
    expect(download.body.build).toMatchObject({ appVersionCode: '501' });
  });

  it('adds a new version to the same project and another platform to another project', async () => {
    const first = await upload(h, await sampleApk(h, 'com.example.same', '1.0', 1));
    const second = await upload(h, await sampleApk(h, 'com.example.same', '1.1', 2), { app_name: 'Renamed' });
    const ios = await upload(h, await sampleIpa(h, { packageId: 'com.example.same' }));
    expect(second.body.project_id).toBe(first.body.project_id);
    expect(second.body.build_id).not.toBe(first.body.build_id);
    expect(second.body.app_name).toBe('Renamed');
    expect(ios.body.project_id).not.toBe(first.body.project_id);
    const builds = await call(h, 'GET', `/api/2/projects/${first.body.project_id}/builds`);
    expect((builds.body.builds as { appVersion: string }[]).map((b) => b.appVersion)).toEqual(['1.1', '1.0']);
    const projects = await call(h, 'GET', '/api/2/projects/');
    expect((projects.body.projects as unknown[]).length).toBe(2);
  });

  it('answers 105 for a file that is not a package, and leaves no project behind', async () => {
    const junk = path.join(h.dir, 'junk.apk');
    await writeFile(junk, 'not a zip at all');
    const answer = await upload(h, junk);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: 'fail', code: 105 });
    const projects = await call(h, 'GET', '/api/1/projects/');
    expect(projects.body.projects).toEqual([]);
  });

  it('fails with code 1 naming the missing file or key, and code 5 for a wrong key', async () => {
    const noFile = await upload(h, undefined);
    expect(noFile.status).toBe(400);
    expect(noFile.body).toMatchObject({ status: 'fail', code: 1 });
    expect(noFile.body.message).toContain('file');

    const apk = await sampleApk(h);
    const noKey = await upload(h, apk, { api_key: '' });
    expect(noKey.status).toBe(401);
    expect(noKey.body).toMatchObject({ status: 'fail', code: 1 });
    expect(noKey.body.message).toContain('api_key');

    const wrongKey = await upload(h, apk, { api_key: 'wrong' });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body).toMatchObject({ status: 'fail', code: 5 });
    expect(JSON.stringify(wrongKey.body)).not.toContain('wrong');

    const wrongBearer = await upload(h, apk, { api_key: '' }, { ...OIDC, authorization: 'Bearer nope' });
    expect(wrongBearer.body).toMatchObject({ status: 'fail', code: 5 });
  });

  it('keeps a symbols file and serves it at symbols_download_url', async () => {
    const mapping = path.join(h.dir, 'mapping.txt');
    await writeFile(mapping, 'com.example.A -> a:\n');
    const answer = await upload(h, await sampleApk(h), {}, {}, { symbols_file: mapping });
    expect(answer.body.status).toBe('ok');
    const raw = await fetch(String(answer.body.symbols_download_url), {
      headers: { authorization: `Basic ${Buffer.from(`demo@example.com:${API_KEY}`).toString('base64')}` },
    });
    expect(await raw.text()).toBe('com.example.A -> a:\n');
  });

  it('accepts a console package by the platform field with an app_name', async () => {
    const pkg = path.join(h.dir, 'game.xvc');
    await writeFile(pkg, 'opaque console package');
    const noName = await upload(h, pkg, { platform: 'Xbox' });
    expect(noName.body).toMatchObject({ status: 'fail', code: 1 });
    const answer = await upload(h, pkg, { platform: 'Xbox', app_name: 'Racer' });
    expect(answer.body).toMatchObject({ status: 'ok', platform: 'Xbox', app_name: 'Racer' });
  });

  it('refuses an open landing page when the account requires login with the upload’s code 1, and closes it by default', async () => {
    h.emulator.context.mobile.data.requireLogin = true;
    const apk = await sampleApk(h, 'com.example.login', '1.0.0', 1);
    const open = await upload(h, apk, { landing_page_mode: 'open' });
    expect(open.status).toBe(400);
    // 156 is the build update's code (seed 001); the upload's codes are 1, 5 and 105.
    expect(open.body).toMatchObject({ status: 'fail', code: 1 });
    expect(open.body.message).toContain('landing_page_mode');
    expect((await call(h, 'GET', '/api/1/projects/')).body.projects).toEqual([]);
    const unsaid = await upload(h, apk);
    expect(unsaid.body).toMatchObject({ status: 'ok', landing_page_mode: 'closed' });
  });
});
