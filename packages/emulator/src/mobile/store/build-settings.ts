/**
 * A build's distribution settings (release notes, tags, groups, landing page mode, metadata):
 * who may change them, and the change with its before and after on the audit trail.
 */
import { AUDIT } from '../audit-types.ts';
import { CODE, MobileError } from '../errors.ts';
import type { Build, MobileAccount } from '../model.ts';
import { canWrite } from './accounts.ts';
import type { Actor, MobileAudits } from './audits.ts';
import { AuditedPart } from './audited-part.ts';
import type { MobileGroups } from './groups.ts';
import type { MobileState } from './state.ts';

/** Only the members given change. */
export type BuildChanges = Partial<
  Pick<Build, 'changelog' | 'tags' | 'groups' | 'landingPageMode' | 'metadata'>
>;

export class MobileBuildSettings extends AuditedPart {
  readonly #groups: MobileGroups;

  constructor(state: MobileState, audits: MobileAudits, groups: MobileGroups) {
    super(state, audits);
    this.#groups = groups;
  }

  /** Checks what a build update needs: an existing build, a non-tester account with write access. */
  checkWrite(account: MobileAccount, projectId: number, buildId: number): Build {
    const build = this.state.data.builds.find(
      (candidate) => candidate.id === buildId && candidate.projectId === projectId,
    );
    if (!build) throw new MobileError(404, CODE.missingParameter, `Missing or invalid build-id: ${buildId}`);
    if (account.role === 'tester') {
      throw new MobileError(403, CODE.testerAccount, 'Tester accounts cannot update builds');
    }
    if (!canWrite(account, projectId)) {
      throw new MobileError(403, CODE.noWriteAccess, `No write access to project ${projectId}`);
    }
    return build;
  }

  update(actor: Actor, build: Build, changes: BuildChanges): Build {
    if (changes.landingPageMode === 'open' && this.state.data.requireLogin) {
      throw new MobileError(
        400,
        CODE.landingPageRequiresLogin,
        'landing_page_mode cannot be open: the account settings require login',
      );
    }
    const from: Record<string, unknown> = {};
    const to: Record<string, unknown> = {};
    const record = (field: string, before: unknown, after: unknown): void => {
      from[field] = before;
      to[field] = after;
    };
    if (changes.changelog !== undefined) {
      record('changelog', build.changelog, changes.changelog);
      build.changelog = changes.changelog;
    }
    if (changes.tags !== undefined) {
      record('tags', build.tags, changes.tags);
      build.tags = changes.tags;
    }
    if (changes.groups !== undefined) {
      const groups = changes.groups.filter((name) => this.#groups.byName(name));
      record('groups', build.groups, groups);
      build.groups = groups;
    }
    if (changes.landingPageMode !== undefined) {
      record('landingPageMode', build.landingPageMode, changes.landingPageMode);
      build.landingPageMode = changes.landingPageMode;
    }
    if (changes.metadata && Object.keys(changes.metadata).length > 0) {
      record('metadata', { ...build.metadata }, { ...build.metadata, ...changes.metadata });
      build.metadata = { ...build.metadata, ...changes.metadata };
    }
    this.audits.record(actor, AUDIT.buildUpdated, {
      projectId: build.projectId,
      buildId: build.id,
      from,
      to,
    });
    this.state.changed();
    return build;
  }
}
