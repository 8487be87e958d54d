/** Testers: the people builds are distributed to. */
import type { CallOptions } from '../core/values/call.ts';
import { form, operations } from '../core/resources/resource.ts';
import { commaList, type Id, MobileResource } from './request.ts';
import type { MobileStatusResult, MobileTesterList, MobileTesterResult, MobileTestersAdd } from './types.ts';

const TESTERS = operations({
  listTesters: 'GET /api/1/testers',
  addTesters: 'POST /api/1/testers/',
  getTester: 'GET /api/1/testers/{testerId}',
  // Blocking a blocked tester changes nothing.
  blockTester: { route: 'POST /api/1/testers/{testerId}/block/', idempotent: true },
  unblockTester: 'DELETE /api/1/testers/{testerId}/block/',
  deleteTester: 'DELETE /api/1/testers/{testerId}',
});

export class MobileTesters extends MobileResource {
  /** GET /api/1/testers: every tester; with `buildId`, each also says whether it is invited to that build. */
  list(filter?: { buildId?: Id }, options?: CallOptions): Promise<MobileTesterList> {
    return this.call(TESTERS.listTesters, { query: { buildId: filter?.buildId } }, options);
  }

  /** POST /api/1/testers/: adds testers, optionally into a group (created when absent). */
  add(testers: MobileTestersAdd, options?: CallOptions): Promise<MobileStatusResult> {
    const { emails, group, notify } = testers;
    const fields = { email: commaList(emails), group, notify: notify ? 'on' : undefined };
    return this.call(TESTERS.addTesters, { body: form(fields) }, options);
  }

  /** GET /api/1/testers/{testerId}: one tester. */
  get(testerId: Id, options?: CallOptions): Promise<MobileTesterResult> {
    return this.call(TESTERS.getTester, { path: { testerId } }, options);
  }

  /** POST /api/1/testers/{testerId}/block/: blocks a tester from downloading invited apps. */
  block(testerId: Id, options?: CallOptions): Promise<MobileStatusResult> {
    return this.call(TESTERS.blockTester, { path: { testerId } }, options);
  }

  /** DELETE /api/1/testers/{testerId}/block/: unblocks a tester, restoring its invitations. */
  unblock(testerId: Id, options?: CallOptions): Promise<MobileStatusResult> {
    return this.call(TESTERS.unblockTester, { path: { testerId } }, options);
  }

  /** DELETE /api/1/testers/{testerId}: deletes a tester from every group and invalidates its invitations. */
  delete(testerId: Id, options?: CallOptions): Promise<MobileStatusResult> {
    return this.call(TESTERS.deleteTester, { path: { testerId } }, options);
  }
}
