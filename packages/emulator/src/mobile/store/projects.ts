/**
 * Projects as the account sees them (listed while they have a build): their builds, and the
 * groups and testers that reach them.
 */
import { notFound } from '../errors.ts';
import type { Build, Group, Project, Tester } from '../model.ts';
import type { MobileGroups } from './groups.ts';
import type { MobileState } from './state.ts';

export class MobileProjects {
  readonly #state: MobileState;
  readonly #groups: MobileGroups;

  constructor(state: MobileState, groups: MobileGroups) {
    this.#state = state;
    this.#groups = groups;
  }

  /** Projects that still have a build, oldest first. */
  list(): Project[] {
    return this.#state.data.projects.filter((project) => this.buildsOf(project.id).length > 0);
  }

  get(id: number): Project {
    const project = this.#state.data.projects.find((candidate) => candidate.id === id);
    if (!project || this.buildsOf(id).length === 0) throw notFound(`project ${id}`);
    return project;
  }

  /** Builds of a project, newest first. */
  buildsOf(projectId: number): Build[] {
    return this.#state.data.builds
      .filter((build) => build.projectId === projectId)
      .sort((a, b) => b.id - a.id);
  }

  build(projectId: number, buildId: number): Build {
    const build = this.#state.data.builds.find(
      (candidate) => candidate.id === buildId && candidate.projectId === projectId,
    );
    if (!build) throw notFound(`build ${buildId} of project ${projectId}`);
    return build;
  }

  /** Projects whose builds give this group access. */
  ofGroup(group: Group): Project[] {
    return this.list().filter((project) =>
      this.buildsOf(project.id).some((build) =>
        [...build.groups, ...build.projectGroups].some(
          (name) => name.toLowerCase() === group.name.toLowerCase(),
        ),
      ),
    );
  }

  /** Testers who can reach a project: those who can reach one of its builds. */
  testersOf(projectId: number): Tester[] {
    const ids = new Set<number>();
    for (const build of this.buildsOf(projectId)) for (const id of this.#testerIdsOf(build)) ids.add(id);
    return this.#state.data.testers.filter((tester) => ids.has(tester.id));
  }

  /**
   * Testers who can reach a build: those invited to it and the members of the groups that have
   * access to it (its own groups, from the upload, an update or a copy, and its project groups).
   * This is the build's tester count; a blocked tester still counts, as the block keeps the access
   * to come back with the unblock.
   */
  testersOfBuild(build: Build): Tester[] {
    const ids = this.#testerIdsOf(build);
    return this.#state.data.testers.filter((tester) => ids.has(tester.id));
  }

  #testerIdsOf(build: Build): Set<number> {
    const ids = new Set<number>();
    for (const invite of this.#state.data.invites) if (invite.buildId === build.id) ids.add(invite.testerId);
    for (const name of [...build.groups, ...build.projectGroups]) {
      for (const id of this.#groups.byName(name)?.testerIds ?? []) ids.add(id);
    }
    return ids;
  }
}
