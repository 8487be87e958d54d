import type { EmulatorContext } from '../context.ts';
import type { AutomationSeed } from './seed.ts';

/** Plain, JSON-serialisable state of the automation interface. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AutomationData {}

export class AutomationStore {
  readonly ctx: EmulatorContext;
  readonly data: AutomationData;

  constructor(ctx: EmulatorContext, data: AutomationData) {
    this.ctx = ctx;
    this.data = data;
  }

  static initialData(_seed: AutomationSeed, _ctx: EmulatorContext): AutomationData {
    return {};
  }
}
