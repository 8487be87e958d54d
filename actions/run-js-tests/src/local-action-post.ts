/** The post step for `@github/local-action`, run after the main step in the same process, with the state it saved. */
import { runPostStep } from '@sauce-actions/action-kit/hosts/github-host';
import { post } from './definition.ts';

export async function run(): Promise<void> {
  await runPostStep(post);
}
