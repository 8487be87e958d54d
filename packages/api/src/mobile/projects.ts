/** Projects: one app on one platform, with its builds and testers. */
import type { CallOptions } from '../core/call.ts';
import { id, list, record } from '../core/shape.ts';
import { segment, type HttpTransport } from '../core/transport.ts';
import { callMobile, iteratePages, pageQuery } from './request.ts';
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

export class MobileProjects {
  readonly #http: HttpTransport;

  constructor(http: HttpTransport) {
    this.#http = http;
  }

  /** GET /api/1/projects/: lists every project (v1 fields). */
  listV1(options?: CallOptions): Promise<MobileProjectListV1> {
    return callMobile(
      this.#http,
      { operation: 'listProjectsV1', method: 'GET', path: '/api/1/projects/' },
      options,
      record({ projects: list(record({ id })) }),
    );
  }

  /** GET /api/2/projects/: one page of projects (default 25, at most 100 per page). */
  list(params?: MobilePageParams, options?: CallOptions): Promise<MobileProjectPage> {
    return callMobile(
      this.#http,
      { operation: 'listProjects', method: 'GET', path: '/api/2/projects/', query: pageQuery(params) },
      options,
      record({ projects: list(record({ id })) }),
    );
  }

  /** GET /api/2/projects/: every project, page after page. */
  iterate(options?: MobileIterateOptions): AsyncGenerator<MobileProjectListItem, void, undefined> {
    return iteratePages(
      (params, call) => this.list(params, call),
      (page) => page.projects,
      MOBILE_PROJECTS_MAX_PER_PAGE,
      options,
    );
  }

  /** GET /api/2/projects/{projectId}: one project. */
  get(projectId: string | number, options?: CallOptions): Promise<MobileProjectResult> {
    return callMobile(
      this.#http,
      { operation: 'getProject', method: 'GET', path: `/api/2/projects/${segment(projectId)}` },
      options,
      record({ project: record({ id }) }),
    );
  }

  /** GET /api/2/projects/{projectId}/builds: one page of a project's builds (default 25, at most 100). */
  listBuilds(
    projectId: string | number,
    params?: MobilePageParams,
    options?: CallOptions,
  ): Promise<MobileBuildPage> {
    return callMobile(
      this.#http,
      {
        operation: 'listProjectBuilds',
        method: 'GET',
        path: `/api/2/projects/${segment(projectId)}/builds`,
        query: pageQuery(params),
      },
      options,
      record({ builds: list(record({ id })) }),
    );
  }

  /** GET /api/2/projects/{projectId}/builds: every build of a project, page after page. */
  iterateBuilds(
    projectId: string | number,
    options?: MobileIterateOptions,
  ): AsyncGenerator<MobileBuildListItem, void, undefined> {
    return iteratePages(
      (params, call) => this.listBuilds(projectId, params, call),
      (page) => page.builds,
      MOBILE_PROJECTS_MAX_PER_PAGE,
      options,
    );
  }

  /** GET /api/2/projects/{projectId}/testers: one page of a project's testers (default 50, at most 200). */
  listTesters(
    projectId: string | number,
    params?: MobilePageParams,
    options?: CallOptions,
  ): Promise<MobileProjectTesterPage> {
    return callMobile(
      this.#http,
      {
        operation: 'listProjectTesters',
        method: 'GET',
        path: `/api/2/projects/${segment(projectId)}/testers`,
        query: pageQuery(params),
      },
      options,
    );
  }

  /** GET /api/2/projects/{projectId}/testers: every tester of a project, page after page. */
  iterateTesters(
    projectId: string | number,
    options?: MobileIterateOptions,
  ): AsyncGenerator<MobileProjectTester, void, undefined> {
    return iteratePages(
      (params, call) => this.listTesters(projectId, params, call),
      (page) => page.testers,
      MOBILE_PROJECT_TESTERS_MAX_PER_PAGE,
      options,
    );
  }
}
