/**
 * Partner operations: plan subscriptions of sub-accounts. Sub-accounts are created with
 * `users.createSubAccount`, which takes the partner's `plan`.
 */
import { callSpec, type CallOptions } from '../core/call.ts';
import { segment } from '../core/transport.ts';
import { REST, type AutomationContext } from './context.ts';
import type { PartnerSubscription } from './types.ts';

export class AutomationPartners {
  readonly #ctx: AutomationContext;

  constructor(ctx: AutomationContext) {
    this.#ctx = ctx;
  }

  /** POST /rest/v1/users/{subaccount}/subscription: subscribes a sub-account to a plan (`subscribe`). */
  async subscribe(subaccount: string, plan: string, options?: CallOptions): Promise<PartnerSubscription> {
    const { body } = await this.#ctx.http.send<PartnerSubscription>({
      operation: 'subscribe',
      method: 'POST',
      path: this.#subscriptionPath(subaccount),
      body: { kind: 'json', value: { plan } },
      ...callSpec(options),
    });
    return body;
  }

  /** DELETE /rest/v1/users/{subaccount}/subscription: unsubscribes a sub-account from its plan (`unsubscribe`). */
  async unsubscribe(subaccount: string, options?: CallOptions): Promise<PartnerSubscription | undefined> {
    const { body } = await this.#ctx.http.send<PartnerSubscription | undefined>({
      operation: 'unsubscribe',
      method: 'DELETE',
      path: this.#subscriptionPath(subaccount),
      ...callSpec(options),
    });
    return body;
  }

  #subscriptionPath(subaccount: string): string {
    return `${REST}/users/${segment(subaccount)}/subscription`;
  }
}
