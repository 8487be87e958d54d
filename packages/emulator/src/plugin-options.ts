/**
 * Options the server hands every route plugin. They live apart from the server so that the
 * plugins it registers do not import it back.
 */
import type { EmulatorContext } from './context.ts';

export interface ServicePluginOptions {
  ctx: EmulatorContext;
  prefix?: string;
}
