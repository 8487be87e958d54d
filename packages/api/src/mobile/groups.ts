/** Groups: the account's groups with their testers and projects. */
import type { CallOptions } from '../core/call.ts';
import { segment, type HttpTransport } from '../core/transport.ts';
import { callMobile, iteratePages, pageQuery } from './request.ts';
import type {
  MobileGroupList,
  MobileGroupProject,
  MobileGroupProjectPage,
  MobileGroupResult,
  MobileGroupTesterPage,
  MobileIterateOptions,
  MobilePageParams,
  MobileTesterEmail,
} from './types.ts';

type Id = string | number;

/** Largest `per_page` of a group's tester list. */
export const MOBILE_GROUP_TESTERS_MAX_PER_PAGE = 200;
/** Largest `per_page` of a group's project list. */
export const MOBILE_GROUP_PROJECTS_MAX_PER_PAGE = 100;

export class MobileGroups {
  readonly #http: HttpTransport;

  constructor(http: HttpTransport) {
    this.#http = http;
  }

  /** GET /api/1/groups/: every group. */
  list(options?: CallOptions): Promise<MobileGroupList> {
    return callMobile(
      this.#http,
      { operation: 'listGroups', method: 'GET', path: '/api/1/groups/' },
      options,
    );
  }

  /** GET /api/1/groups/{groupId}: one group. */
  get(groupId: Id, options?: CallOptions): Promise<MobileGroupResult> {
    return callMobile(
      this.#http,
      { operation: 'getGroup', method: 'GET', path: `/api/1/groups/${segment(groupId)}` },
      options,
    );
  }

  /** GET /api/1/groups/{groupId}/testers: one page of a group's testers (default 50, at most 200). */
  listTesters(groupId: Id, params?: MobilePageParams, options?: CallOptions): Promise<MobileGroupTesterPage> {
    return callMobile(
      this.#http,
      {
        operation: 'listGroupTesters',
        method: 'GET',
        path: `/api/1/groups/${segment(groupId)}/testers`,
        query: pageQuery(params),
      },
      options,
    );
  }

  /** GET /api/1/groups/{groupId}/testers: every tester of a group, page after page. */
  iterateTesters(
    groupId: Id,
    options?: MobileIterateOptions,
  ): AsyncGenerator<MobileTesterEmail, void, undefined> {
    return iteratePages(
      (params, call) => this.listTesters(groupId, params, call),
      (page) => page.testers,
      MOBILE_GROUP_TESTERS_MAX_PER_PAGE,
      options,
    );
  }

  /** GET /api/1/groups/{groupId}/projects: one page of a group's projects (default 25, at most 100). */
  listProjects(
    groupId: Id,
    params?: MobilePageParams,
    options?: CallOptions,
  ): Promise<MobileGroupProjectPage> {
    return callMobile(
      this.#http,
      {
        operation: 'listGroupProjects',
        method: 'GET',
        path: `/api/1/groups/${segment(groupId)}/projects`,
        query: pageQuery(params),
      },
      options,
    );
  }

  /** GET /api/1/groups/{groupId}/projects: every project of a group, page after page. */
  iterateProjects(
    groupId: Id,
    options?: MobileIterateOptions,
  ): AsyncGenerator<MobileGroupProject, void, undefined> {
    return iteratePages(
      (params, call) => this.listProjects(groupId, params, call),
      (page) => page.projects,
      MOBILE_GROUP_PROJECTS_MAX_PER_PAGE,
      options,
    );
  }
}
