/** The audit trails: v2 entries of who changed what, and the v1 events of uploads and downloads. */
import type { AuditKind } from '../audit-types.ts';
import type { Build, MobileAccount } from '../model.ts';
import type { MobileState } from './state.ts';

/** Who did something, for the audit trail. */
export interface Actor {
  account: MobileAccount;
  ipAddress: string;
}

export class MobileAudits {
  readonly #state: MobileState;

  constructor(state: MobileState) {
    this.#state = state;
  }

  /** Adds an entry to the trail its kind belongs to (tester or admin). */
  record(actor: Actor, kind: AuditKind, actionData: Record<string, unknown>): void {
    const { data } = this.#state;
    data.audits.push({
      id: this.#state.nextId('audit'),
      time: this.#state.now(),
      trail: kind.trail,
      siteName: data.siteName,
      enterpriseId: data.enterpriseId,
      userId: actor.account.id,
      userEmail: actor.account.email,
      ipAddress: actor.ipAddress,
      actionType: kind.type,
      actionData,
    });
  }

  /** Adds a v1 event about a build, such as `upload_app` or `download_app`. */
  recordEvent(actor: Actor, eventType: string, build: Build): void {
    const { events } = this.#state.data;
    events.push({
      id: events.length + 1,
      time: this.#state.now(),
      ipAddress: actor.ipAddress,
      eventType,
      eventData: {
        projectId: build.projectId,
        buildId: build.id,
        appName: build.appName,
        appVersion: build.appVersion,
        testerEmail: actor.account.email,
        filesize: build.fileSize,
      },
    });
  }
}
