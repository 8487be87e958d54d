import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MOBILE_ORIGIN, mockClient, type MockSetup } from '../support/mock.ts';
import { apiErrorOf, formOf, onlyRequest } from './helpers.ts';

const BUILD_PATH = '/api/1/projects/7/builds/70';

describe('mobile builds', () => {
  let setup: MockSetup;
  let dir: string | undefined;
  afterEach(async () => {
    await setup.agent.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('listBuildsV1 reads a project builds', async () => {
    setup = mockClient();
    const build = { id: '70', projectId: '7', appName: 'Shop', downloads: 3, hasVendorSdk: false };
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/projects/7/builds/', {
      body: { status: 'ok', builds: [build] },
    });
    const answer = await setup.client.mobile.builds.listV1(7);
    expect(answer.builds).toEqual([build]);
    expect(onlyRequest(setup.requests).method).toBe('GET');
  });

  it('getBuild reads one build', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', BUILD_PATH, {
      body: { status: 'ok', build: { id: '70', appVersion: '2.1', videoEnabled: true } },
    });
    const answer = await setup.client.mobile.builds.get(7, 70);
    expect(answer.build.appVersion).toBe('2.1');
    expect(answer.build.videoEnabled).toBe(true);
    expect(onlyRequest(setup.requests).path).toBe(BUILD_PATH);
  });

  it('deleteBuild sends DELETE', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'DELETE', BUILD_PATH, { body: { status: 'ok' } });
    expect(await setup.client.mobile.builds.delete('7', '70')).toEqual({ status: 'ok' });
    expect(onlyRequest(setup.requests).method).toBe('DELETE');
  });

  it('updateBuild sends only the fields given, form-encoded', async () => {
    setup = mockClient();
    const answer = {
      status: 'ok',
      build_id: 70,
      tags: ['beta', 'qa'],
      metadata: { jira: 'SHOP-1' },
      changelog: 'Fixes',
      groups: ['QA', 'Beta'],
      landing_page_mode: 'closed',
    };
    setup.reply(MOBILE_ORIGIN, 'PATCH', `${BUILD_PATH}/`, { body: answer });
    const result = await setup.client.mobile.builds.update(7, 70, {
      comment: 'Fixes',
      tags: ['beta', 'qa'],
      groups: ['QA', 'Beta'],
      landingPageMode: 'closed',
      metadata: { jira: 'SHOP-1', owner: 'team a' },
    });
    expect(result).toEqual(answer);
    const request = onlyRequest(setup.requests);
    expect(request.method).toBe('PATCH');
    expect(formOf(request)).toEqual({
      comment: 'Fixes',
      tags: 'beta,qa',
      groups: 'QA,Beta',
      landing_page_mode: 'closed',
      metadata_jira: 'SHOP-1',
      metadata_owner: 'team a',
    });
  });

  it('updateBuild sends an empty groups field to clear groups and leaves out what is not given', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'PATCH', `${BUILD_PATH}/`, {
      body: { status: 'ok', build_id: 70, groups: [] },
    });
    await setup.client.mobile.builds.update(7, 70, { groups: [] });
    expect(formOf(onlyRequest(setup.requests))).toEqual({ groups: '' });
  });

  it.each([
    [1, 'Missing or invalid build-id'],
    [99, 'No permission'],
    [133, 'Testers cannot update builds'],
    [156, 'Landing page cannot be open'],
  ])('updateBuild failure code %i becomes ApiError.code', async (code, message) => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'PATCH', `${BUILD_PATH}/`, { body: { status: 'fail', code, message } });
    const error = await apiErrorOf(setup.client.mobile.builds.update(7, 70, { comment: 'x' }));
    expect(error.code).toBe(code);
    expect(error.serviceMessage).toBe(message);
    expect(error.message).toBe(`updateBuild: failed code ${code} ${message} (PATCH ${BUILD_PATH}/)`);
  });

  it('copyBuild sends the copy fields form-encoded', async () => {
    setup = mockClient();
    const answer = {
      status: 'ok',
      build_id: 71,
      folder_path: 'Releases/2026',
      app_name: 'Shop copy',
      assigned_groups: ['QA'],
      invalid_groups: ['Nope'],
      assigned_project_groups: [],
      invalid_project_groups: [],
    };
    setup.reply(MOBILE_ORIGIN, 'POST', `${BUILD_PATH}/copy`, { body: answer });
    const result = await setup.client.mobile.builds.copy(7, 70, {
      folderName: 'Releases/2026',
      appName: 'Shop copy',
      groups: ['QA', 'Nope'],
      projectGroups: [12],
      allowAllTesters: false,
    });
    expect(result).toEqual(answer);
    const request = onlyRequest(setup.requests);
    expect(request.method).toBe('POST');
    expect(formOf(request)).toEqual({
      folder_name: 'Releases/2026',
      app_name: 'Shop copy',
      groups: 'QA,Nope',
      projectGroups: '12',
      allowAllTesters: '0',
    });
  });

  it('inviteToBuild sends groups, comment and notify', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'POST', `${BUILD_PATH}/invites/`, { body: { status: 'ok' } });
    const result = await setup.client.mobile.builds.invite(7, 70, {
      groups: ['QA', 3],
      comment: 'Please test checkout',
      notify: true,
    });
    expect(result).toEqual({ status: 'ok' });
    const request = onlyRequest(setup.requests);
    expect(request.method).toBe('POST');
    expect(formOf(request)).toEqual({ groups: 'QA,3', comment: 'Please test checkout', notify: 'on' });
  });

  it('inviteToBuild leaves notify out when not asked and accepts an empty answer', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'POST', `${BUILD_PATH}/invites/`, {});
    expect(await setup.client.mobile.builds.invite(7, 70, { groups: ['QA'] })).toEqual({});
    expect(formOf(onlyRequest(setup.requests))).toEqual({ groups: 'QA' });
  });

  it('downloadBuild streams the binary to a safe file name from Content-Disposition', async () => {
    setup = mockClient();
    dir = await mkdtemp(path.join(tmpdir(), 'mobile-download-'));
    const bytes = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff]);
    setup.reply(MOBILE_ORIGIN, 'GET', `${BUILD_PATH}/download/`, {
      body: bytes,
      headers: {
        'content-type': 'application/vnd.android.package-archive',
        'content-disposition': 'attachment; filename="../../evil/shop.apk"',
      },
    });
    const result = await setup.client.mobile.builds.download(7, 70, { dir });
    expect(result).toEqual({ path: path.join(dir, 'shop.apk'), bytes: bytes.length });
    expect(await readFile(result.path)).toEqual(bytes);
    const request = onlyRequest(setup.requests);
    expect(request.method).toBe('GET');
  });

  it('downloadBuild falls back to a default name', async () => {
    setup = mockClient();
    dir = await mkdtemp(path.join(tmpdir(), 'mobile-download-'));
    setup.reply(MOBILE_ORIGIN, 'GET', `${BUILD_PATH}/download/`, {
      body: Buffer.from('ipa'),
      headers: { 'content-type': 'application/octet-stream' },
    });
    const result = await setup.client.mobile.builds.download(7, 70, { dir });
    expect(path.basename(result.path)).toBe('build-70');
    expect(await readFile(result.path, 'utf8')).toBe('ipa');
  });

  it('downloadBuild turns a JSON status fail into an ApiError and writes nothing', async () => {
    setup = mockClient();
    dir = await mkdtemp(path.join(tmpdir(), 'mobile-download-'));
    setup.reply(MOBILE_ORIGIN, 'GET', `${BUILD_PATH}/download/`, {
      body: { status: 'fail', code: 1, message: 'Build not found' },
    });
    const error = await apiErrorOf(setup.client.mobile.builds.download(7, 70, { dir }));
    expect(error.message).toBe(`downloadBuild: failed code 1 Build not found (GET ${BUILD_PATH}/download/)`);
    expect(await readdir(dir)).toEqual([]);
  });

  it('reads an HTTP error of the builds group without leaking the key', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'DELETE', BUILD_PATH, {
      status: 403,
      body: { status: 'fail', code: 99, message: 'No permission for secret-api-key' },
    });
    const error = await apiErrorOf(setup.client.mobile.builds.delete(7, 70));
    expect(error.message).toBe(`deleteBuild: 403 code 99 No permission for *** (DELETE ${BUILD_PATH})`);
  });
});
