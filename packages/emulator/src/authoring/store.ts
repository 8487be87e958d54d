import type { EmulatorContext } from '../context.ts';
import type { AuthoringSeed } from './seed.ts';

/** Plain, JSON-serialisable state of the authoring interface. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AuthoringData {}

export class AuthoringStore {
  readonly ctx: EmulatorContext;
  readonly data: AuthoringData;

  constructor(ctx: EmulatorContext, data: AuthoringData) {
    this.ctx = ctx;
    this.data = data;
  }

  static initialData(_seed: AuthoringSeed, _ctx: EmulatorContext): AuthoringData {
    return {};
  }
}
