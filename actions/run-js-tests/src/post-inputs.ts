/**
 * The post step's inputs: only the connection matters (the saved state says what to stop), read
 * by the main step's own reader, so that both steps read the same inputs the same way; the main
 * step saved state only after it read them without error.
 */
import type { InputReader, SauceConnection } from '@sauce-actions/action-kit';
import { readInputs } from './inputs.ts';

export interface PostInputs {
  connection: SauceConnection;
}

export async function readPostInputs(read: InputReader): Promise<PostInputs> {
  return { connection: (await readInputs(read)).connection };
}
