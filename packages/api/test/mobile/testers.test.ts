import { afterEach, describe, expect, it } from 'vitest';
import { collect } from '../../src/core/resources/pagination.ts';
import { MOBILE_ORIGIN, mockClient, type MockSetup } from '../support/mock.ts';
import { apiErrorOf, formOf, onlyRequest } from './helpers.ts';

describe('mobile testers', () => {
  let setup: MockSetup;
  afterEach(async () => {
    await setup.agent.close();
  });

  it('listTesters without a build id sends no query', async () => {
    setup = mockClient();
    const tester = {
      email: 'a@example.com',
      groups: [{ id: 1, name: 'QA' }],
      lastLogin: 'x',
      createdAt: 'y',
    };
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/testers', { body: { status: 'ok', testers: [tester] } });
    const answer = await setup.client.mobile.testers.list();
    expect(answer.testers).toEqual([tester]);
    expect(onlyRequest(setup.requests).path).toBe('/api/1/testers');
  });

  it('listTesters with a build id reads the invitation fields', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/testers', {
      body: {
        status: 'ok',
        testers: [
          { email: 'a@example.com', isInvitedToBuild: true, buildInviteStatus: 'sent', appDownloadLink: 'l' },
        ],
      },
    });
    const answer = await setup.client.mobile.testers.list({ buildId: 70 });
    expect(answer.testers[0]?.isInvitedToBuild).toBe(true);
    expect(onlyRequest(setup.requests).query.get('buildId')).toBe('70');
  });

  it('addTesters sends emails comma-separated, the group and notify', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'POST', '/api/1/testers/', { body: { status: 'ok' } });
    const answer = await setup.client.mobile.testers.add({
      emails: ['a@example.com', 'b@example.com'],
      group: 'QA',
      notify: true,
    });
    expect(answer.status).toBe('ok');
    const request = onlyRequest(setup.requests);
    expect(request.method).toBe('POST');
    expect(formOf(request)).toEqual({ email: 'a@example.com,b@example.com', group: 'QA', notify: 'on' });
  });

  it('getTester reads one tester', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/testers/5', {
      body: { status: 'ok', tester: { id: 5, email: 'a@example.com', isBlocked: false, groups: [] } },
    });
    const answer = await setup.client.mobile.testers.get(5);
    expect(answer.tester.isBlocked).toBe(false);
    expect(onlyRequest(setup.requests).method).toBe('GET');
  });

  it('blockTester and unblockTester use POST and DELETE on block/', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'POST', '/api/1/testers/5/block/', { body: { status: 'ok' } });
    setup.reply(MOBILE_ORIGIN, 'DELETE', '/api/1/testers/5/block/', { body: { status: 'ok' } });
    expect(await setup.client.mobile.testers.block(5)).toEqual({ status: 'ok' });
    expect(await setup.client.mobile.testers.unblock(5)).toEqual({ status: 'ok' });
    expect(setup.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/1/testers/5/block/',
      'DELETE /api/1/testers/5/block/',
    ]);
    expect(onlyRequest(setup.requests.slice(1)).body).toBe('');
  });

  it('deleteTester sends DELETE', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'DELETE', '/api/1/testers/5', { body: { status: 'ok' } });
    expect(await setup.client.mobile.testers.delete(5)).toEqual({ status: 'ok' });
    expect(onlyRequest(setup.requests).method).toBe('DELETE');
  });

  it('reads a tester failure as an ApiError', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/testers/404', {
      status: 404,
      body: { status: 'fail', message: 'Tester not found' },
    });
    const error = await apiErrorOf(setup.client.mobile.testers.get(404));
    expect(error.message).toBe('getTester: 404 Tester not found (GET /api/1/testers/404)');
  });
});

describe('mobile tester groups', () => {
  let setup: MockSetup;
  afterEach(async () => {
    await setup.agent.close();
  });

  it('addTestersToGroup posts the emails', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'POST', '/api/1/testers/groups/12', {
      body: { status: 'ok', testers: [{ email: 'a@example.com' }, { email: 'b@example.com' }] },
    });
    const answer = await setup.client.mobile.testerGroups.addTesters(12, ['a@example.com', 'b@example.com']);
    expect(answer.testers).toHaveLength(2);
    const request = onlyRequest(setup.requests);
    expect(request.method).toBe('POST');
    expect(formOf(request)).toEqual({ email: 'a@example.com,b@example.com' });
  });

  it('removeTestersFromGroup sends DELETE with the emails', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'DELETE', '/api/1/testers/groups/12', {
      body: { status: 'ok', testers: [{ email: 'b@example.com' }] },
    });
    const answer = await setup.client.mobile.testerGroups.removeTesters(12, ['a@example.com']);
    expect(answer.testers).toEqual([{ email: 'b@example.com' }]);
    const request = onlyRequest(setup.requests);
    expect(request.method).toBe('DELETE');
    expect(formOf(request)).toEqual({ email: 'a@example.com' });
  });

  it('listTesterGroups reads the nested tester arrays', async () => {
    setup = mockClient();
    const group = { id: 12, name: 'QA', testers: [[{ email: 'a@example.com' }]] };
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/testers/groups', { body: { status: 'ok', groups: [group] } });
    const answer = await setup.client.mobile.testerGroups.list();
    expect(answer.groups[0]?.testers[0]?.[0]?.email).toBe('a@example.com');
    expect(onlyRequest(setup.requests).method).toBe('GET');
  });

  it('createTesterGroup posts groupName', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'POST', '/api/1/testers/groups', {
      body: { status: 'ok', id: '13', name: 'Beta' },
    });
    const answer = await setup.client.mobile.testerGroups.create('Beta');
    expect(answer).toEqual({ status: 'ok', id: '13', name: 'Beta' });
    expect(formOf(onlyRequest(setup.requests))).toEqual({ groupName: 'Beta' });
  });

  it('reads a tester-group failure as an ApiError', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'POST', '/api/1/testers/groups', {
      body: { status: 'fail', code: 1, message: 'Missing groupName' },
    });
    const error = await apiErrorOf(setup.client.mobile.testerGroups.create(''));
    expect(error.message).toBe(
      'createTesterGroup: failed code 1 Missing groupName (POST /api/1/testers/groups)',
    );
  });
});

describe('mobile groups', () => {
  let setup: MockSetup;
  afterEach(async () => {
    await setup.agent.close();
  });

  it('listGroups and getGroup read groups', async () => {
    setup = mockClient();
    const group = { id: 12, name: 'QA', private: true };
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/groups/', { body: { status: 'ok', groups: [group] } });
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/groups/12', { body: { status: 'ok', group } });
    expect((await setup.client.mobile.groups.list()).groups).toEqual([group]);
    expect((await setup.client.mobile.groups.get(12)).group).toEqual(group);
    expect(setup.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/1/groups/',
      'GET /api/1/groups/12',
    ]);
    onlyRequest(setup.requests.slice(1));
  });

  it('listGroupTesters pages with at most 200 per page', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/groups/12/testers', {
      body: {
        status: 'ok',
        testers: [{ email: 'a@example.com' }],
        pagination: { page: 1, per_page: 50, total: 1, total_pages: 1 },
      },
    });
    const page = await setup.client.mobile.groups.listTesters(12, { perPage: 50 });
    expect(page.testers).toEqual([{ email: 'a@example.com' }]);
    expect(onlyRequest(setup.requests).query.toString()).toBe('per_page=50');

    for (const page of [1, 2]) {
      setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/groups/12/testers', {
        body: {
          status: 'ok',
          testers: [{ email: `t${page}@example.com` }],
          pagination: { page, per_page: 200, total: 2, total_pages: 2 },
        },
      });
    }
    const all = await collect(setup.client.mobile.groups.iterateTesters(12, { pageSize: 300 }));
    expect(all.map((t) => t.email)).toEqual(['t1@example.com', 't2@example.com']);
    expect(setup.requests.slice(1).map((r) => r.query.get('per_page'))).toEqual(['200', '200']);
  });

  it('listGroupProjects pages with at most 100 per page', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/groups/12/projects', {
      body: {
        status: 'ok',
        projects: [{ id: 7, name: 'Shop' }],
        pagination: { page: 2, per_page: 25, total: 26, total_pages: 2 },
      },
    });
    const page = await setup.client.mobile.groups.listProjects(12, { page: 2 });
    expect(page.projects).toEqual([{ id: 7, name: 'Shop' }]);
    expect(onlyRequest(setup.requests).query.toString()).toBe('page=2');

    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/groups/12/projects', {
      body: {
        status: 'ok',
        projects: [{ id: 7, name: 'Shop' }],
        pagination: { page: 1, per_page: 100, total: 1, total_pages: 1 },
      },
    });
    expect(await collect(setup.client.mobile.groups.iterateProjects(12, { pageSize: 250 }))).toHaveLength(1);
    expect(setup.requests[1]?.query.toString()).toBe('page=1&per_page=100');
  });

  it('reads a group failure as an ApiError', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/groups/99', {
      status: 404,
      body: { status: 'fail', message: 'Group not found' },
    });
    const error = await apiErrorOf(setup.client.mobile.groups.get(99));
    expect(error.message).toBe('getGroup: 404 Group not found (GET /api/1/groups/99)');
  });
});
