/**
 * The post step for `@github/local-action`, run after the main step in the same process, with the
 * state it saved; the workspace is the repository's root unless the `.env` file names one.
 */
import path from 'node:path';
import { runPostStep } from '@sauce-actions/action-kit/hosts/github-host';
import { post } from './definition.ts';

export async function run(): Promise<void> {
  await runPostStep(post, { root: path.resolve(import.meta.dirname, '../../..') });
}
