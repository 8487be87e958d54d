/** Testers: adding them by email (into a group too), blocking and deleting them. */
import { AUDIT } from '../audit-types.ts';
import { invalid, notFound } from '../errors.ts';
import type { Group, Tester } from '../model.ts';
import type { Actor, MobileAudits } from './audits.ts';
import { AuditedPart } from './audited-part.ts';
import type { MobileGroups } from './groups.ts';
import type { MobileState } from './state.ts';

const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

/** Refuses the whole list when one entry is not an email, before anything changes. */
function checkEmails(emails: string[]): void {
  for (const email of emails) if (!EMAIL.test(email)) throw invalid('email', `${email} is not an email`);
}

export class MobileTesters extends AuditedPart {
  readonly #groups: MobileGroups;

  constructor(state: MobileState, audits: MobileAudits, groups: MobileGroups) {
    super(state, audits);
    this.#groups = groups;
  }

  get(id: number): Tester {
    const tester = this.state.data.testers.find((candidate) => candidate.id === id);
    if (!tester) throw notFound(`tester ${id}`);
    return tester;
  }

  /** The tester of this email (in any case), created when there is none; neither audited nor persisted. */
  ensure(email: string): Tester {
    const { data } = this.state;
    const existing = data.testers.find((tester) => tester.email.toLowerCase() === email.toLowerCase());
    if (existing) return existing;
    const tester: Tester = {
      id: this.state.nextId('tester'),
      email,
      blocked: false,
      createdAt: this.state.now(),
      lastLogin: null,
    };
    data.testers.push(tester);
    return tester;
  }

  /** Adds testers (one or more emails), optionally into a group created when absent. */
  add(actor: Actor, emails: string[], groupName?: string): Tester[] {
    checkEmails(emails);
    const group = groupName ? this.#groups.ensure(groupName, false, actor) : undefined;
    const testers = emails.map((email) => this.ensure(email));
    if (group) this.#groups.join(group, testers);
    if (testers.length > 0) {
      this.audits.record(actor, AUDIT.testersAdded, {
        emails: testers.map((t) => t.email),
        group: groupName ?? null,
      });
    }
    this.state.changed();
    return testers;
  }

  /** Adds testers to a group by email, creating tester accounts that do not exist yet. */
  addToGroup(actor: Actor, group: Group, emails: string[]): void {
    checkEmails(emails);
    this.#groups.join(
      group,
      emails.map((email) => this.ensure(email)),
    );
    this.audits.record(actor, AUDIT.groupMembersAdded, { groupId: group.id, name: group.name, emails });
    this.state.changed();
  }

  /** Blocks or unblocks; invitations stay and return with the unblock. Unchanged state does nothing. */
  setBlocked(actor: Actor, tester: Tester, blocked: boolean): void {
    if (tester.blocked === blocked) return;
    tester.blocked = blocked;
    this.audits.record(actor, blocked ? AUDIT.testerBlocked : AUDIT.testerUnblocked, {
      email: tester.email,
    });
    this.state.changed();
  }

  /** Deletes a tester: out of every group (empty groups are discarded) and invitations invalidated. */
  delete(actor: Actor, tester: Tester): void {
    const { data } = this.state;
    data.testers = data.testers.filter((candidate) => candidate.id !== tester.id);
    data.invites = data.invites.filter((invite) => invite.testerId !== tester.id);
    const groups = this.#groups.ofTester(tester.id);
    this.audits.record(actor, AUDIT.testerDeleted, {
      email: tester.email,
      groups: groups.map((g) => g.name),
    });
    for (const group of groups) this.#groups.removeMembers(actor, group, [tester.id], false);
    this.state.changed();
  }
}
