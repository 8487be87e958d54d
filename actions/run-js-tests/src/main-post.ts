/**
 * The post step on the GitHub runner, a bundle of its own (`runs.post`): it knows itself without
 * any saved state, so a state file that could not be written never makes it run the main step.
 */
import { runOnGitHubPost } from '@sauce-actions/action-kit/hosts/github-host';
import { post } from './definition.ts';

await runOnGitHubPost(post);
