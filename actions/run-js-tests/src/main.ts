/** The main step on the GitHub runner; `main-post.ts` is the post step's bundle. */
import { runOnGitHub } from '@sauce-actions/action-kit/hosts/github-host';
import { action } from './definition.ts';

await runOnGitHub(action);
