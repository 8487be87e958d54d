/** Groups: the account's groups with their testers and projects. */
import type { CallOptions } from '../core/values/call.ts';
import { operations } from '../core/resources/resource.ts';
import { type Id, type Listing, MobileResource } from './request.ts';
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

/** Largest `per_page` of a group's tester list. */
export const MOBILE_GROUP_TESTERS_MAX_PER_PAGE = 200;
/** Largest `per_page` of a group's project list. */
export const MOBILE_GROUP_PROJECTS_MAX_PER_PAGE = 100;

const GROUPS = operations({
  listGroups: 'GET /api/1/groups/',
  getGroup: 'GET /api/1/groups/{groupId}',
  listGroupTesters: 'GET /api/1/groups/{groupId}/testers',
  listGroupProjects: 'GET /api/1/groups/{groupId}/projects',
});

const TESTER_PAGES: Listing<MobileGroupTesterPage, MobileTesterEmail> = {
  operation: GROUPS.listGroupTesters,
  maxPageSize: MOBILE_GROUP_TESTERS_MAX_PER_PAGE,
  itemsOf: (page) => page.testers,
};
const PROJECT_PAGES: Listing<MobileGroupProjectPage, MobileGroupProject> = {
  operation: GROUPS.listGroupProjects,
  maxPageSize: MOBILE_GROUP_PROJECTS_MAX_PER_PAGE,
  itemsOf: (page) => page.projects,
};

export class MobileGroups extends MobileResource {
  /** GET /api/1/groups/: every group. */
  list(options?: CallOptions): Promise<MobileGroupList> {
    return this.call(GROUPS.listGroups, {}, options);
  }

  /** GET /api/1/groups/{groupId}: one group. */
  get(groupId: Id, options?: CallOptions): Promise<MobileGroupResult> {
    return this.call(GROUPS.getGroup, { path: { groupId } }, options);
  }

  /** GET /api/1/groups/{groupId}/testers: one page of a group's testers (default 50, at most 200). */
  listTesters(groupId: Id, params?: MobilePageParams, options?: CallOptions): Promise<MobileGroupTesterPage> {
    return this.page(TESTER_PAGES, { groupId }, params, options);
  }

  /** GET /api/1/groups/{groupId}/testers: every tester of a group, page after page. */
  iterateTesters(
    groupId: Id,
    options?: MobileIterateOptions,
  ): AsyncGenerator<MobileTesterEmail, void, undefined> {
    return this.everyItem(TESTER_PAGES, { groupId }, options);
  }

  /** GET /api/1/groups/{groupId}/projects: one page of a group's projects (default 25, at most 100). */
  listProjects(
    groupId: Id,
    params?: MobilePageParams,
    options?: CallOptions,
  ): Promise<MobileGroupProjectPage> {
    return this.page(PROJECT_PAGES, { groupId }, params, options);
  }

  /** GET /api/1/groups/{groupId}/projects: every project of a group, page after page. */
  iterateProjects(
    groupId: Id,
    options?: MobileIterateOptions,
  ): AsyncGenerator<MobileGroupProject, void, undefined> {
    return this.everyItem(PROJECT_PAGES, { groupId }, options);
  }
}
