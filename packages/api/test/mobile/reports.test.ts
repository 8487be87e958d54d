import { afterEach, describe, expect, it } from 'vitest';
import { mobileAuditDate } from '../../src/index.ts';
import { collect } from '../../src/core/resources/pagination.ts';
import { MOBILE_ORIGIN, mockClient, type MockSetup } from '../support/mock.ts';
import { apiErrorOf, onlyRequest } from './helpers.ts';

const audit = {
  id: 1,
  timestamp: '2026-01-02 03:04:05',
  enterpriseId: 9,
  siteName: 'acme',
  userId: 3,
  userEmail: 'admin@example.com',
  ipAddress: '10.0.0.1',
  actionType: 1200,
  actionLabel: 'Invited testers',
  actionData: { emails: ['a@example.com'] },
};

describe('mobile feedbacks', () => {
  let setup: MockSetup;
  afterEach(async () => {
    await setup.agent.close();
  });

  it('listFeedbacks reads the latest feedbacks', async () => {
    setup = mockClient();
    const feedback = {
      feedbackId: 4,
      text: 'Crashes on login',
      source: 'shake',
      buildId: 70,
      reported_by: 'a@example.com',
    };
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/feedbacks/', { body: { status: 'ok', feedbacks: [feedback] } });
    expect((await setup.client.mobile.feedbacks.list()).feedbacks).toEqual([feedback]);
    expect(onlyRequest(setup.requests).method).toBe('GET');
  });

  it('reads a feedback failure as an ApiError', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/feedbacks/', { status: 500, body: 'upstream broke' });
    const error = await apiErrorOf(setup.client.mobile.feedbacks.list());
    expect(error.message).toBe('listFeedbacks: 500 upstream broke (GET /api/1/feedbacks/)');
  });
});

describe('mobile audits', () => {
  let setup: MockSetup;
  afterEach(async () => {
    await setup.agent.close();
  });

  it('listAuditsV1 reads the deprecated list', async () => {
    setup = mockClient();
    const item = {
      id: 1,
      timestamp: 't',
      ipAddress: 'ip',
      eventType: 'download_app',
      eventData: { buildId: 70 },
    };
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/audits', { body: { status: 'ok', audits: [item] } });
    expect((await setup.client.mobile.audits.listV1()).audits).toEqual([item]);
    expect(onlyRequest(setup.requests).path).toBe('/api/1/audits');
  });

  it.each([
    ['list', '/api/2/audits/'],
    ['listAdminTrail', '/api/2/audits/admin-trail/'],
    ['listTesterTrail', '/api/2/audits/tester-trail/'],
  ] as const)('%s sends the filter and page', async (method, pathname) => {
    setup = mockClient();
    const pagination = { page: 2, per_page: 20, total: 21, total_pages: 2 };
    setup.reply(MOBILE_ORIGIN, 'GET', pathname, { body: { status: 'ok', audits: [audit], pagination } });
    const answer = await setup.client.mobile.audits[method]({
      site: 'acme',
      actionType: 1200,
      startDate: '2026-01-01',
      endDate: new Date(Date.UTC(2026, 0, 31, 23, 0)),
      page: 2,
      perPage: 20,
    });
    expect(answer.audits).toEqual([audit]);
    expect(answer.pagination).toEqual(pagination);
    const request = onlyRequest(setup.requests);
    expect(request.pathname).toBe(pathname);
    expect(Object.fromEntries(request.query)).toEqual({
      site: 'acme',
      action_type: '1200',
      start_date: '2026-01-01',
      end_date: '2026-01-31',
      page: '2',
      per_page: '20',
    });
  });

  it.each([
    ['iterate', '/api/2/audits/'],
    ['iterateAdminTrail', '/api/2/audits/admin-trail/'],
    ['iterateTesterTrail', '/api/2/audits/tester-trail/'],
  ] as const)(
    '%s walks the pages with at most 200 per page, keeping the filter',
    async (method, pathname) => {
      setup = mockClient();
      for (const page of [1, 2]) {
        setup.reply(MOBILE_ORIGIN, 'GET', pathname, {
          body: {
            status: 'ok',
            audits: [{ ...audit, id: page }],
            pagination: { page, per_page: 200, total: 2, total_pages: 2 },
          },
        });
      }
      const items = await collect(
        setup.client.mobile.audits[method]({ actionType: 1905 }, { pageSize: 999 }),
      );
      expect(items.map((item) => item.id)).toEqual([1, 2]);
      expect(setup.requests.map((r) => r.query.toString())).toEqual([
        'action_type=1905&page=1&per_page=200',
        'action_type=1905&page=2&per_page=200',
      ]);
    },
  );

  it('rejects a date not written YYYY-MM-DD before sending', async () => {
    setup = mockClient();
    await expect(setup.client.mobile.audits.list({ startDate: '01/02/2026' })).rejects.toThrow(
      'startDate must be a date written YYYY-MM-DD, got "01/02/2026"',
    );
    expect(setup.requests).toHaveLength(0);
    expect(mobileAuditDate('2026-02-28')).toBe('2026-02-28');
  });

  it('reads an audit failure as an ApiError', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/2/audits/admin-trail/', {
      status: 403,
      body: { status: 'fail', message: 'Admin permissions with all-projects access are required' },
    });
    const error = await apiErrorOf(setup.client.mobile.audits.listAdminTrail());
    expect(error.message).toBe(
      'listAdminTrail: 403 Admin permissions with all-projects access are required (GET /api/2/audits/admin-trail/)',
    );
  });
});

describe('mobile permissions', () => {
  let setup: MockSetup;
  afterEach(async () => {
    await setup.agent.close();
  });

  it('listPermissions reads the admins', async () => {
    setup = mockClient();
    const admin = { email: 'admin@example.com', role: 'admin', permissions: ['7:rw', '*:r'] };
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/cpanel/permissions/', {
      body: { status: 'ok', admins: [admin] },
    });
    expect((await setup.client.mobile.permissions.list()).admins).toEqual([admin]);
    expect(onlyRequest(setup.requests).method).toBe('GET');
  });

  it('reads a permissions failure as an ApiError', async () => {
    setup = mockClient();
    setup.reply(MOBILE_ORIGIN, 'GET', '/api/1/cpanel/permissions/', {
      body: { status: 'fail', code: 99, message: 'No permission' },
    });
    const error = await apiErrorOf(setup.client.mobile.permissions.list());
    expect(error.message).toBe(
      'listPermissions: failed code 99 No permission (GET /api/1/cpanel/permissions/)',
    );
  });
});
