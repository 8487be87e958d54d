/** Webhooks called on crashes, feedbacks, uploads and new device ids. */
import type { CallOptions } from '../core/call.ts';
import { segment, type HttpTransport } from '../core/transport.ts';
import { callMobile, commaList } from './request.ts';
import type {
  MobileStatusResult,
  MobileWebhookInput,
  MobileWebhookList,
  MobileWebhookResult,
} from './types.ts';

type Id = string | number;

export class MobileWebhooks {
  readonly #http: HttpTransport;

  constructor(http: HttpTransport) {
    this.#http = http;
  }

  /** GET /api/1/webhooks/: every webhook. */
  list(options?: CallOptions): Promise<MobileWebhookList> {
    return callMobile(
      this.#http,
      { operation: 'listWebhooks', method: 'GET', path: '/api/1/webhooks/' },
      options,
    );
  }

  /** POST /api/1/webhook/: creates a webhook. */
  create(webhook: MobileWebhookInput, options?: CallOptions): Promise<MobileStatusResult> {
    return callMobile(
      this.#http,
      {
        operation: 'createWebhook',
        method: 'POST',
        path: '/api/1/webhook/',
        body: { kind: 'form', fields: webhookFields(webhook) },
      },
      options,
    );
  }

  /** GET /api/1/webhook/{webhookId}/: one webhook. */
  get(webhookId: Id, options?: CallOptions): Promise<MobileWebhookResult> {
    return callMobile(
      this.#http,
      { operation: 'getWebhook', method: 'GET', path: `/api/1/webhook/${segment(webhookId)}/` },
      options,
    );
  }

  /** POST /api/1/webhook/{webhookId}/: replaces a webhook's settings (name and url required). */
  update(webhookId: Id, webhook: MobileWebhookInput, options?: CallOptions): Promise<MobileStatusResult> {
    return callMobile(
      this.#http,
      {
        operation: 'updateWebhook',
        method: 'POST',
        path: `/api/1/webhook/${segment(webhookId)}/`,
        body: { kind: 'form', fields: webhookFields(webhook) },
        // Writing the same settings twice leaves the same webhook.
        idempotent: true,
      },
      options,
    );
  }

  /** DELETE /api/1/webhook/{webhookId}/: deletes a webhook. */
  delete(webhookId: Id, options?: CallOptions): Promise<MobileStatusResult> {
    return callMobile(
      this.#http,
      { operation: 'deleteWebhook', method: 'DELETE', path: `/api/1/webhook/${segment(webhookId)}/` },
      options,
    );
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
