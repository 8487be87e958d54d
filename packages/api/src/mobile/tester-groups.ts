/** Tester groups: membership of testers in the groups that builds are granted to. */
import type { CallOptions } from '../core/values/call.ts';
import { form, operations } from '../core/resources/resource.ts';
import { id, list, optional, record, text } from '../core/resources/shape.ts';
import { commaList, type Id, MobileResource } from './request.ts';
import type { MobileCreatedGroup, MobileTesterEmailList, MobileTesterGroupList } from './types.ts';

/** What callers read of a tester group: its id and name, and its testers when listed. */
const GROUP = record({ id, name: text, testers: optional(list()) });

const GROUPS = operations({
  listTesterGroups: { route: 'GET /api/1/testers/groups', shape: record({ groups: optional(list(GROUP)) }) },
  createTesterGroup: { route: 'POST /api/1/testers/groups', shape: record({ id, name: text }) },
  // Adding members who are already in the group changes nothing.
  addTestersToGroup: { route: 'POST /api/1/testers/groups/{groupId}', idempotent: true },
  removeTestersFromGroup: 'DELETE /api/1/testers/groups/{groupId}',
});

export class MobileTesterGroups extends MobileResource {
  /** GET /api/1/testers/groups: every tester group with its testers. */
  list(options?: CallOptions): Promise<MobileTesterGroupList> {
    return this.call(GROUPS.listTesterGroups, {}, options);
  }

  /** POST /api/1/testers/groups: creates a tester group. */
  create(groupName: string, options?: CallOptions): Promise<MobileCreatedGroup> {
    return this.call(GROUPS.createTesterGroup, { body: form({ groupName }) }, options);
  }

  /** POST /api/1/testers/groups/{groupId}: adds testers to a group. */
  addTesters(groupId: Id, emails: readonly string[], options?: CallOptions): Promise<MobileTesterEmailList> {
    return this.call(
      GROUPS.addTestersToGroup,
      { path: { groupId }, body: form({ email: commaList(emails) }) },
      options,
    );
  }

  /** DELETE /api/1/testers/groups/{groupId}: removes testers from a group (a group left empty is discarded). */
  removeTesters(
    groupId: Id,
    emails: readonly string[],
    options?: CallOptions,
  ): Promise<MobileTesterEmailList> {
    const body = form({ email: commaList(emails) });
    return this.call(GROUPS.removeTestersFromGroup, { path: { groupId }, body }, options);
  }
}
