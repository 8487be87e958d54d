/** Both steps on the GitHub runner: the host runs the post step when the runner hands the bundle back. */
import { runOnGitHub } from '@sauce-actions/action-kit/github-host';
import { readInputs } from './inputs.ts';
import { post } from './post.ts';
import { run } from './run.ts';

await runOnGitHub({ title: 'Run JS tests', readInputs, run }, post);
