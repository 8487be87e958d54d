/** Tester groups: membership of testers in the groups that builds are granted to. */
import type { CallOptions } from '../core/call.ts';
import { id, list, optional, record, text } from '../core/shape.ts';
import { segment, type HttpTransport } from '../core/transport.ts';
import { callMobile, commaList } from './request.ts';
import type { MobileCreatedGroup, MobileTesterEmailList, MobileTesterGroupList } from './types.ts';

type Id = string | number;

/** What callers read of a tester group: its id and name, and its testers when listed. */
const GROUP = record({ id, name: text, testers: optional(list()) });

export class MobileTesterGroups {
  readonly #http: HttpTransport;

  constructor(http: HttpTransport) {
    this.#http = http;
  }

  /** GET /api/1/testers/groups: every tester group with its testers. */
  list(options?: CallOptions): Promise<MobileTesterGroupList> {
    return callMobile(
      this.#http,
      { operation: 'listTesterGroups', method: 'GET', path: '/api/1/testers/groups' },
      options,
      record({ groups: optional(list(GROUP)) }),
    );
  }

  /** POST /api/1/testers/groups: creates a tester group. */
  create(groupName: string, options?: CallOptions): Promise<MobileCreatedGroup> {
    return callMobile(
      this.#http,
      {
        operation: 'createTesterGroup',
        method: 'POST',
        path: '/api/1/testers/groups',
        body: { kind: 'form', fields: { groupName } },
      },
      options,
      record({ id, name: text }),
    );
  }

  /** POST /api/1/testers/groups/{groupId}: adds testers to a group. */
  addTesters(groupId: Id, emails: readonly string[], options?: CallOptions): Promise<MobileTesterEmailList> {
    return callMobile(
      this.#http,
      {
        operation: 'addTestersToGroup',
        method: 'POST',
        path: `/api/1/testers/groups/${segment(groupId)}`,
        body: { kind: 'form', fields: { email: commaList(emails) } },
        // Adding members who are already in the group changes nothing.
        idempotent: true,
      },
      options,
    );
  }

  /** DELETE /api/1/testers/groups/{groupId}: removes testers from a group (a group left empty is discarded). */
  removeTesters(
    groupId: Id,
    emails: readonly string[],
    options?: CallOptions,
  ): Promise<MobileTesterEmailList> {
    return callMobile(
      this.#http,
      {
        operation: 'removeTestersFromGroup',
        method: 'DELETE',
        path: `/api/1/testers/groups/${segment(groupId)}`,
        body: { kind: 'form', fields: { email: commaList(emails) } },
      },
      options,
    );
  }
}
