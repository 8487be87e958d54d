/** Projects: one app on one platform, with its builds and testers. */
import type { CallOptions } from '../core/values/call.ts';
import { operations } from '../core/resources/resource.ts';
import { id, list, record } from '../core/resources/shape.ts';
import { type Id, type Listing, MobileResource } from './request.ts';
import type {
  MobileBuildListItem,
  MobileBuildPage,
  MobileIterateOptions,
  MobilePageParams,
  MobileProjectListItem,
  MobileProjectListV1,
  MobileProjectPage,
  MobileProjectResult,
  MobileProjectTester,
  MobileProjectTesterPage,
} from './types.ts';

/** Largest `per_page` of the v2 project and project-build lists. */
export const MOBILE_PROJECTS_MAX_PER_PAGE = 100;
/** Largest `per_page` of the v2 project-tester list. */
export const MOBILE_PROJECT_TESTERS_MAX_PER_PAGE = 200;

/** What callers read of a list of projects: each one's id. */
const PROJECT_LIST = record({ projects: list(record({ id })) });

const PROJECTS = operations({
  listProjectsV1: { route: 'GET /api/1/projects/', shape: PROJECT_LIST },
  listProjects: { route: 'GET /api/2/projects/', shape: PROJECT_LIST },
  getProject: { route: 'GET /api/2/projects/{projectId}', shape: record({ project: record({ id }) }) },
  listProjectBuilds: {
    route: 'GET /api/2/projects/{projectId}/builds',
    shape: record({ builds: list(record({ id })) }),
  },
  listProjectTesters: 'GET /api/2/projects/{projectId}/testers',
});

const PROJECT_PAGES: Listing<MobileProjectPage, MobileProjectListItem> = {
  operation: PROJECTS.listProjects,
  maxPageSize: MOBILE_PROJECTS_MAX_PER_PAGE,
  itemsOf: (page) => page.projects,
};
const BUILD_PAGES: Listing<MobileBuildPage, MobileBuildListItem> = {
  operation: PROJECTS.listProjectBuilds,
  maxPageSize: MOBILE_PROJECTS_MAX_PER_PAGE,
  itemsOf: (page) => page.builds,
};
const TESTER_PAGES: Listing<MobileProjectTesterPage, MobileProjectTester> = {
  operation: PROJECTS.listProjectTesters,
  maxPageSize: MOBILE_PROJECT_TESTERS_MAX_PER_PAGE,
  itemsOf: (page) => page.testers,
};

export class MobileProjects extends MobileResource {
  /** GET /api/1/projects/: lists every project (v1 fields). */
  listV1(options?: CallOptions): Promise<MobileProjectListV1> {
    return this.call(PROJECTS.listProjectsV1, {}, options);
  }

  /** GET /api/2/projects/: one page of projects (default 25, at most 100 per page). */
  list(params?: MobilePageParams, options?: CallOptions): Promise<MobileProjectPage> {
    return this.page(PROJECT_PAGES, {}, params, options);
  }

  /** GET /api/2/projects/: every project, page after page. */
  iterate(options?: MobileIterateOptions): AsyncGenerator<MobileProjectListItem, void, undefined> {
    return this.everyItem(PROJECT_PAGES, {}, options);
  }

  /** GET /api/2/projects/{projectId}: one project. */
  get(projectId: Id, options?: CallOptions): Promise<MobileProjectResult> {
    return this.call(PROJECTS.getProject, { path: { projectId } }, options);
  }

  /** GET /api/2/projects/{projectId}/builds: one page of a project's builds (default 25, at most 100). */
  listBuilds(projectId: Id, params?: MobilePageParams, options?: CallOptions): Promise<MobileBuildPage> {
    return this.page(BUILD_PAGES, { projectId }, params, options);
  }

  /** GET /api/2/projects/{projectId}/builds: every build of a project, page after page. */
  iterateBuilds(
    projectId: Id,
    options?: MobileIterateOptions,
  ): AsyncGenerator<MobileBuildListItem, void, undefined> {
    return this.everyItem(BUILD_PAGES, { projectId }, options);
  }

  /** GET /api/2/projects/{projectId}/testers: one page of a project's testers (default 50, at most 200). */
  listTesters(
    projectId: Id,
    params?: MobilePageParams,
    options?: CallOptions,
  ): Promise<MobileProjectTesterPage> {
    return this.page(TESTER_PAGES, { projectId }, params, options);
  }

  /** GET /api/2/projects/{projectId}/testers: every tester of a project, page after page. */
  iterateTesters(
    projectId: Id,
    options?: MobileIterateOptions,
  ): AsyncGenerator<MobileProjectTester, void, undefined> {
    return this.everyItem(TESTER_PAGES, { projectId }, options);
  }
}
