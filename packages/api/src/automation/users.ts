/** Accounts: users, sub-accounts, concurrency, activity, usage and access keys. */
import type { CallOptions } from '../core/values/call.ts';
import { json, operations } from '../core/resources/resource.ts';
import type { QueryScalar } from '../core/transport/transport.ts';
import { AutomationResource, isoDate } from './context.ts';
import type {
  AccessKeyChange,
  AutomationActivity,
  AutomationConcurrency,
  AutomationUsage,
  AutomationUser,
  AutomationUserActivity,
  ForAccount,
  NewSubAccount,
} from './types.ts';

export interface CreateSubAccountParams extends NewSubAccount {
  /** The parent account named in the path; default the client's username. */
  parent?: string;
}

export interface GetUsageParams extends ForAccount {
  /** First day (a date, or `YYYY-MM-DD`). */
  start?: Date | string;
  /** Last day (a date, or `YYYY-MM-DD`). */
  end?: Date | string;
  /** Further query parameters, sent as given. */
  query?: Record<string, QueryScalar>;
}

export interface GetUserActivityParams extends ForAccount {
  /** How many days back the figures cover (the service's default is 90). */
  duration?: number;
}

const USERS = operations({
  getUser: 'GET /users/{username}',
  createSubAccount: 'POST /users/{username}',
  getConcurrency: 'GET /users/{username}/concurrency',
  getActivity: 'GET /{username}/activity',
  getUserActivity: 'GET /users/{username}/activity',
  getUsage: 'GET /users/{username}/usage',
  changeAccessKey: 'POST /users/{username}/accesskey/change',
});

export class AutomationUsers extends AutomationResource {
  /** GET /rest/v1/users/{username}: reads an account (`getUser`). */
  async get(params: ForAccount = {}, options?: CallOptions): Promise<AutomationUser> {
    return this.call(USERS.getUser, { path: { username: params.username } }, options);
  }

  /**
   * POST /rest/v1/users/{username}: creates a sub-account of `parent` (`createSubAccount`).
   * Partner accounts add `plan`.
   */
  async createSubAccount(params: CreateSubAccountParams, options?: CallOptions): Promise<AutomationUser> {
    const { parent, username, password, name, email, plan } = params;
    const body = json({ username, password, name, email, ...(plan !== undefined ? { plan } : {}) });
    return this.call(USERS.createSubAccount, { path: { username: parent }, body }, options);
  }

  /** GET /rest/v1/users/{username}/concurrency: concurrency limits and current use (`getConcurrency`). */
  async getConcurrency(params: ForAccount = {}, options?: CallOptions): Promise<AutomationConcurrency> {
    return this.call(USERS.getConcurrency, { path: { username: params.username } }, options);
  }

  /** GET /rest/v1/{username}/activity: real-time job counts of the account and its sub-accounts (`getActivity`). */
  async getActivity(params: ForAccount = {}, options?: CallOptions): Promise<AutomationActivity> {
    return this.call(USERS.getActivity, { path: { username: params.username } }, options);
  }

  /**
   * GET /rest/v1/users/{username}/activity: concurrency (mean and peak), minutes and jobs over a
   * duration, the last `duration` days, 90 by default (`getUserActivity`).
   */
  async getUserActivity(
    params: GetUserActivityParams = {},
    options?: CallOptions,
  ): Promise<AutomationUserActivity> {
    const parts = { path: { username: params.username }, query: { duration: params.duration } };
    return this.call(USERS.getUserActivity, parts, options);
  }

  /** GET /rest/v1/users/{username}/usage: jobs and VM time per day (`getUsage`). */
  async getUsage(params: GetUsageParams = {}, options?: CallOptions): Promise<AutomationUsage> {
    const query = {
      ...params.query,
      ...(params.start !== undefined ? { start: isoDate(params.start) } : {}),
      ...(params.end !== undefined ? { end: isoDate(params.end) } : {}),
    };
    return this.call(USERS.getUsage, { path: { username: params.username }, query }, options);
  }

  /**
   * POST /rest/v1/users/{username}/accesskey/change: regenerates the access key; the old key stops
   * working at once, so this client's own key does too (`changeAccessKey`).
   */
  async changeAccessKey(params: ForAccount = {}, options?: CallOptions): Promise<AccessKeyChange> {
    return this.call(USERS.changeAccessKey, { path: { username: params.username } }, options);
  }
}
