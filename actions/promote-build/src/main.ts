/** The step on the GitHub runner. */
import { runOnGitHub } from '@sauce-actions/action-kit/hosts/github-host';
import { action } from './definition.ts';

await runOnGitHub(action);
