/** Webhooks called on crashes, feedbacks, uploads and new device ids. */
import type { CallOptions } from '../core/values/call.ts';
import { form, operations } from '../core/resources/resource.ts';
import { commaList, type Id, MobileResource } from './request.ts';
import type {
  MobileStatusResult,
  MobileWebhookInput,
  MobileWebhookList,
  MobileWebhookResult,
} from './types.ts';

const WEBHOOKS = operations({
  listWebhooks: 'GET /api/1/webhooks/',
  createWebhook: 'POST /api/1/webhook/',
  getWebhook: 'GET /api/1/webhook/{webhookId}/',
  // Writing the same settings twice leaves the same webhook.
  updateWebhook: { route: 'POST /api/1/webhook/{webhookId}/', idempotent: true },
  deleteWebhook: 'DELETE /api/1/webhook/{webhookId}/',
});

export class MobileWebhooks extends MobileResource {
  /** GET /api/1/webhooks/: every webhook. */
  list(options?: CallOptions): Promise<MobileWebhookList> {
    return this.call(WEBHOOKS.listWebhooks, {}, options);
  }

  /** POST /api/1/webhook/: creates a webhook. */
  create(webhook: MobileWebhookInput, options?: CallOptions): Promise<MobileStatusResult> {
    return this.call(WEBHOOKS.createWebhook, { body: form(webhookFields(webhook)) }, options);
  }

  /** GET /api/1/webhook/{webhookId}/: one webhook. */
  get(webhookId: Id, options?: CallOptions): Promise<MobileWebhookResult> {
    return this.call(WEBHOOKS.getWebhook, { path: { webhookId } }, options);
  }

  /** POST /api/1/webhook/{webhookId}/: replaces a webhook's settings (name and url required). */
  update(webhookId: Id, webhook: MobileWebhookInput, options?: CallOptions): Promise<MobileStatusResult> {
    return this.call(
      WEBHOOKS.updateWebhook,
      { path: { webhookId }, body: form(webhookFields(webhook)) },
      options,
    );
  }

  /** DELETE /api/1/webhook/{webhookId}/: deletes a webhook. */
  delete(webhookId: Id, options?: CallOptions): Promise<MobileStatusResult> {
    return this.call(WEBHOOKS.deleteWebhook, { path: { webhookId } }, options);
  }
}

function webhookFields(webhook: MobileWebhookInput): Record<string, string | undefined> {
  return {
    'webhook-name': webhook.name,
    'webhook-url': webhook.url,
    'webhook-status': webhook.enabled === undefined ? undefined : String(webhook.enabled),
    actions: commaList(webhook.actions),
    'webhook-project-ids': commaList(webhook.projectIds),
  };
}
