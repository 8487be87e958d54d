/** Tester groups: finding them by id or name, creating them, and their members. */
import { AUDIT } from '../audit-types.ts';
import { invalid, notFound } from '../errors.ts';
import type { Group, Tester } from '../model.ts';
import type { Actor } from './audits.ts';
import { AuditedPart } from './audited-part.ts';

interface ResolvedGroups {
  /** Names of the groups found. */
  found: string[];
  /** The names or ids that name no group. */
  invalid: string[];
  groups: Group[];
}

export class MobileGroups extends AuditedPart {
  get(id: number): Group {
    const group = this.state.data.groups.find((candidate) => candidate.id === id);
    if (!group) throw notFound(`group ${id}`);
    return group;
  }

  byName(name: string): Group | undefined {
    return this.state.data.groups.find((group) => group.name.toLowerCase() === name.toLowerCase());
  }

  /** Finds groups by name or id, keeping the ones that do not exist apart. */
  resolve(namesOrIds: string[]): ResolvedGroups {
    const groups: Group[] = [];
    const invalidNames: string[] = [];
    for (const entry of namesOrIds) {
      const group =
        this.byName(entry) ??
        (/^\d+$/.test(entry) ? this.state.data.groups.find((g) => g.id === Number(entry)) : undefined);
      if (group) {
        if (!groups.includes(group)) groups.push(group);
      } else invalidNames.push(entry);
    }
    return { found: groups.map((group) => group.name), invalid: invalidNames, groups };
  }

  ensure(name: string, isPrivate: boolean, actor?: Actor): Group {
    const existing = this.byName(name);
    if (existing) return existing;
    const group: Group = { id: this.state.nextId('group'), name, private: isPrivate, testerIds: [] };
    this.state.data.groups.push(group);
    // Without an actor this is the seed being loaded: nothing to audit or persist yet.
    if (actor) {
      this.audits.record(actor, AUDIT.groupCreated, { groupId: group.id, name });
      this.state.changed();
    }
    return group;
  }

  create(actor: Actor, name: string): Group {
    if (this.byName(name)) throw invalid('groupName', `a group named ${name} already exists`);
    return this.ensure(name, false, actor);
  }

  /** Makes the testers members; the callers audit and persist. */
  join(group: Group, testers: Tester[]): void {
    for (const tester of testers) if (!group.testerIds.includes(tester.id)) group.testerIds.push(tester.id);
  }

  /** Removes members; a group left without members is discarded. */
  removeMembers(actor: Actor, group: Group, testerIds: number[], audit = true): void {
    const { data } = this.state;
    const removed = data.testers.filter((t) => testerIds.includes(t.id) && group.testerIds.includes(t.id));
    group.testerIds = group.testerIds.filter((id) => !testerIds.includes(id));
    if (audit) {
      this.audits.record(actor, AUDIT.groupMembersRemoved, {
        groupId: group.id,
        name: group.name,
        emails: removed.map((t) => t.email),
      });
    }
    if (group.testerIds.length === 0 && (removed.length > 0 || testerIds.length > 0)) {
      data.groups = data.groups.filter((candidate) => candidate.id !== group.id);
      this.audits.record(actor, AUDIT.groupDiscarded, { groupId: group.id, name: group.name });
    }
    this.state.changed();
  }

  members(group: Group): Tester[] {
    return this.state.data.testers.filter((tester) => group.testerIds.includes(tester.id));
  }

  ofTester(testerId: number): Group[] {
    return this.state.data.groups.filter((group) => group.testerIds.includes(testerId));
  }
}
