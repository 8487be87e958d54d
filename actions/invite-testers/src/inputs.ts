/** The inputs of invite-testers, read and checked before anything is sent. */
import {
  InputError,
  optionalProperty,
  readMobileConnection,
  type InputReader,
  type MobileConnection,
} from '@sauce-actions/action-kit';

/** The value of `build-id` that picks the newest build carrying `tags`. */
export const LATEST_BUILD = 'latest';

export interface InviteInputs {
  connection: MobileConnection;
  projectId: string;
  /** A build's id, or `latest`: the newest build of the project carrying every tag of `tags`. */
  buildId: string;
  /** With `build-id: latest`: the tags the build must carry. */
  tags: string[];
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
    ...readBuild(read),
    groups,
    testers,
    ...optionalProperty('testerGroup', testerGroup),
    createGroups: read.boolean('create-groups', false),
    ...optionalProperty('comment', read.string('comment')),
    notify: read.boolean('notify', false),
  };
}

/** `build-id` (a build's id, or `latest`) and `tags`, which only `latest` reads. */
function readBuild(read: InputReader): Pick<InviteInputs, 'buildId' | 'tags'> {
  const tags = read.list('tags');
  if (read.string('build-id') === LATEST_BUILD) return { buildId: LATEST_BUILD, tags };
  const buildId = read.id('build-id', 'positive-integer', {
    required: true,
    hint: 'the `build-id` output of upload-build, or `latest` with `tags` for the newest build carrying them',
  });
  if (tags.length > 0) {
    throw new InputError(
      'tags',
      `is set, but \`build-id\` names build ${buildId}`,
      '`tags` together with `build-id: latest`, which picks the newest build of the project carrying every one of them',
    );
  }
  return { buildId, tags };
}
