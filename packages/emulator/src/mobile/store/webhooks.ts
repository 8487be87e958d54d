/** Webhooks of the account: created, changed and deleted on the admin trail. */
import { AUDIT } from '../audit-types.ts';
import { notFound } from '../errors.ts';
import type { Webhook } from '../model.ts';
import type { Actor } from './audits.ts';
import { AuditedPart } from './audited-part.ts';

export const WEBHOOK_ACTIONS = ['crash', 'feedback', 'upload', 'new-udid'] as const;

export type WebhookInput = Omit<Webhook, 'id'>;

export class MobileWebhooks extends AuditedPart {
  get(id: number): Webhook {
    const webhook = this.state.data.webhooks.find((candidate) => candidate.id === id);
    if (!webhook) throw notFound(`webhook ${id}`);
    return webhook;
  }

  create(actor: Actor, input: WebhookInput): Webhook {
    const webhook: Webhook = { id: this.state.nextId('webhook'), ...input };
    this.state.data.webhooks.push(webhook);
    this.audits.record(actor, AUDIT.webhookCreated, { webhookId: webhook.id, to: { ...input } });
    this.state.changed();
    return webhook;
  }

  update(actor: Actor, webhook: Webhook, input: WebhookInput): Webhook {
    const { id: _id, ...before } = webhook;
    Object.assign(webhook, input);
    this.audits.record(actor, AUDIT.webhookUpdated, {
      webhookId: webhook.id,
      from: before,
      to: { ...input },
    });
    this.state.changed();
    return webhook;
  }

  delete(actor: Actor, webhook: Webhook): void {
    const { data } = this.state;
    data.webhooks = data.webhooks.filter((candidate) => candidate.id !== webhook.id);
    this.audits.record(actor, AUDIT.webhookDeleted, { webhookId: webhook.id, name: webhook.name });
    this.state.changed();
  }
}
