/** The bug types the emulator knows; public through `/bugs/types`. */
import type { BugTypeRecord } from '../model.ts';

export function defaultBugTypes(): BugTypeRecord[] {
  const common = [
    { name: 'Title', type: 'string', required: true, editable: true },
    { name: 'Description', type: 'text', required: true, editable: true },
    { name: 'Job', type: 'job_id', required: false, editable: false },
    { name: 'Screenshot', type: 'url', required: false, editable: false },
  ];
  return [
    {
      id: 'functional',
      name: 'Functional',
      description: 'The page does not behave as expected.',
      fields: common,
    },
    { id: 'visual', name: 'Visual', description: 'The page does not look as expected.', fields: common },
  ];
}
