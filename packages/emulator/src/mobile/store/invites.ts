/** Invitations of the members of groups to builds. */
import { AUDIT } from '../audit-types.ts';
import type { Build, Group, Invite, Tester } from '../model.ts';
import type { Actor, MobileAudits } from './audits.ts';
import { AuditedPart } from './audited-part.ts';
import type { MobileGroups } from './groups.ts';
import { newPublicCode, type MobileState } from './state.ts';

export class MobileInvites extends AuditedPart {
  readonly #groups: MobileGroups;

  constructor(state: MobileState, audits: MobileAudits, groups: MobileGroups) {
    super(state, audits);
    this.#groups = groups;
  }

  /** Invites the members of groups to a build, which also gives those groups access to it. */
  inviteGroups(actor: Actor, build: Build, groups: Group[], comment: string, notify: boolean): Tester[] {
    const { data } = this.state;
    const now = this.state.now();
    const invited: Tester[] = [];
    for (const group of groups) {
      if (!build.groups.includes(group.name)) build.groups.push(group.name);
      for (const tester of this.#groups.members(group)) {
        if (invited.includes(tester)) continue;
        invited.push(tester);
        const existing = this.find(build.id, tester.id);
        if (existing) existing.time = now;
        else data.invites.push({ buildId: build.id, testerId: tester.id, time: now, code: newPublicCode() });
      }
    }
    this.audits.record(actor, AUDIT.testersInvited, {
      projectId: build.projectId,
      buildId: build.id,
      groups: groups.map((group) => group.name),
      emails: invited.map((tester) => tester.email),
      comment,
      notify,
    });
    this.state.changed();
    return invited;
  }

  find(buildId: number, testerId: number): Invite | undefined {
    return this.state.data.invites.find(
      (invite) => invite.buildId === buildId && invite.testerId === testerId,
    );
  }
}
