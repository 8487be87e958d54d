/** Builds arriving (an upload, a copy into a folder), leaving and downloaded, each on the audit trails. */
import { AUDIT } from '../audit-types.ts';
import type { Build, Project } from '../model.ts';
import type { Actor, MobileAudits } from './audits.ts';
import { AuditedPart } from './audited-part.ts';
import type { MobileGroups } from './groups.ts';
import type { MobileProjects } from './projects.ts';
import { newPublicCode, type MobileState } from './state.ts';

/** An upload: the build's own fields, and the folder that places a new project. */
type NewBuild = Pick<
  Build,
  | 'appName'
  | 'appVersion'
  | 'appVersionCode'
  | 'packageName'
  | 'platform'
  | 'fileName'
  | 'storedFile'
  | 'fileSize'
  | 'symbolsFile'
  | 'tags'
  | 'metadata'
  | 'changelog'
  | 'groups'
  | 'landingPageMode'
  | 'notify'
  | 'autoUpdate'
  | 'uploadToVendor'
> &
  Pick<Project, 'folderName'>;

interface CopyRequest {
  folderName: string;
  appName?: string | undefined;
  groups?: string[] | undefined;
  projectGroups?: string[] | undefined;
  allowAllTesters?: boolean | undefined;
}

interface CopiedBuild {
  build: Build;
  assignedGroups: string[];
  invalidGroups: string[];
  assignedProjectGroups: string[];
  invalidProjectGroups: string[];
}

export class MobileBuilds extends AuditedPart {
  readonly #projects: MobileProjects;
  readonly #groups: MobileGroups;

  constructor(state: MobileState, audits: MobileAudits, projects: MobileProjects, groups: MobileGroups) {
    super(state, audits);
    this.#projects = projects;
    this.#groups = groups;
  }

  /**
   * Adds an uploaded build. A project is one package on one platform: a new version of the same
   * package on the same platform joins its project, whichever folder the upload names (the folder
   * only places a new project).
   */
  add(actor: Actor, input: NewBuild): { project: Project; build: Build } {
    const { data } = this.state;
    let project = data.projects.find(
      (candidate) => candidate.packageName === input.packageName && candidate.platform === input.platform,
    );
    if (!project) {
      project = {
        id: this.state.nextId('project'),
        name: input.appName,
        packageName: input.packageName,
        platform: input.platform,
        folderName: input.folderName,
        landingPageMode: input.landingPageMode,
        code: newPublicCode(),
      };
      data.projects.push(project);
    } else {
      project.name = input.appName;
      project.landingPageMode = input.landingPageMode;
      if (input.folderName) project.folderName = input.folderName;
    }
    const build: Build = {
      id: this.state.nextId('build'),
      projectId: project.id,
      appName: input.appName,
      appDisplayName: input.appName,
      appVersion: input.appVersion,
      appVersionCode: input.appVersionCode,
      packageName: input.packageName,
      platform: input.platform,
      fileName: input.fileName,
      storedFile: input.storedFile,
      fileSize: input.fileSize,
      symbolsFile: input.symbolsFile,
      uploadedAt: this.state.now(),
      uploadedVia: 'Upload API',
      uploaderEmail: actor.account.email,
      tags: input.tags,
      metadata: input.metadata,
      changelog: input.changelog,
      groups: input.groups.filter((name) => this.#groups.byName(name)),
      projectGroups: [],
      allowAllTesters: false,
      landingPageMode: input.landingPageMode,
      notify: input.notify,
      autoUpdate: input.autoUpdate,
      uploadToVendor: input.uploadToVendor,
      downloads: 0,
      code: newPublicCode(),
    };
    data.builds.push(build);
    this.audits.record(actor, AUDIT.buildUploaded, {
      projectId: project.id,
      buildId: build.id,
      appName: build.appName,
      appVersion: build.appVersion,
      groups: build.groups,
    });
    this.audits.recordEvent(actor, 'upload_app', build);
    this.state.changed();
    return { project, build };
  }

  /**
   * Copies a build into a folder. A folder holds its own projects, so the copy becomes a build of
   * a new project in that folder, with the same package and platform.
   */
  copy(actor: Actor, build: Build, request: CopyRequest, storedFile: string): CopiedBuild {
    const { data } = this.state;
    const original = this.#projects.get(build.projectId);
    const groups = this.#groups.resolve(request.groups ?? build.groups);
    const projectGroups = this.#groups.resolve(request.projectGroups ?? build.projectGroups);
    const appName = request.appName ?? build.appName;
    const project: Project = {
      ...original,
      id: this.state.nextId('project'),
      name: appName,
      folderName: request.folderName,
      code: newPublicCode(),
    };
    data.projects.push(project);
    const copy: Build = {
      ...build,
      id: this.state.nextId('build'),
      projectId: project.id,
      appName,
      appDisplayName: appName,
      storedFile,
      tags: [...build.tags],
      metadata: { ...build.metadata },
      groups: groups.found,
      projectGroups: projectGroups.found,
      allowAllTesters: request.allowAllTesters ?? build.allowAllTesters,
      uploadedAt: this.state.now(),
      uploadedVia: 'Copy',
      downloads: 0,
      code: newPublicCode(),
    };
    data.builds.push(copy);
    this.audits.record(actor, AUDIT.buildCopied, {
      projectId: build.projectId,
      buildId: build.id,
      to: { projectId: project.id, buildId: copy.id, folderName: request.folderName },
    });
    this.state.changed();
    return {
      build: copy,
      assignedGroups: groups.found,
      invalidGroups: groups.invalid,
      assignedProjectGroups: projectGroups.found,
      invalidProjectGroups: projectGroups.invalid,
    };
  }

  /** Deletes a build; the project leaves the list with its last build. Returns the stored files to remove. */
  delete(actor: Actor, build: Build): string[] {
    const { data } = this.state;
    data.builds = data.builds.filter((candidate) => candidate.id !== build.id);
    data.invites = data.invites.filter((invite) => invite.buildId !== build.id);
    const projectGone = this.#projects.buildsOf(build.projectId).length === 0;
    if (projectGone) data.projects = data.projects.filter((p) => p.id !== build.projectId);
    this.audits.record(actor, AUDIT.buildDeleted, {
      projectId: build.projectId,
      buildId: build.id,
      appName: build.appName,
      appVersion: build.appVersion,
      projectDeleted: projectGone,
    });
    this.state.changed();
    return [build.storedFile, ...(build.symbolsFile ? [build.symbolsFile] : [])];
  }

  recordDownload(actor: Actor, build: Build): void {
    build.downloads += 1;
    this.audits.recordEvent(actor, 'download_app', build);
    this.state.changed();
  }

  /** A download from a landing page, which has no signed-in caller: counted, not audited. */
  countLandingDownload(build: Build): void {
    build.downloads += 1;
    this.state.changed();
  }

  /** A build's counters as a test sets them (`PATCH /_emulator/builds/:id`): no app reports here. */
  setCounters(build: Build, counters: BuildCounters): BuildCounters {
    if (counters.sessions !== undefined) build.sessions = counters.sessions;
    if (counters.crashes !== undefined) build.crashes = counters.crashes;
    if (counters.feedbacks !== undefined) build.feedbackCount = counters.feedbacks;
    if (counters.downloads !== undefined) build.downloads = counters.downloads;
    this.state.changed();
    return this.counters(build);
  }

  /** The counters a build shows: its feedbacks are those recorded for it, unless a test set them. */
  counters(build: Build): Required<BuildCounters> {
    return {
      sessions: build.sessions ?? 0,
      crashes: build.crashes ?? 0,
      feedbacks:
        build.feedbackCount ??
        this.state.data.feedbacks.filter((feedback) => feedback.buildId === build.id).length,
      downloads: build.downloads,
    };
  }
}

export interface BuildCounters {
  sessions?: number;
  crashes?: number;
  feedbacks?: number;
  downloads?: number;
}
