/** JSON shapes of the mobile resources, as the seed lists their fields. */
import type { FastifyRequest } from 'fastify';
import { auditLabel } from './audit-types.ts';
import { timestamp } from './format.ts';
import type { AuditEntry, AuditEvent, Build, Feedback, Group, Project, Tester, Webhook } from './model.ts';
import type { MobileStore } from './store/index.ts';

/** Links point at the emulator itself, at the address the client used. */
export function baseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

export function iconUrl(base: string, project: Project): string {
  return `${base}/icons/${project.code}.png`;
}

export function buildDownloadUrl(base: string, build: Build): string {
  return `${base}/api/1/projects/${build.projectId}/builds/${build.id}/download/`;
}

export function projectV1(base: string, project: Project) {
  return {
    id: String(project.id),
    self: `/api/1/projects/${project.id}/`,
    name: project.name,
    packageName: project.packageName,
    platform: project.platform,
    icon: iconUrl(base, project),
    landingPageMode: project.landingPageMode,
  };
}

export function projectV2Item(base: string, project: Project) {
  return {
    id: project.id,
    name: project.name,
    packageName: project.packageName,
    platform: project.platform,
    icon: iconUrl(base, project),
  };
}

export function projectV2(base: string, project: Project) {
  return {
    ...projectV2Item(base, project),
    folderName: project.folderName,
    landingPageMode: project.landingPageMode,
  };
}

export function buildV1(base: string, store: MobileStore, project: Project, build: Build) {
  const { sessions, crashes, feedbacks, downloads } = store.builds.counters(build);
  return {
    id: build.id,
    self: `/api/1/projects/${build.projectId}/builds/${build.id}/`,
    projectId: build.projectId,
    appName: build.appName,
    appVersion: build.appVersion,
    appVersionCode: build.appVersionCode,
    appDisplayName: build.appDisplayName,
    iconUrl: iconUrl(base, project),
    appUrl: buildDownloadUrl(base, build),
    landingPageMode: build.landingPageMode,
    // No app reports to the emulator: its counters are what `PATCH /_emulator/builds/:id` set.
    sessions,
    crashes,
    // Invited testers and the members of the groups with access to the build, each once.
    testers: store.projects.testersOfBuild(build).length,
    feedbacks,
    downloads,
    uploadedAt: timestamp(build.uploadedAt),
    uploadedVia: build.uploadedVia,
    hasVendorSdk: false,
    insightsEnabled: false,
    videoEnabled: false,
    // Not among the fields seed 001 lists for a build, but set by the upload and the update, whose
    // answers show them (the update's `metadata` as an object): a build read back shows them too.
    tags: build.tags,
    metadata: build.metadata,
  };
}

export function buildV2Item(base: string, project: Project, build: Build) {
  return {
    id: build.id,
    appName: build.appName,
    appVersion: build.appVersion,
    appVersionCode: build.appVersionCode,
    iconUrl: iconUrl(base, project),
    uploadDate: timestamp(build.uploadedAt),
  };
}

function groupRefs(store: MobileStore, tester: Tester) {
  return store.groups.ofTester(tester.id).map((group) => ({ id: group.id, name: group.name }));
}

export function testerListItem(store: MobileStore, tester: Tester) {
  return {
    email: tester.email,
    groups: groupRefs(store, tester),
    lastLogin: tester.lastLogin === null ? null : timestamp(tester.lastLogin),
    createdAt: timestamp(tester.createdAt),
  };
}

export function testerSingle(store: MobileStore, tester: Tester) {
  return {
    id: tester.id,
    email: tester.email,
    isBlocked: tester.blocked,
    groups: groupRefs(store, tester),
    lastLogin: tester.lastLogin === null ? null : timestamp(tester.lastLogin),
    createdAt: timestamp(tester.createdAt),
  };
}

/**
 * A tester seen against one build. A blocked tester keeps the invitation (status `blocked`, no
 * download link) and gets it back when unblocked.
 */
export function testerForBuild(base: string, store: MobileStore, tester: Tester, build: Build | undefined) {
  const invite = build ? store.invites.find(build.id, tester.id) : undefined;
  return {
    ...testerListItem(store, tester),
    isInvitedToBuild: invite !== undefined,
    buildInviteStatus: invite ? (tester.blocked ? 'blocked' : 'invited') : 'not_invited',
    buildInviteTime: invite ? timestamp(invite.time) : null,
    appDownloadLink: invite && !tester.blocked ? `${base}/download/${invite.code}/` : null,
  };
}

export function groupView(group: Group) {
  return { id: group.id, name: group.name, private: group.private };
}

export function feedbackView(base: string, feedback: Feedback) {
  return {
    recorded_at: timestamp(feedback.recordedAt),
    recordedAt: timestamp(feedback.recordedAt),
    text: feedback.text,
    feedbackId: feedback.id,
    screenshotUrl: feedback.screenshotUrl || `${base}/feedbacks/${feedback.id}/screenshot.png`,
    buildId: feedback.buildId,
    projectId: feedback.projectId,
    source: feedback.source,
    reported_by: feedback.reportedBy,
    session_id: feedback.sessionId,
  };
}

export function auditV1(event: AuditEvent) {
  return {
    id: event.id,
    timestamp: timestamp(event.time),
    ipAddress: event.ipAddress,
    eventType: event.eventType,
    eventData: event.eventData,
  };
}

export function auditV2(entry: AuditEntry) {
  return {
    id: entry.id,
    timestamp: timestamp(entry.time),
    enterpriseId: entry.enterpriseId,
    siteName: entry.siteName,
    userId: entry.userId,
    userEmail: entry.userEmail,
    ipAddress: entry.ipAddress,
    actionType: entry.actionType,
    actionLabel: auditLabel(entry.actionType),
    actionData: entry.actionData,
  };
}

export function webhookView(webhook: Webhook) {
  return {
    id: webhook.id,
    // The service reports the status as a string: '1' enabled, '0' disabled.
    status: webhook.enabled ? '1' : '0',
    name: webhook.name,
    url: webhook.url,
    actions: webhook.actions.join(','),
    projectIds: webhook.projectIds.join(','),
  };
}
