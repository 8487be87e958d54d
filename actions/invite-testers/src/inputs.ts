/** The inputs of invite-testers, read and checked before anything is sent. */
import {
  InputError,
  optionalProperty,
  readMobileConnection,
  type InputReader,
  type MobileConnection,
} from '@sauce-actions/action-kit';
import { readBuildChoice, type BuildChoice } from '@sauce-actions/action-kit/inputs/build-choice';

export interface InviteInputs extends BuildChoice {
  connection: MobileConnection;
  projectId: string;
  groups: string[];
  /** Emails, checked and without duplicates. */
  testers: string[];
  testerGroup?: string;
  createGroups: boolean;
  comment?: string;
  notify: boolean;
}

export function readInputs(read: InputReader): InviteInputs {
  const connection = readMobileConnection(read, { needsEmail: true });
  const groups = read.list('groups');
  const testers = read.emails('testers');
  const testerGroup = read.string('tester-group');
  if (testers.length > 0 && testerGroup === undefined) {
    throw new InputError(
      'tester-group',
      'is required with `testers` but was empty',
      'the name of the group the testers join (created when absent)',
    );
  }
  if (groups.length === 0 && testers.length === 0) {
    throw new InputError(
      'groups',
      'and `testers` are both empty, so there is no one to invite',
      'group names or ids in `groups`, or emails in `testers` with `tester-group`',
    );
  }
  return {
    connection,
    projectId: read.id('project-id', 'positive-integer', {
      required: true,
      hint: 'the `project-id` output of upload-build',
    }),
    ...readBuildChoice(read),
    groups,
    testers,
    ...optionalProperty('testerGroup', testerGroup),
    createGroups: read.boolean('create-groups', false),
    ...optionalProperty('comment', read.string('comment')),
    notify: read.boolean('notify', false),
  };
}
