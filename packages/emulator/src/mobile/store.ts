import type { EmulatorContext } from '../context.ts';
import type { MobileSeed } from './seed.ts';

/** Plain, JSON-serialisable state of the mobile interface. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface MobileData {}

export class MobileStore {
  readonly ctx: EmulatorContext;
  readonly data: MobileData;

  constructor(ctx: EmulatorContext, data: MobileData) {
    this.ctx = ctx;
    this.data = data;
  }

  static initialData(_seed: MobileSeed, _ctx: EmulatorContext): MobileData {
    return {};
  }
}
