/** What every part of the store that changes records holds: the shared state and the audit trails. */
import type { MobileAudits } from './audits.ts';
import type { MobileState } from './state.ts';

export abstract class AuditedPart {
  protected readonly state: MobileState;
  protected readonly audits: MobileAudits;

  constructor(state: MobileState, audits: MobileAudits) {
    this.state = state;
    this.audits = audits;
  }
}
