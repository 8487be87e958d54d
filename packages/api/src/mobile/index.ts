import type { CallOptions } from '../core/values/call.ts';
import type { HttpTransport } from '../core/transport/transport.ts';
import { MobileAudits } from './audits.ts';
import { MobileBuilds } from './builds.ts';
import { MobileFeedbacks } from './feedbacks.ts';
import { MobileGroups } from './groups.ts';
import { MobilePermissions } from './permissions.ts';
import { MobileProjects } from './projects.ts';
import { MobileSites } from './sites.ts';
import { MobileTesterGroups } from './tester-groups.ts';
import { MobileTesters } from './testers.ts';
import type { MobileUploadOptions, MobileUploadResult } from './types.ts';
import { MobileUploads } from './uploads.ts';
import { MobileWebhooks } from './webhooks.ts';

export * from './types.ts';
export { MobileAudits, MOBILE_AUDITS_MAX_PER_PAGE, mobileAuditDate } from './audits.ts';
export { MobileBuilds } from './builds.ts';
export {
  buildMetadataOf,
  buildTagsOf,
  newestBuild,
  UnreadableUploadTimeError,
  type NewestBuildFilter,
} from './build-fields.ts';
export { MobileFeedbacks } from './feedbacks.ts';
export {
  MobileGroups,
  MOBILE_GROUP_PROJECTS_MAX_PER_PAGE,
  MOBILE_GROUP_TESTERS_MAX_PER_PAGE,
} from './groups.ts';
export { MobilePermissions } from './permissions.ts';
export {
  MobileProjects,
  MOBILE_PROJECTS_MAX_PER_PAGE,
  MOBILE_PROJECT_TESTERS_MAX_PER_PAGE,
} from './projects.ts';
export { mobileFailureOf } from './request.ts';
export { uploadFields as mobileUploadFields } from './uploads.ts';
export { MobileSites } from './sites.ts';
export { MobileTesterGroups } from './tester-groups.ts';
export { MobileTesters } from './testers.ts';
export { MobileUploads, MOBILE_UPLOAD_HEADERS_TIMEOUT_MS } from './uploads.ts';
export { MobileWebhooks } from './webhooks.ts';

export interface MobileClientOptions {
  /** Transport of the REST interface (`/api/1`, `/api/2`). */
  http: HttpTransport;
  /** Transport of the upload interface (`/api/upload/`). */
  upload: HttpTransport;
}

/** Mobile app distribution: projects, builds, testers, groups, feedbacks, audits, permissions, webhooks, sites, upload. */
export class MobileClient {
  readonly http: HttpTransport;
  readonly uploadHttp: HttpTransport;
  readonly projects: MobileProjects;
  readonly builds: MobileBuilds;
  readonly testers: MobileTesters;
  readonly testerGroups: MobileTesterGroups;
  readonly groups: MobileGroups;
  readonly feedbacks: MobileFeedbacks;
  readonly audits: MobileAudits;
  readonly permissions: MobilePermissions;
  readonly webhooks: MobileWebhooks;
  readonly sites: MobileSites;
  readonly uploads: MobileUploads;

  constructor(options: MobileClientOptions) {
    this.http = options.http;
    this.uploadHttp = options.upload;
    this.projects = new MobileProjects(this.http);
    this.builds = new MobileBuilds(this.http);
    this.testers = new MobileTesters(this.http);
    this.testerGroups = new MobileTesterGroups(this.http);
    this.groups = new MobileGroups(this.http);
    this.feedbacks = new MobileFeedbacks(this.http);
    this.audits = new MobileAudits(this.http);
    this.permissions = new MobilePermissions(this.http);
    this.webhooks = new MobileWebhooks(this.http);
    this.sites = new MobileSites(this.http);
    this.uploads = new MobileUploads(this.uploadHttp);
  }

  /** POST /api/upload/: uploads an app file (see `uploads.build`). */
  upload(filePath: string, upload?: MobileUploadOptions, options?: CallOptions): Promise<MobileUploadResult> {
    return this.uploads.build(filePath, upload, options);
  }
}
