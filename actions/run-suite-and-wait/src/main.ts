/** The step on the GitHub runner. */
import { runOnGitHub } from '@sauce-actions/action-kit/github-host';
import { readInputs } from './inputs.ts';
import { run } from './run.ts';

await runOnGitHub({ title: 'Run suite and wait', readInputs, run });
