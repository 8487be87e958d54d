import { afterEach, describe, expect, it } from 'vitest';
import { collect } from '../../src/core/resources/pagination.ts';
import { MOBILE_ORIGIN, mockClient, type MockSetup } from '../support/mock.ts';
import { apiErrorOf, onlyRequest } from './helpers.ts';

describe('mobile projects', () => {
  let setup: MockSetup;
  afterEach(async () => {
    await setup.agent.close();
  });

  it('listProjectsV1 reads every project', async () => {
    setup = mockClient();
    const project = {
      id: '7',
      self: '/api/1/projects/7',
      name: 'Shop',
      packageName: 'com.example.shop',
      platform: 'Android',
      icon: 'https://icons.example/7.png',
      landingPageMode: 'open',
      extra: 'kept',
    };
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/projects/', { body: { status: 'ok', projects: [project] } });
    const answer = await setup.client.mobile.projects.listV1();
    expect(answer.projects).toEqual([project]);
    const request = onlyRequest(setup.requests);
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/api/1/projects/');
  });

  it('listProjects sends page and per_page and returns the pagination', async () => {
    setup = mockClient();
    const pagination = { page: 2, per_page: 10, total: 11, total_pages: 2 };
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/2/projects/', {
      body: {
        status: 'ok',
        projects: [{ id: 11, name: 'Shop', packageName: 'p', platform: 'iOS', icon: 'i' }],
        pagination,
      },
    });
    const answer = await setup.client.mobile.projects.list({ page: 2, perPage: 10 });
    expect(answer.pagination).toEqual(pagination);
    expect(answer.projects[0]?.id).toBe(11);
    const request = onlyRequest(setup.requests);
    expect(request.method).toBe('GET');
    expect(request.query.get('page')).toBe('2');
    expect(request.query.get('per_page')).toBe('10');
  });

  it('iterates v2 projects across pages, never above 100 per page', async () => {
    setup = mockClient();
    const pages = [[1, 2], [3, 4], [5]];
    pages.forEach((ids, index) =>
      setup.reply(MOBILE_ORIGIN, 'GET', '/api/2/projects/', {
        body: {
          status: 'ok',
          projects: ids.map((id) => ({ id, name: `p${id}` })),
          pagination: { page: index + 1, per_page: 100, total: 5, total_pages: 3 },
        },
      }),
    );
    const items = await collect(setup.client.mobile.projects.iterate({ pageSize: 500 }));
    expect(items.map((item) => item.id)).toEqual([1, 2, 3, 4, 5]);
    expect(setup.requests.map((r) => r.query.get('page'))).toEqual(['1', '2', '3']);
    expect(setup.requests.map((r) => r.query.get('per_page'))).toEqual(['100', '100', '100']);
  });

  it('getProject reads one project', async () => {
    setup = mockClient();
    const project = {
      id: 7,
      name: 'Shop',
      packageName: 'com.example.shop',
      platform: 'iOS',
      icon: 'i',
      folderName: 'Apps',
      landingPageMode: 'closed-beta',
    };
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/2/projects/7', { body: { status: 'ok', project } });
    const answer = await setup.client.mobile.projects.get(7);
    expect(answer.project).toEqual(project);
    expect(onlyRequest(setup.requests).method).toBe('GET');
  });

  it('listProjectBuilds and iterateBuilds page through a project builds', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/2/projects/7/builds', {
      body: {
        status: 'ok',
        builds: [
          { id: 70, appName: 'Shop', appVersion: '1.0', appVersionCode: '1', iconUrl: 'i', uploadDate: 'd' },
        ],
        pagination: { page: 1, per_page: 25, total: 1, total_pages: 1 },
      },
    });
    const page = await setup.client.mobile.projects.listBuilds(7, { page: 1 });
    expect(page.builds[0]?.appVersion).toBe('1.0');
    const request = onlyRequest(setup.requests);
    expect(request.pathname).toBe('/api/2/projects/7/builds');
    expect(request.query.get('page')).toBe('1');
    expect(request.query.has('per_page')).toBe(false);

    setup.reply(MOBILE_ORIGIN, 'GET', '/api/2/projects/7/builds', {
      body: {
        status: 'ok',
        builds: [{ id: 71 }],
        pagination: { page: 1, per_page: 100, total: 1, total_pages: 1 },
      },
    });
    const builds = await collect(setup.client.mobile.projects.iterateBuilds(7));
    expect(builds).toEqual([{ id: 71 }]);
    expect(setup.requests[1]?.query.get('per_page')).toBe('100');
  });

  it('listProjectTesters and iterateTesters cap per_page at 200', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/2/projects/7/testers', {
      body: {
        status: 'ok',
        testers: [{ id: 1, email: 'a@example.com' }],
        pagination: { page: 3, per_page: 50, total: 101, total_pages: 3 },
      },
    });
    const page = await setup.client.mobile.projects.listTesters('7', { page: 3, perPage: 50 });
    expect(page.testers).toEqual([{ id: 1, email: 'a@example.com' }]);
    expect(page.pagination.total).toBe(101);
    expect(onlyRequest(setup.requests).query.toString()).toBe('page=3&per_page=50');

    for (const ids of [[1, 2], [3]]) {
      setup.reply(MOBILE_ORIGIN, 'GET', '/api/2/projects/7/testers', {
        body: {
          status: 'ok',
          testers: ids.map((id) => ({ id, email: `t${id}@example.com` })),
          pagination: { page: 1, per_page: 200, total: 3, total_pages: 2 },
        },
      });
    }
    const testers = await collect(setup.client.mobile.projects.iterateTesters(7, { pageSize: 1000 }));
    expect(testers.map((t) => t.id)).toEqual([1, 2, 3]);
    expect(setup.requests.slice(1).map((r) => r.query.toString())).toEqual([
      'page=1&per_page=200',
      'page=2&per_page=200',
    ]);
  });

  it('stops after maxItems', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/2/projects/', {
      body: {
        status: 'ok',
        projects: [{ id: 1 }, { id: 2 }],
        pagination: { page: 1, per_page: 2, total: 9, total_pages: 5 },
      },
    });
    const items = await collect(setup.client.mobile.projects.iterate({ pageSize: 2, maxItems: 1 }));
    expect(items).toEqual([{ id: 1 }]);
    expect(setup.requests).toHaveLength(1);
  });

  it('sends the bearer token and the OIDC configuration key instead of Basic', async () => {
    setup = mockClient({ oidcToken: 'oidc-token-value', oidcConfigKey: 'oidc-config' });
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/projects/', { body: { status: 'ok', projects: [] } });
    await setup.client.mobile.projects.listV1();
    const request = setup.requests[0]!;
    expect(request.headers.authorization).toBe('Bearer oidc-token-value');
    expect(request.headers['x-oidc-config-key']).toBe('oidc-config');
  });

  it('turns a status fail answer into an ApiError', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/2/projects/9', {
      body: { status: 'fail', code: 404, message: 'Project not found' },
    });
    const error = await apiErrorOf(setup.client.mobile.projects.get(9));
    expect(error.message).toBe('getProject: failed code 404 Project not found (GET /api/2/projects/9)');
    expect(error.code).toBe(404);
    expect(error.status).toBeUndefined();
  });

  it('reads an HTTP error answer', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/2/projects/', {
      status: 401,
      body: { status: 'fail', code: 5, message: 'Invalid API key' },
    });
    const error = await apiErrorOf(setup.client.mobile.projects.list());
    expect(error.message).toBe('listProjects: 401 code 5 Invalid API key (GET /api/2/projects/)');
    expect(error.status).toBe(401);
  });
});
