/** The mobile records the seed describes, as they stand when the emulator starts. */
import type { StoreEnvironment } from '../../shared/store-state.ts';
import type { MobileData } from '../model.ts';
import type { MobileSeed } from '../seed.ts';
import { MobileAudits } from './audits.ts';
import { MobileGroups } from './groups.ts';
import { MobileState } from './state.ts';
import { MobileTesters } from './testers.ts';

export function seededMobileData(seed: MobileSeed, env: StoreEnvironment): MobileData {
  const now = env.now();
  const data: MobileData = {
    accounts: seed.accounts.map((account, index) => ({
      id: index + 1,
      email: account.email,
      apiKey: account.apiKey,
      oidcToken: account.oidcToken,
      oidcConfigKey: account.oidcConfigKey,
      ...(account.oidc !== undefined ? { oidc: { ...account.oidc } } : {}),
      role: account.role ?? 'account-owner',
      permissions: account.permissions ?? ['*:rw'],
    })),
    requireLogin: seed.requireLogin ?? false,
    siteName: seed.siteName ?? 'demo',
    enterpriseId: seed.enterpriseId ?? '1001',
    projects: [],
    builds: [],
    testers: [],
    groups: [],
    invites: [],
    webhooks: [],
    sites: [],
    feedbacks: [],
    audits: [],
    events: [],
    nextId: { project: 1, build: 1, tester: 1, group: 1, webhook: 1, site: 1, audit: 1, feedback: 1 },
  };
  // Groups and testers go in as the interface adds them, without an actor: nothing is audited.
  const state = new MobileState(env, data);
  const audits = new MobileAudits(state);
  const groups = new MobileGroups(state, audits);
  const testers = new MobileTesters(state, audits, groups);
  for (const group of seed.groups ?? []) groups.ensure(group.name, group.private ?? false);
  for (const tester of seed.testers ?? []) {
    const created = testers.ensure(tester.email);
    created.blocked = tester.blocked ?? false;
    for (const name of tester.groups ?? []) groups.join(groups.ensure(name, false), [created]);
  }
  for (const feedback of seed.feedbacks ?? []) {
    data.feedbacks.push({
      id: data.nextId.feedback++,
      text: feedback.text,
      buildId: feedback.buildId ?? null,
      projectId: feedback.projectId ?? null,
      recordedAt: feedback.recordedAt ?? now,
      source: feedback.source ?? 'shake',
      reportedBy: feedback.reportedBy ?? '',
      sessionId: String(1000 + data.feedbacks.length),
      screenshotUrl: feedback.screenshotUrl ?? '',
    });
  }
  return data;
}
