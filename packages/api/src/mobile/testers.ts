/** Testers: the people builds are distributed to. */
import type { CallOptions } from '../core/call.ts';
import { segment, type HttpTransport } from '../core/transport.ts';
import { callMobile, commaList } from './request.ts';
import type { MobileStatusResult, MobileTesterList, MobileTesterResult, MobileTestersAdd } from './types.ts';

type Id = string | number;

export class MobileTesters {
  readonly #http: HttpTransport;

  constructor(http: HttpTransport) {
    this.#http = http;
  }

  /** GET /api/1/testers: every tester; with `buildId`, each also says whether it is invited to that build. */
  list(filter?: { buildId?: Id }, options?: CallOptions): Promise<MobileTesterList> {
    return callMobile(
      this.#http,
      {
        operation: 'listTesters',
        method: 'GET',
        path: '/api/1/testers',
        query: { buildId: filter?.buildId },
      },
      options,
    );
  }

  /** POST /api/1/testers/: adds testers, optionally into a group (created when absent). */
  add(testers: MobileTestersAdd, options?: CallOptions): Promise<MobileStatusResult> {
    return callMobile(
      this.#http,
      {
        operation: 'addTesters',
        method: 'POST',
        path: '/api/1/testers/',
        body: {
          kind: 'form',
          fields: {
            email: commaList(testers.emails),
            group: testers.group,
            notify: testers.notify ? 'on' : undefined,
          },
        },
      },
      options,
    );
  }

  /** GET /api/1/testers/{testerId}: one tester. */
  get(testerId: Id, options?: CallOptions): Promise<MobileTesterResult> {
    return callMobile(
      this.#http,
      { operation: 'getTester', method: 'GET', path: `/api/1/testers/${segment(testerId)}` },
      options,
    );
  }

  /** POST /api/1/testers/{testerId}/block/: blocks a tester from downloading invited apps. */
  block(testerId: Id, options?: CallOptions): Promise<MobileStatusResult> {
    return callMobile(
      this.#http,
      {
        operation: 'blockTester',
        method: 'POST',
        path: `/api/1/testers/${segment(testerId)}/block/`,
        // Blocking a blocked tester changes nothing.
        idempotent: true,
      },
      options,
    );
  }

  /** DELETE /api/1/testers/{testerId}/block/: unblocks a tester, restoring its invitations. */
  unblock(testerId: Id, options?: CallOptions): Promise<MobileStatusResult> {
    return callMobile(
      this.#http,
      { operation: 'unblockTester', method: 'DELETE', path: `/api/1/testers/${segment(testerId)}/block/` },
      options,
    );
  }

  /** DELETE /api/1/testers/{testerId}: deletes a tester from every group and invalidates its invitations. */
  delete(testerId: Id, options?: CallOptions): Promise<MobileStatusResult> {
    return callMobile(
      this.#http,
      { operation: 'deleteTester', method: 'DELETE', path: `/api/1/testers/${segment(testerId)}` },
      options,
    );
  }
}
