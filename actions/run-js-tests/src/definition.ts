/** The action as every host runs it: its inputs, its work and its post step (GitHub's runner, the command line). */
import type { ActionDefinition } from '@sauce-actions/action-kit';
import { readInputs } from './inputs.ts';
import { run } from './run.ts';

export { post } from './post.ts';

export const action = { title: 'Run JS tests', readInputs, run } satisfies ActionDefinition;
