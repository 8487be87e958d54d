/** Builds: the uploaded versions of a project. */
import { Readable } from 'node:stream';
import type { CallOptions } from '../core/values/call.ts';
import { redact, secretsOf } from '../core/values/credentials.ts';
import { ApiError } from '../core/values/errors.ts';
import {
  fileNameFromDisposition,
  safeBaseName,
  writeStreamToFile,
  type DownloadResult,
} from '../core/files/files.ts';
import { headerValue } from '../core/timing/retry.ts';
import { SERVICE_TIME_FORMS } from '../core/values/service-time.ts';
import { form, operations } from '../core/resources/resource.ts';
import { id, list, optional, record, ResponseShapeError } from '../core/resources/shape.ts';
import { newestBuild, UnreadableUploadTimeError, type NewestBuildFilter } from './build-fields.ts';
import { commaList, type Id, mobileFailureOf, MobileResource, sendMobile } from './request.ts';
import type {
  MobileBuild,
  MobileBuildCopy,
  MobileBuildCopyResult,
  MobileBuildDownload,
  MobileBuildListV1,
  MobileBuildResult,
  MobileBuildUpdate,
  MobileBuildUpdateResult,
  MobileInvite,
  MobileInviteResult,
  MobileStatusResult,
} from './types.ts';

const BUILD = '/api/1/projects/{projectId}/builds/{buildId}';

const BUILDS = operations({
  listBuildsV1: {
    route: 'GET /api/1/projects/{projectId}/builds/',
    shape: record({ builds: list(record({ id })) }),
  },
  getBuild: { route: `GET ${BUILD}`, shape: record({ build: record({ id }) }) },
  deleteBuild: `DELETE ${BUILD}`,
  // Applying the same changes twice leaves the same build.
  updateBuild: { route: `PATCH ${BUILD}/`, idempotent: true },
  copyBuild: `POST ${BUILD}/copy`,
  downloadBuild: { route: `GET ${BUILD}/download/`, responseType: 'stream' },
  // The interface does not document the invitation's answer: only that it is an object, when there is one.
  inviteToBuild: { route: `POST ${BUILD}/invites/`, shape: optional(record()) },
});

export class MobileBuilds extends MobileResource {
  /** GET /api/1/projects/{projectId}/builds/: every build of a project (v1 fields). */
  listV1(projectId: Id, options?: CallOptions): Promise<MobileBuildListV1> {
    return this.call(BUILDS.listBuildsV1, { path: { projectId } }, options);
  }

  /**
   * The newest build of a project that carries every tag of `filter.tags` (and is not one of
   * `filter.except`), from one listing of its builds; `undefined` when none does.
   */
  async newest(
    projectId: Id,
    filter: NewestBuildFilter = {},
    options?: CallOptions,
  ): Promise<MobileBuild | undefined> {
    const { operation, method, path } = this.request(BUILDS.listBuildsV1, { path: { projectId } });
    const request = { operation, method, url: path };
    const answer = await this.listV1(projectId, options);
    try {
      return newestBuild(answer.builds, filter);
    } catch (error) {
      if (!(error instanceof UnreadableUploadTimeError)) throw error;
      throw new ResponseShapeError({
        ...request,
        mismatch: {
          field: `builds[${error.index}].uploadedAt`,
          expected: `a time (${SERVICE_TIME_FORMS}) that tells whether build ${error.buildId} is the newest`,
          got: error.value,
        },
        answer,
      });
    }
  }

  /** GET /api/1/projects/{projectId}/builds/{buildId}: one build. */
  get(projectId: Id, buildId: Id, options?: CallOptions): Promise<MobileBuildResult> {
    return this.call(BUILDS.getBuild, { path: { projectId, buildId } }, options);
  }

  /** DELETE /api/1/projects/{projectId}/builds/{buildId}: deletes a build with its sessions and crashes. */
  delete(projectId: Id, buildId: Id, options?: CallOptions): Promise<MobileStatusResult> {
    return this.call(BUILDS.deleteBuild, { path: { projectId, buildId } }, options);
  }

  /**
   * PATCH /api/1/projects/{projectId}/builds/{buildId}/: changes only the fields given.
   * `groups: []` removes every group; leaving `groups` out keeps them.
   */
  update(
    projectId: Id,
    buildId: Id,
    changes: MobileBuildUpdate,
    options?: CallOptions,
  ): Promise<MobileBuildUpdateResult> {
    const fields: Record<string, string | undefined> = {
      comment: changes.comment,
      tags: commaList(changes.tags),
      groups: commaList(changes.groups),
      landing_page_mode: changes.landingPageMode,
    };
    for (const [key, value] of Object.entries(changes.metadata ?? {})) fields[`metadata_${key}`] = value;
    return this.call(BUILDS.updateBuild, { path: { projectId, buildId }, body: form(fields) }, options);
  }

  /** POST /api/1/projects/{projectId}/builds/{buildId}/copy: copies a build into a folder. */
  copy(
    projectId: Id,
    buildId: Id,
    copy: MobileBuildCopy,
    options?: CallOptions,
  ): Promise<MobileBuildCopyResult> {
    const body = form({
      folder_name: copy.folderName,
      app_name: copy.appName,
      groups: commaList(copy.groups),
      projectGroups: commaList(copy.projectGroups),
      allowAllTesters: copy.allowAllTesters === undefined ? undefined : copy.allowAllTesters ? 1 : 0,
    });
    return this.call(BUILDS.copyBuild, { path: { projectId, buildId }, body }, options);
  }

  /**
   * GET /api/1/projects/{projectId}/builds/{buildId}/download/: streams the uploaded binary into
   * `target.dir`, named as the service suggests (reduced to a safe base name) or `build-<buildId>`.
   */
  async download(
    projectId: Id,
    buildId: Id,
    target: MobileBuildDownload,
    options?: CallOptions,
  ): Promise<DownloadResult> {
    const spec = this.request(BUILDS.downloadBuild, { path: { projectId, buildId } });
    const { operation, path } = spec;
    const response = await sendMobile<Readable>(this.http, spec, options);
    let stream = response.body;
    // A JSON answer in place of the binary may be a `status: fail`.
    if ((headerValue(response.headers, 'content-type') ?? '').includes('json')) {
      const bytes = Buffer.concat(await stream.toArray());
      const failure = mobileFailureOf(parseJson(bytes));
      if (failure) {
        const secrets = secretsOf(this.http.credentials);
        throw new ApiError({
          operation,
          method: 'GET',
          url: path,
          ...(failure.code !== undefined ? { code: failure.code } : {}),
          ...(failure.message ? { serviceMessage: redact(failure.message, secrets) } : {}),
        });
      }
      stream = Readable.from([bytes]);
    }
    const fallback = `build-${safeBaseName(String(buildId), 'download')}`;
    const name = target.fileName ?? safeBaseName(fileNameFromDisposition(response.headers), fallback);
    return writeStreamToFile(stream, target.dir, name);
  }

  /** POST /api/1/projects/{projectId}/builds/{buildId}/invites/: invites tester groups to a build. */
  async invite(
    projectId: Id,
    buildId: Id,
    invite: MobileInvite,
    options?: CallOptions,
  ): Promise<MobileInviteResult> {
    const fields = {
      groups: commaList(invite.groups),
      comment: invite.comment,
      notify: invite.notify ? 'on' : undefined,
    };
    const answer = await this.call<MobileInviteResult | undefined>(
      BUILDS.inviteToBuild,
      { path: { projectId, buildId }, body: form(fields) },
      options,
    );
    return answer ?? {};
  }
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
