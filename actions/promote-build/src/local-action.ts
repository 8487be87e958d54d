/**
 * The main step for `@github/local-action` (`npm run local-action`), which calls the `run()` an
 * entry exports; the workspace is the repository's root unless the `.env` file names one.
 */
import path from 'node:path';
import { runMainStep } from '@sauce-actions/action-kit/hosts/github-host';
import { action } from './definition.ts';

export async function run(): Promise<void> {
  await runMainStep(action, { root: path.resolve(import.meta.dirname, '../../..') });
}
