/** Resources and answers of mobile app distribution (REST `/api/1`, `/api/2` and the upload interface). */
import type { CallOptions } from '../core/values/call.ts';
import type { MobileLandingPageMode, MobilePage, MobilePlatform, MobileStatusResult } from './base-types.ts';

export * from './base-types.ts';

// Projects

export interface MobileProjectV1 {
  id: string;
  self: string;
  name: string;
  packageName: string;
  platform: MobilePlatform | string;
  icon: string;
  landingPageMode: MobileLandingPageMode | string;
}

export interface MobileProjectListItem {
  id: number;
  name: string;
  packageName: string;
  platform: MobilePlatform | string;
  icon: string;
}

export interface MobileProject extends MobileProjectListItem {
  folderName: string;
  landingPageMode: MobileLandingPageMode | string;
}

export type MobileProjectListV1 = MobileStatusResult & { projects: MobileProjectV1[] };
export type MobileProjectPage = MobilePage<'projects', MobileProjectListItem>;
export type MobileProjectResult = MobileStatusResult & { project: MobileProject };

// Builds: in build-types.ts

export * from './build-types.ts';

// Testers

export interface MobileGroupRef {
  id: number;
  name: string;
}

export interface MobileTesterListItem {
  email: string;
  groups: MobileGroupRef[];
  /** Null for a tester who never signed in. */
  lastLogin: string | null;
  createdAt: string;
  /** Present when the list was asked for with a build id. */
  isInvitedToBuild?: boolean;
  buildInviteStatus?: string;
  /** Null when the tester is not invited to the build. */
  buildInviteTime?: string | null;
  /** Null when the tester cannot download the build (not invited, or blocked). */
  appDownloadLink?: string | null;
}

export interface MobileTester {
  id: number;
  email: string;
  isBlocked: boolean;
  groups: MobileGroupRef[];
  /** Null for a tester who never signed in. */
  lastLogin: string | null;
  createdAt: string;
}

export interface MobileProjectTester {
  id: number;
  email: string;
}

export interface MobileTesterEmail {
  email: string;
}

export type MobileTesterList = MobileStatusResult & { testers: MobileTesterListItem[] };
export type MobileTesterResult = MobileStatusResult & { tester: MobileTester };
export type MobileProjectTesterPage = MobilePage<'testers', MobileProjectTester>;
export type MobileTesterEmailList = MobileStatusResult & { testers: MobileTesterEmail[] };

export interface MobileTestersAdd {
  /** Tester emails. */
  emails?: readonly string[];
  /** Group the testers join; the service creates it when absent. */
  group?: string;
  /** Sends the welcome email (default: none). */
  notify?: boolean;
}

// Groups

export interface MobileGroup {
  id: number;
  name: string;
  private: boolean;
}

export interface MobileTesterGroup {
  id: number | string;
  name: string;
  /** As the service sends it: an array holding an array of `{ email }`. */
  testers: MobileTesterEmail[][];
}

export interface MobileCreatedGroup extends Partial<MobileStatusResult> {
  id: string;
  name: string;
}

export interface MobileGroupProject {
  id: number;
  name: string;
}

export type MobileGroupList = MobileStatusResult & { groups: MobileGroup[] };
export type MobileGroupResult = MobileStatusResult & { group: MobileGroup };
export type MobileTesterGroupList = MobileStatusResult & { groups: MobileTesterGroup[] };
export type MobileGroupTesterPage = MobilePage<'testers', MobileTesterEmail>;
export type MobileGroupProjectPage = MobilePage<'projects', MobileGroupProject>;

// Feedbacks

export interface MobileFeedback {
  recorded_at: string;
  recordedAt: string;
  text: string;
  feedbackId: string | number;
  screenshotUrl: string;
  buildId: string | number;
  projectId: string | number;
  source: string;
  reported_by: string;
  session_id: string | number;
}

export type MobileFeedbackList = MobileStatusResult & { feedbacks: MobileFeedback[] };

// Audits

export interface MobileAuditV1 {
  id: string | number;
  timestamp: string;
  ipAddress: string;
  eventType: string;
  eventData: {
    projectId?: string | number;
    buildId?: string | number;
    appName?: string;
    appVersion?: string;
    testerEmail?: string;
    filesize?: number;
    [key: string]: unknown;
  };
}

export interface MobileAudit {
  id: string | number;
  timestamp: string;
  enterpriseId: string | number;
  siteName: string;
  userId: string | number;
  userEmail: string;
  ipAddress: string;
  actionType: number;
  actionLabel: string;
  /** Changes hold `from` and `to`; invitations hold `emails`. */
  actionData: Record<string, unknown>;
}

export interface MobileAuditFilter {
  /** Multi-site accounts: subdomain or enterprise id of a site the caller can access. */
  site?: string | number;
  actionType?: number;
  /** A date (`YYYY-MM-DD`, or a Date read in UTC). */
  startDate?: string | Date;
  endDate?: string | Date;
}

export type MobileAuditListV1 = MobileStatusResult & { audits: MobileAuditV1[] };
export type MobileAuditPage = MobilePage<'audits', MobileAudit>;

// Permissions

export interface MobileAdminPermission {
  email: string;
  role: 'account-owner' | 'account-manager' | 'admin' | string;
  /** `<project_id>:<mode>` or `*:<mode>`, mode `r` or `rw`. */
  permissions: string[];
}

export type MobilePermissionList = MobileStatusResult & { admins: MobileAdminPermission[] };

// Webhooks

export type MobileWebhookAction = 'crash' | 'feedback' | 'upload' | 'new-udid';

export interface MobileWebhook {
  id: number;
  status: string;
  name: string;
  url: string;
  /** Comma-separated actions. */
  actions: string;
  /** Comma-separated project ids. */
  projectIds: string;
}

export interface MobileWebhookInput {
  name: string;
  url: string;
  /** Whether the webhook is active (default false). */
  enabled?: boolean;
  actions?: readonly MobileWebhookAction[];
  projectIds?: readonly (string | number)[];
}

export type MobileWebhookList = MobileStatusResult & { webhooks: MobileWebhook[] };
export type MobileWebhookResult = MobileStatusResult & { webhook: MobileWebhook };

// Sites

export interface MobileSiteAccount {
  id: string;
  name: string;
  buildsCount: number;
  users: { email: string; role: string }[];
}

export interface MobileSite {
  accounts: MobileSiteAccount[];
  managers: { email: string }[];
}

export type MobileSiteResult = MobileStatusResult & { site: MobileSite };

export interface MobileSiteInput {
  /** Letters, digits, `-` and `_`; more than 3 characters. */
  name: string;
  /** `sso` (0) or `credentials` (1). */
  loginMethod?: 'sso' | 'credentials';
}

// Upload

export type MobileUploadPlatform = 'Xbox' | 'PlayStation' | 'switch' | 'windows' | 'macos';

export interface MobileUploadOptions {
  /** Display name; default the one in the file. */
  appName?: string;
  /** iOS: zipped dSYM; Android: a .txt mapping file. */
  symbolsFile?: string;
  /** Tester groups allowed to download. */
  groups?: readonly string[];
  /** Emails the users of the groups (default off). */
  notify?: boolean;
  releaseNotes?: string;
  /** Upgrades all users to this version (default off). */
  autoUpdate?: boolean;
  tags?: readonly string[];
  folderName?: string;
  landingPageMode?: 'open' | 'closed';
  uploadToVendor?: boolean;
  /** Only for apps that are neither iOS nor Android. */
  platform?: MobileUploadPlatform;
  /** Custom data, sent as `metadata.<key>`. */
  metadata?: Readonly<Record<string, string>>;
  /** Reports bytes as they leave the process. */
  onProgress?: (progress: { sentBytes: number; totalBytes: number }) => void;
}

export interface MobileUploadResult extends MobileStatusResult {
  build_id: string | number;
  project_id: string | number;
  app_name: string;
  app_version: string;
  file_size: number;
  build_url: string;
  download_page_url: string;
  app_url: string;
  invite_testers_url: string;
  icon_url: string;
  options: string;
  platform: string;
  tags: string[];
  metadata: unknown[];
  has_vendor_sdk: boolean;
  symbols_download_url: string;
  attachments: unknown;
  landing_page_url: string;
  build_specific_landing_page_url: string;
  landing_page_mode: string;
}

/** Options of the `iterate…()` methods: page size (capped at the list's maximum), item limit, call options. */
export interface MobileIterateOptions {
  /** Items per request; default and cap: the list's maximum `per_page`. */
  pageSize?: number;
  /** Stop after this many items. */
  maxItems?: number;
  signal?: AbortSignal;
  timeouts?: NonNullable<CallOptions['timeouts']>;
}
