/** Plain, JSON-serialisable records of the mobile interface's state. Times are epoch milliseconds. */
import type { OidcConfig } from './oidc-token.ts';
import type { MobileRole } from './seed.ts';

export interface MobileAccount {
  id: number;
  email: string;
  apiKey: string;
  oidcToken?: string | undefined;
  oidcConfigKey?: string | undefined;
  /** Keyless sign-in: ID tokens (JWTs) for an audience, with their configuration key. */
  oidc?: OidcConfig | undefined;
  role: MobileRole;
  permissions: string[];
}

export interface Project {
  id: number;
  name: string;
  packageName: string;
  /** Android, iOS, macOS, or the upload's `platform` for other devices. */
  platform: string;
  folderName: string;
  landingPageMode: string;
  /** Public code of the project's landing page. */
  code: string;
}

export interface Build {
  id: number;
  projectId: number;
  appName: string;
  appDisplayName: string;
  appVersion: string;
  appVersionCode: string;
  packageName: string;
  platform: string;
  /** File name as uploaded, and where the bytes are (relative to the files folder). */
  fileName: string;
  storedFile: string;
  fileSize: number;
  symbolsFile?: string | undefined;
  uploadedAt: number;
  uploadedVia: string;
  uploaderEmail: string;
  tags: string[];
  metadata: Record<string, string>;
  changelog: string;
  /** Names of tester groups allowed to download. */
  groups: string[];
  projectGroups: string[];
  allowAllTesters: boolean;
  landingPageMode: string;
  notify: boolean;
  autoUpdate: boolean;
  uploadToVendor: boolean;
  downloads: number;
  /** Test sessions and crashes the apps reported; set through `PATCH /_emulator/builds/:id`. */
  sessions?: number;
  crashes?: number;
  /** The feedback count shown in place of the build's feedbacks, when set through the same. */
  feedbackCount?: number;
  /** Public code of the build's landing page and direct download. */
  code: string;
}

export interface Tester {
  id: number;
  email: string;
  blocked: boolean;
  createdAt: number;
  lastLogin: number | null;
}

export interface Group {
  id: number;
  name: string;
  private: boolean;
  testerIds: number[];
}

export interface Invite {
  buildId: number;
  testerId: number;
  time: number;
  code: string;
}

export interface Webhook {
  id: number;
  name: string;
  url: string;
  enabled: boolean;
  actions: string[];
  projectIds: number[];
}

export interface Site {
  id: string;
  name: string;
  loginMethod: number;
  ownerEmail: string;
}

export interface Feedback {
  id: number;
  text: string;
  buildId: number | null;
  projectId: number | null;
  recordedAt: number;
  source: string;
  reportedBy: string;
  sessionId: string;
  screenshotUrl: string;
}

export interface AuditEntry {
  id: number;
  time: number;
  trail: 'tester' | 'admin';
  siteName: string;
  enterpriseId: string;
  userId: number;
  userEmail: string;
  ipAddress: string;
  actionType: number;
  actionData: Record<string, unknown>;
}

/** v1 (deprecated) audit events, such as download_app. */
export interface AuditEvent {
  id: number;
  time: number;
  ipAddress: string;
  eventType: string;
  eventData: Record<string, unknown>;
}

export interface MobileData {
  accounts: MobileAccount[];
  requireLogin: boolean;
  siteName: string;
  enterpriseId: string;
  projects: Project[];
  builds: Build[];
  testers: Tester[];
  groups: Group[];
  invites: Invite[];
  webhooks: Webhook[];
  sites: Site[];
  feedbacks: Feedback[];
  audits: AuditEntry[];
  events: AuditEvent[];
  nextId: Record<
    'project' | 'build' | 'tester' | 'group' | 'webhook' | 'site' | 'audit' | 'feedback',
    number
  >;
}
