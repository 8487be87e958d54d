/** Accounts: profile, sub-accounts, concurrency, activity, usage, access keys, partner subscriptions. */
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import { callerOf } from '../access.ts';
import { sendError } from '../errors.ts';
import type { AccountRecord } from '../model.ts';
import type { AutomationStore } from '../store/index.ts';
import type { AutomationAccounts } from '../store/accounts.ts';
import { activityCounts, activitySummary, dailyUsage, utcDay } from '../usage.ts';
import { usernameParams } from './params.ts';

/** The profile; the access key is left out (it is answered only when an account is made or re-keyed). */
function userView(accounts: AutomationAccounts, user: AccountRecord) {
  const [first, ...rest] = user.name.split(' ');
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    first_name: first ?? user.name,
    last_name: rest.join(' ') || null,
    email: user.email,
    parent: user.parent,
    is_admin: user.parent === null,
    is_partner: user.partner,
    subscribed: user.plan !== null,
    plan: user.plan,
    concurrency_limit: {
      overall: user.concurrencyLimit.overall,
      mac: user.concurrencyLimit.mac,
      real_device: user.concurrencyLimit.realDevice,
    },
    subaccounts: accounts.subAccountsOf(user.username).length,
    creation_time: user.creationTime,
  };
}

export function userRoutes(app: SchemaTypedApp, store: AutomationStore, prefix: string): void {
  const { accounts } = store;
  const account = (username: string) => accounts.get(username);

  app.get('/users/:username', { schema: { params: usernameParams } }, async (request, reply) => {
    const user = account(request.params.username);
    if (!user) return sendError(reply, 404, 'User not found', 'not_found');
    return userView(accounts, user);
  });

  app.post(
    '/users/:username',
    {
      schema: {
        params: usernameParams,
        body: {
          type: 'object',
          properties: {
            // The service's account names: letters, digits, '.', '_' and '-'.
            username: { type: 'string', pattern: '^[A-Za-z0-9._-]{2,70}$' },
            password: { type: 'string', minLength: 6 },
            name: { type: 'string', minLength: 1 },
            email: { type: 'string', pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' },
            plan: { type: 'string', minLength: 1 },
          },
          required: ['username', 'password', 'name', 'email'],
        } as const,
      },
    },
    async (request, reply) => {
      const parent = request.params.username;
      const { username, name, email, plan } = request.body;
      if (plan !== undefined && !account(callerOf(request))?.partner) {
        return sendError(reply, 403, 'Only partner accounts may set a plan', 'forbidden');
      }
      if (account(username)) return sendError(reply, 409, `Username ${username} is taken`, 'conflict');
      // The password is not kept: the emulator authenticates REST calls by access key only.
      const created = accounts.createSubAccount(parent, {
        username,
        name,
        email,
        ...(plan ? { plan } : {}),
      });
      return { ...userView(accounts, created), access_key: created.accessKey };
    },
  );

  app.get('/users/:username/concurrency', { schema: { params: usernameParams } }, async (request, reply) => {
    const user = account(request.params.username);
    if (!user) return sendError(reply, 404, 'User not found', 'not_found');
    const now = store.now();
    const countsOf = (owner: AccountRecord) => {
      const running = store.jobs.unfinished(owner.username, now);
      const mac = running.filter((job) => /mac|os x/i.test(job.os)).length;
      const current = { overall: running.length, mac, manual: 0 };
      const remaining = {
        overall: Math.max(0, owner.concurrencyLimit.overall - running.length),
        mac: Math.max(0, owner.concurrencyLimit.mac - mac),
        manual: owner.concurrencyLimit.overall,
      };
      return { current, remaining };
    };
    const timestamp = now / 1000;
    if (prefix === '/rest/v1.2') {
      // v1.2 reports by organization and team; the emulator's account plays both.
      const { current, remaining } = countsOf(user);
      const allowed = {
        overall: user.concurrencyLimit.overall,
        mac: user.concurrencyLimit.mac,
        real_device: user.concurrencyLimit.realDevice,
      };
      return {
        timestamp,
        concurrency: {
          organization: { id: user.id, current, remaining, allowed },
          team: { id: user.id, current, remaining, allowed },
        },
      };
    }
    const concurrency: Record<string, unknown> = { [user.username]: countsOf(user) };
    for (const sub of accounts.subAccountsOf(user.username)) concurrency[sub.username] = countsOf(sub);
    return { timestamp, concurrency };
  });

  app.get('/:username/activity', { schema: { params: usernameParams } }, async (request, reply) => {
    const user = account(request.params.username);
    if (!user) return sendError(reply, 404, 'User not found', 'not_found');
    const now = store.now();
    const subaccounts: Record<string, ReturnType<typeof activityCounts>> = {};
    for (const member of [user, ...accounts.subAccountsOf(user.username)]) {
      // The counts are of queued and running jobs only, which are among the unfinished ones.
      subaccounts[member.username] = activityCounts(store.jobs.unfinished(member.username, now), now);
    }
    const totals = { 'in progress': 0, all: 0, queued: 0 };
    for (const counts of Object.values(subaccounts)) {
      totals['in progress'] += counts['in progress'];
      totals.all += counts.all;
      totals.queued += counts.queued;
    }
    return { subaccounts, totals };
  });

  app.get(
    '/users/:username/activity',
    {
      schema: {
        params: usernameParams,
        // The seed names no parameter; `duration` (days) follows its wording, default 90 days.
        querystring: {
          type: 'object',
          properties: { duration: { type: 'integer', minimum: 1, maximum: 3650, default: 90 } },
        } as const,
      },
    },
    async (request, reply) => {
      const user = account(request.params.username);
      if (!user) return sendError(reply, 404, 'User not found', 'not_found');
      const now = store.now();
      const windowMs = request.query.duration * 86_400_000;
      return {
        username: user.username,
        start: utcDay(now - windowMs),
        end: utcDay(now),
        duration_days: request.query.duration,
        ...activitySummary(store.jobs.createdSince(user.username, now - windowMs), now, windowMs),
      };
    },
  );

  app.get(
    '/users/:username/usage',
    {
      schema: {
        params: usernameParams,
        // The seed omits the names; `start` and `end` (UTC days) default to the last 90 days.
        querystring: {
          type: 'object',
          properties: {
            start: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
            end: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
          },
        } as const,
      },
    },
    async (request, reply) => {
      const user = account(request.params.username);
      if (!user) return sendError(reply, 404, 'User not found', 'not_found');
      const now = store.now();
      const end = request.query.end ?? utcDay(now);
      const start = request.query.start ?? utcDay(now - 90 * 86_400_000);
      if (start > end) return sendError(reply, 400, 'start must not be after end', 'invalid_request');
      return {
        usage: dailyUsage(store.jobs.of(user.username), now, start, end),
        username: user.username,
      };
    },
  );

  app.post(
    '/users/:username/accesskey/change',
    { schema: { params: usernameParams } },
    async (request, reply) => {
      const user = account(request.params.username);
      if (!user) return sendError(reply, 404, 'User not found', 'not_found');
      return { username: user.username, access_key: accounts.changeAccessKey(user.username) };
    },
  );

  // Partner operations: only a partner account may change the plan of one of its sub-accounts.
  const subscriptionCheck = (caller: string, target: string): string | undefined => {
    if (!account(caller)?.partner) return 'Only partner accounts may manage subscriptions';
    if (caller === target) return 'A partner manages the subscriptions of its sub-accounts only';
    return undefined;
  };

  app.post(
    '/users/:username/subscription',
    {
      schema: {
        params: usernameParams,
        body: {
          type: 'object',
          properties: { plan: { type: 'string', minLength: 1 } },
          required: ['plan'],
        } as const,
      },
    },
    async (request, reply) => {
      const target = request.params.username;
      if (!account(target)) return sendError(reply, 404, 'User not found', 'not_found');
      const refusal = subscriptionCheck(callerOf(request), target);
      if (refusal) return sendError(reply, 403, refusal, 'forbidden');
      accounts.setPlan(target, request.body.plan);
      return { username: target, plan: request.body.plan, subscribed: true };
    },
  );

  app.delete(
    '/users/:username/subscription',
    { schema: { params: usernameParams } },
    async (request, reply) => {
      const target = request.params.username;
      if (!account(target)) return sendError(reply, 404, 'User not found', 'not_found');
      const refusal = subscriptionCheck(callerOf(request), target);
      if (refusal) return sendError(reply, 403, refusal, 'forbidden');
      accounts.setPlan(target, null);
      return { username: target, plan: null, subscribed: false };
    },
  );
}
