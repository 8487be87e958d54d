/** The action as every host runs it: its inputs and its work (GitHub's runner, the command line). */
import type { ActionDefinition } from '@sauce-actions/action-kit';
import { readInputs } from './inputs.ts';
import { run } from './run.ts';

export const action = { title: 'Promote build', readInputs, run } satisfies ActionDefinition;
