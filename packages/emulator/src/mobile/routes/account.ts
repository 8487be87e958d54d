/** Account-wide operations: feedbacks, audit trails, permissions, webhooks and sites. */
import type { FromRouteSchema, SchemaTypedApp } from '../../shared/schema-typed.ts';
import type { MobileStore } from '../store/index.ts';
import { actorOf } from '../actor.ts';
import { CODE, MobileError, invalid } from '../errors.ts';
import { commaList, idParam, paginate } from '../format.ts';
import type { AuditEntry } from '../model.ts';
import { auditQuery, siteParams, webhookParams } from '../schemas.ts';
import type { Actor } from '../store/audits.ts';
import { isAllProjectsAdmin } from '../store/accounts.ts';
import { WEBHOOK_ACTIONS, type WebhookInput } from '../store/webhooks.ts';
import { auditV1, auditV2, baseUrl, feedbackView, webhookView } from '../views.ts';
import { fieldsOf, requiredText, text, type Fields } from './body.ts';

const FEEDBACK_LIMIT = 100;
const SITE_NAME = /^[A-Za-z0-9_-]{4,}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function dateBound(name: string, value: unknown, endOfDay: boolean): number | undefined {
  if (value === undefined || value === '') return undefined;
  const textValue = String(value);
  const time = Date.parse(`${textValue}T00:00:00Z`);
  if (!DATE.test(textValue) || Number.isNaN(time)) throw invalid(name, 'must be a date YYYY-MM-DD');
  return endOfDay ? time + 24 * 60 * 60 * 1000 - 1 : time;
}

/**
 * The v2 audit list with its filters. Account owners and managers reach every site of the
 * account; admins only their own.
 */
function auditList(
  store: MobileStore,
  { account }: Actor,
  query: FromRouteSchema<typeof auditQuery>,
  trail?: 'tester' | 'admin',
) {
  if (!isAllProjectsAdmin(account)) {
    throw new MobileError(
      403,
      CODE.noWriteAccess,
      'Audit trails require admin permissions with access to all projects',
    );
  }
  let entries: AuditEntry[] = store.data.audits;
  if (query.site !== undefined && query.site !== '') {
    const site = String(query.site);
    const own = site === store.data.siteName || site === store.data.enterpriseId;
    const related = store.data.sites.find((candidate) => candidate.id === site || candidate.name === site);
    const multiSite = account.role === 'account-owner' || account.role === 'account-manager';
    if (!own && !(related && multiSite))
      throw new MobileError(403, CODE.noWriteAccess, `Site ${site} is not accessible`);
    entries = entries.filter((entry) =>
      own ? entry.siteName === store.data.siteName : entry.siteName === related?.name,
    );
  }
  if (query.action_type !== undefined && query.action_type !== '') {
    const type = idParam('action_type', query.action_type);
    entries = entries.filter((entry) => entry.actionType === type);
  }
  const start = dateBound('start_date', query.start_date, false);
  const end = dateBound('end_date', query.end_date, true);
  entries = entries.filter(
    (entry) =>
      (trail === undefined || entry.trail === trail) &&
      (start === undefined || entry.time >= start) &&
      (end === undefined || entry.time <= end),
  );
  const page = paginate([...entries].reverse(), query, 50, 200);
  return { status: 'ok', audits: page.items.map(auditV2), pagination: page.pagination };
}

function webhookInput(fields: Fields): WebhookInput {
  const url = requiredText(fields, 'webhook-url');
  if (!/^https?:\/\/\S+$/.test(url)) throw invalid('webhook-url', 'must be an http or https URL');
  const actions = commaList(text(fields, 'actions'));
  for (const action of actions) {
    if (!(WEBHOOK_ACTIONS as readonly string[]).includes(action)) {
      throw invalid('actions', `${action} is not one of ${WEBHOOK_ACTIONS.join(', ')}`);
    }
  }
  const projectIds = commaList(text(fields, 'webhook-project-ids')).map((id) =>
    idParam('webhook-project-ids', id),
  );
  return {
    name: requiredText(fields, 'webhook-name'),
    url,
    enabled: (text(fields, 'webhook-status') ?? 'false').trim().toLowerCase() === 'true',
    actions,
    projectIds,
  };
}

export function accountRoutes(app: SchemaTypedApp, store: MobileStore): void {
  app.get('/api/1/feedbacks', async (request) => {
    const base = baseUrl(request);
    const latest = [...store.data.feedbacks]
      .sort((a, b) => b.recordedAt - a.recordedAt || b.id - a.id)
      .slice(0, FEEDBACK_LIMIT);
    return { status: 'ok', feedbacks: latest.map((feedback) => feedbackView(base, feedback)) };
  });

  app.get('/api/1/audits', async () => ({
    status: 'ok',
    audits: [...store.data.events].reverse().map(auditV1),
  }));

  const audits = { schema: { querystring: auditQuery } };
  app.get('/api/2/audits', audits, async (request) => auditList(store, actorOf(request), request.query));
  app.get('/api/2/audits/admin-trail', audits, async (request) =>
    auditList(store, actorOf(request), request.query, 'admin'),
  );
  app.get('/api/2/audits/tester-trail', audits, async (request) =>
    auditList(store, actorOf(request), request.query, 'tester'),
  );

  app.get('/api/1/cpanel/permissions', async () => ({
    status: 'ok',
    admins: store.data.accounts
      .filter((account) => account.role !== 'tester')
      .map((account) => ({ email: account.email, role: account.role, permissions: account.permissions })),
  }));

  app.get('/api/1/webhooks', async () => ({
    status: 'ok',
    webhooks: store.data.webhooks.map(webhookView),
  }));

  // The seed's output is the status alone; the new id is added so that a client can address it.
  app.post('/api/1/webhook', async (request) => {
    const webhook = store.webhooks.create(actorOf(request), webhookInput(fieldsOf(request)));
    return { status: 'ok', id: webhook.id };
  });

  const byWebhook = { schema: { params: webhookParams } };

  app.get('/api/1/webhook/:webhookId', byWebhook, async (request) => {
    const webhook = store.webhooks.get(idParam('webhook-id', request.params.webhookId));
    return { status: 'ok', webhook: webhookView(webhook) };
  });

  app.post('/api/1/webhook/:webhookId', byWebhook, async (request) => {
    const webhook = store.webhooks.get(idParam('webhook-id', request.params.webhookId));
    store.webhooks.update(actorOf(request), webhook, webhookInput(fieldsOf(request)));
    return { status: 'ok' };
  });

  app.delete('/api/1/webhook/:webhookId', byWebhook, async (request) => {
    const webhook = store.webhooks.get(idParam('webhook-id', request.params.webhookId));
    store.webhooks.delete(actorOf(request), webhook);
    return { status: 'ok' };
  });

  app.get('/api/1/site', async () => {
    const users = store.data.accounts.map((account) => ({ email: account.email, role: account.role }));
    return {
      status: 'ok',
      site: {
        accounts: [
          {
            id: store.data.enterpriseId,
            name: store.data.siteName,
            buildsCount: store.data.builds.length,
            users,
          },
          ...store.data.sites.map((site) => ({
            id: site.id,
            name: site.name,
            buildsCount: 0,
            users: [{ email: site.ownerEmail, role: 'account-owner' }],
          })),
        ],
        managers: store.data.accounts
          .filter((account) => account.role === 'account-owner' || account.role === 'account-manager')
          .map((account) => ({ email: account.email })),
      },
    };
  });

  app.post('/api/1/site', async (request) => {
    const fields = fieldsOf(request);
    const name = requiredText(fields, 'name');
    if (!SITE_NAME.test(name)) {
      throw invalid('name', 'use letters, digits, - and _ only, more than 3 characters');
    }
    const loginMethodText = text(fields, 'loginMethod')?.trim() || '1';
    if (loginMethodText !== '0' && loginMethodText !== '1') {
      throw invalid('loginMethod', '0 (single sign-on) or 1 (credentials)');
    }
    const site = store.sites.create(actorOf(request), name, Number(loginMethodText));
    return { status: 'ok', id: site.id };
  });

  app.delete('/api/1/site/:siteId', { schema: { params: siteParams } }, async (request) => {
    store.sites.delete(actorOf(request), request.params.siteId);
    return { status: 'ok' };
  });
}
