/** Builds of mobile app distribution: the uploaded versions of a project, and what changes them. */
import type { MobileLandingPageMode, MobilePage, MobileStatusResult } from './base-types.ts';

export interface MobileBuild {
  id: string | number;
  self: string;
  projectId: string | number;
  appName: string;
  appVersion: string;
  appVersionCode: string;
  appDisplayName: string;
  iconUrl: string;
  appUrl: string;
  landingPageMode: MobileLandingPageMode | string;
  sessions: number;
  crashes: number;
  testers: number;
  feedbacks: number;
  downloads: number;
  uploadedAt: string;
  uploadedVia: string;
  hasVendorSdk: boolean;
  insightsEnabled: boolean;
  videoEnabled: boolean;
  /**
   * The build's tags and custom metadata, as the upload and the update set them. The interface
   * does not list them among a build's fields: read them with `buildTagsOf` and `buildMetadataOf`,
   * which take what is there (metadata as an object, or the upload answer's array of
   * `{ key, value }`) and nothing else.
   */
  tags?: unknown;
  metadata?: unknown;
}

export interface MobileBuildListItem {
  id: number;
  appName: string;
  appVersion: string;
  appVersionCode: string;
  iconUrl: string;
  uploadDate: string;
}

export type MobileBuildListV1 = MobileStatusResult & { builds: MobileBuild[] };
export type MobileBuildPage = MobilePage<'builds', MobileBuildListItem>;
export type MobileBuildResult = MobileStatusResult & { build: MobileBuild };

export interface MobileBuildUpdate {
  /** Release notes (the service also knows it as changelog and release_notes). */
  comment?: string;
  tags?: readonly string[];
  /** Tester group names; an empty list removes every group, leaving it out keeps them. */
  groups?: readonly string[];
  landingPageMode?: 'open' | 'closed';
  /** Custom metadata, sent as `metadata_<key>`. */
  metadata?: Readonly<Record<string, string>>;
}

export interface MobileBuildUpdateResult extends MobileStatusResult {
  build_id: string | number;
  tags: string[];
  metadata: Record<string, string>;
  changelog: string;
  groups: string[];
  landing_page_mode: string;
}

export interface MobileBuildCopy {
  /** Folder name or path; the service creates it when absent. */
  folderName: string;
  /** New app name; default the original's. */
  appName?: string;
  /** Group names or ids; default the original groups. */
  groups?: readonly (string | number)[];
  /** Project group names or ids; default the original ones. */
  projectGroups?: readonly (string | number)[];
  /** Whether all other users may access the copy; default as the original. */
  allowAllTesters?: boolean;
}

export interface MobileBuildCopyResult extends MobileStatusResult {
  build_id: string | number;
  folder_path: string;
  app_name: string;
  assigned_groups: string[];
  invalid_groups: string[];
  assigned_project_groups: string[];
  invalid_project_groups: string[];
}

export interface MobileBuildDownload {
  /** Folder to write the file into (created when absent). */
  dir: string;
  /** File name to use instead of the one the service suggests. */
  fileName?: string;
}

export interface MobileInvite {
  /** Tester group names or ids. */
  groups: readonly (string | number)[];
  /** Text added to the invitation email. */
  comment?: string;
  /** Sends an email to each tester (default: no email). */
  notify?: boolean;
}

/** The service does not document the invite answer's body: whatever it sends is passed through. */
export type MobileInviteResult = Partial<MobileStatusResult> & Record<string, unknown>;
