/** Accounts: users, sub-accounts, concurrency, activity, usage and access keys. */
import { callSpec, type CallOptions } from '../core/call.ts';
import type { QueryScalar } from '../core/transport.ts';
import { account, isoDate, REST, type AutomationContext } from './context.ts';
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

export class AutomationUsers {
  readonly #ctx: AutomationContext;

  constructor(ctx: AutomationContext) {
    this.#ctx = ctx;
  }

  /** GET /rest/v1/users/{username}: reads an account (`getUser`). */
  async get(params: ForAccount = {}, options?: CallOptions): Promise<AutomationUser> {
    const { body } = await this.#ctx.http.send<AutomationUser>({
      operation: 'getUser',
      method: 'GET',
      path: `${REST}/users/${account(this.#ctx, params.username)}`,
      ...callSpec(options),
    });
    return body;
  }

  /**
   * POST /rest/v1/users/{username}: creates a sub-account of `parent` (`createSubAccount`).
   * Partner accounts add `plan`.
   */
  async createSubAccount(params: CreateSubAccountParams, options?: CallOptions): Promise<AutomationUser> {
    const { parent, ...fields } = params;
    const { body } = await this.#ctx.http.send<AutomationUser>({
      operation: 'createSubAccount',
      method: 'POST',
      path: `${REST}/users/${account(this.#ctx, parent)}`,
      body: {
        kind: 'json',
        value: {
          username: fields.username,
          password: fields.password,
          name: fields.name,
          email: fields.email,
          ...(fields.plan !== undefined ? { plan: fields.plan } : {}),
        },
      },
      ...callSpec(options),
    });
    return body;
  }

  /** GET /rest/v1/users/{username}/concurrency: concurrency limits and current use (`getConcurrency`). */
  async getConcurrency(params: ForAccount = {}, options?: CallOptions): Promise<AutomationConcurrency> {
    const { body } = await this.#ctx.http.send<AutomationConcurrency>({
      operation: 'getConcurrency',
      method: 'GET',
      path: `${REST}/users/${account(this.#ctx, params.username)}/concurrency`,
      ...callSpec(options),
    });
    return body;
  }

  /** GET /rest/v1/{username}/activity: real-time job counts of the account and its sub-accounts (`getActivity`). */
  async getActivity(params: ForAccount = {}, options?: CallOptions): Promise<AutomationActivity> {
    const { body } = await this.#ctx.http.send<AutomationActivity>({
      operation: 'getActivity',
      method: 'GET',
      path: `${REST}/${account(this.#ctx, params.username)}/activity`,
      ...callSpec(options),
    });
    return body;
  }

  /**
   * GET /rest/v1/users/{username}/activity: concurrency (mean and peak), minutes and jobs over a
   * duration, the last `duration` days, 90 by default (`getUserActivity`).
   */
  async getUserActivity(
    params: GetUserActivityParams = {},
    options?: CallOptions,
  ): Promise<AutomationUserActivity> {
    const { body } = await this.#ctx.http.send<AutomationUserActivity>({
      operation: 'getUserActivity',
      method: 'GET',
      path: `${REST}/users/${account(this.#ctx, params.username)}/activity`,
      query: { duration: params.duration },
      ...callSpec(options),
    });
    return body;
  }

  /** GET /rest/v1/users/{username}/usage: jobs and VM time per day (`getUsage`). */
  async getUsage(params: GetUsageParams = {}, options?: CallOptions): Promise<AutomationUsage> {
    const { body } = await this.#ctx.http.send<AutomationUsage>({
      operation: 'getUsage',
      method: 'GET',
      path: `${REST}/users/${account(this.#ctx, params.username)}/usage`,
      query: {
        ...params.query,
        ...(params.start !== undefined ? { start: isoDate(params.start) } : {}),
        ...(params.end !== undefined ? { end: isoDate(params.end) } : {}),
      },
      ...callSpec(options),
    });
    return body;
  }

  /**
   * POST /rest/v1/users/{username}/accesskey/change: regenerates the access key; the old key stops
   * working at once, so this client's own key does too (`changeAccessKey`).
   */
  async changeAccessKey(params: ForAccount = {}, options?: CallOptions): Promise<AccessKeyChange> {
    const { body } = await this.#ctx.http.send<AccessKeyChange>({
      operation: 'changeAccessKey',
      method: 'POST',
      path: `${REST}/users/${account(this.#ctx, params.username)}/accesskey/change`,
      ...callSpec(options),
    });
    return body;
  }
}
