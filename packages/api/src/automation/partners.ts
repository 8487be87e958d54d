/**
 * Partner operations: plan subscriptions of sub-accounts. Sub-accounts are created with
 * `users.createSubAccount`, which takes the partner's `plan`.
 */
import type { CallOptions } from '../core/values/call.ts';
import { json, operations } from '../core/resources/resource.ts';
import { AutomationResource } from './context.ts';
import type { PartnerSubscription } from './types.ts';

const SUBSCRIPTION = '/users/{subaccount}/subscription';

const PARTNERS = operations({
  subscribe: `POST ${SUBSCRIPTION}`,
  unsubscribe: `DELETE ${SUBSCRIPTION}`,
});

export class AutomationPartners extends AutomationResource {
  /** POST /rest/v1/users/{subaccount}/subscription: subscribes a sub-account to a plan (`subscribe`). */
  async subscribe(subaccount: string, plan: string, options?: CallOptions): Promise<PartnerSubscription> {
    return this.call(PARTNERS.subscribe, { path: { subaccount }, body: json({ plan }) }, options);
  }

  /** DELETE /rest/v1/users/{subaccount}/subscription: unsubscribes a sub-account from its plan (`unsubscribe`). */
  async unsubscribe(subaccount: string, options?: CallOptions): Promise<PartnerSubscription | undefined> {
    return this.call(PARTNERS.unsubscribe, { path: { subaccount } }, options);
  }
}
