/** The main step for `@github/local-action` (`npm run local-action`), which calls the `run()` an entry exports. */
import { runMainStep } from '@sauce-actions/action-kit/hosts/github-host';
import { action } from './definition.ts';

export async function run(): Promise<void> {
  await runMainStep(action);
}
