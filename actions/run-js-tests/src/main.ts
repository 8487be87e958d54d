/** Both steps on the GitHub runner: the host runs the post step when the runner hands the bundle back. */
import { runOnGitHub } from '@sauce-actions/action-kit/hosts/github-host';
import { action, post } from './definition.ts';

await runOnGitHub(action, post);
