/**
 * v2 audit action types. The seed names 1200 (invited testers) and 1905 (security settings
 * changed) and leaves the full list out; the others keep the same numbering: 12xx tester and
 * group changes and 13xx build distribution (the tester trail), 19xx admin changes (the admin trail).
 */
export const AUDIT = {
  testersInvited: { type: 1200, label: 'Invited testers', trail: 'tester' },
  testersAdded: { type: 1201, label: 'Added testers', trail: 'tester' },
  testerDeleted: { type: 1202, label: 'Deleted tester', trail: 'tester' },
  testerBlocked: { type: 1203, label: 'Blocked tester', trail: 'tester' },
  testerUnblocked: { type: 1204, label: 'Unblocked tester', trail: 'tester' },
  groupCreated: { type: 1210, label: 'Created tester group', trail: 'tester' },
  groupMembersAdded: { type: 1211, label: 'Added testers to group', trail: 'tester' },
  groupMembersRemoved: { type: 1212, label: 'Removed testers from group', trail: 'tester' },
  groupDiscarded: { type: 1213, label: 'Discarded empty tester group', trail: 'tester' },
  buildUploaded: { type: 1300, label: 'Uploaded build', trail: 'tester' },
  buildUpdated: { type: 1301, label: 'Updated build distribution settings', trail: 'tester' },
  buildDeleted: { type: 1302, label: 'Deleted build', trail: 'tester' },
  buildCopied: { type: 1303, label: 'Copied build', trail: 'tester' },
  securitySettingsChanged: { type: 1905, label: 'Security settings changed', trail: 'admin' },
  webhookCreated: { type: 1910, label: 'Created webhook', trail: 'admin' },
  webhookUpdated: { type: 1911, label: 'Updated webhook', trail: 'admin' },
  webhookDeleted: { type: 1912, label: 'Deleted webhook', trail: 'admin' },
  siteCreated: { type: 1920, label: 'Created site', trail: 'admin' },
  siteDeleted: { type: 1921, label: 'Deleted site', trail: 'admin' },
} as const satisfies Record<string, { type: number; label: string; trail: 'tester' | 'admin' }>;

export type AuditKind = (typeof AUDIT)[keyof typeof AUDIT];

const LABELS = new Map<number, string>(Object.values(AUDIT).map((kind) => [kind.type, kind.label]));

export function auditLabel(type: number): string {
  return LABELS.get(type) ?? 'Unknown action';
}
