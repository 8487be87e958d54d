/** Puts testers into their group, makes sure the groups exist, then invites the groups to the build. */
import { ActionError, InputError } from '@sauce-actions/action-kit';
import { ApiError, type MobileClient, type MobileTesterGroup } from '@sauce-actions/api';
import { checkEmails } from './emails.ts';

export interface InviteInputs {
  projectId: string;
  buildId: string;
  groups: string[];
  testers: string[];
  testerGroup?: string;
  createGroups: boolean;
  comment?: string;
  notify: boolean;
}

export interface InviteDeps {
  client: Pick<MobileClient, 'builds' | 'testers' | 'testerGroups'>;
  log: (line: string) => void;
  signal?: AbortSignal;
}

export type InviteOutputs = {
  'invited-groups': string[];
  'added-testers': string[];
  'refused-testers': string[];
  'created-groups': string[];
};

export interface InviteReport {
  outputs: InviteOutputs;
  projectId: string;
  buildId: string;
  testerGroup: string | undefined;
}

export async function run(inputs: InviteInputs, deps: InviteDeps): Promise<InviteReport> {
  const testers = checkEmails(inputs.testers);
  if (testers.length > 0 && inputs.testerGroup === undefined) {
    throw new InputError(
      'tester-group',
      'is required with `testers` but was empty',
      'the name of the group the testers join (created when absent)',
    );
  }
  if (inputs.groups.length === 0 && testers.length === 0) {
    throw new InputError(
      'groups',
      'and `testers` are both empty, so there is no one to invite',
      'group names or ids in `groups`, or emails in `testers` with `tester-group`',
    );
  }
  const call = deps.signal ? { signal: deps.signal } : undefined;

  const existing = (await deps.client.testerGroups.list(call)).groups ?? [];
  const invited: string[] = [];
  const unknown: string[] = [];
  for (const wanted of inputs.groups) {
    const group = findGroup(existing, wanted);
    if (group) invited.push(group.name);
    else unknown.push(wanted);
  }
  const created: string[] = [];
  if (unknown.length > 0 && !inputs.createGroups) {
    const known = existing.map((g) => g.name).join(', ') || 'none';
    throw new ActionError(
      `Unknown tester group${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')} (the account has: ${known}). Fix \`groups\`, or set \`create-groups: true\` to create them.`,
    );
  }
  for (const name of unknown) {
    const group = await deps.client.testerGroups.create(name, call);
    deps.log(`Created tester group ${group.name}`);
    created.push(group.name);
    invited.push(group.name);
  }

  let added: string[] = [];
  let refused: string[] = [];
  if (testers.length > 0 && inputs.testerGroup !== undefined) {
    await deps.client.testers.add({ emails: testers, group: inputs.testerGroup }, call);
    // The answer holds only a status: the group's members say who made it in.
    const after = (await deps.client.testerGroups.list(call)).groups ?? [];
    const group = findGroup(after, inputs.testerGroup);
    const members = new Set(membersOf(group).map((email) => email.toLowerCase()));
    added = testers.filter((email) => members.has(email.toLowerCase()));
    refused = testers.filter((email) => !members.has(email.toLowerCase()));
    deps.log(
      `Tester group ${inputs.testerGroup}: ${added.length} added${refused.length ? `, ${refused.length} refused (${refused.join(', ')})` : ''}`,
    );
    if (group && !invited.includes(group.name)) invited.push(group.name);
  }

  if (invited.length === 0) {
    throw new ActionError(
      `None of the testers could be added to ${inputs.testerGroup}, so no group was invited. Check the emails: ${refused.join(', ')}.`,
    );
  }
  try {
    await deps.client.builds.invite(
      inputs.projectId,
      inputs.buildId,
      {
        groups: invited,
        ...(inputs.comment !== undefined ? { comment: inputs.comment } : {}),
        notify: inputs.notify,
      },
      call,
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw new ActionError(
        `Build ${inputs.buildId} of project ${inputs.projectId} was not found: check \`project-id\` and \`build-id\` (upload-build's outputs of the same names), and that they belong to the account of the key.`,
        'user',
        { cause: error },
      );
    }
    throw error;
  }
  deps.log(
    `Invited ${invited.join(', ')} to build ${inputs.buildId} of project ${inputs.projectId}${inputs.notify ? ', with emails' : ''}`,
  );
  return {
    outputs: {
      'invited-groups': invited,
      'added-testers': added,
      'refused-testers': refused,
      'created-groups': created,
    },
    projectId: inputs.projectId,
    buildId: inputs.buildId,
    testerGroup: inputs.testerGroup,
  };
}

/** A group named exactly so, or whose id is the given text. */
function findGroup(groups: readonly MobileTesterGroup[], nameOrId: string): MobileTesterGroup | undefined {
  return groups.find((g) => g.name === nameOrId) ?? groups.find((g) => String(g.id) === nameOrId);
}

/** `testers` is documented as an array holding arrays of `{ email }`; flat lists are read too. */
function membersOf(group: MobileTesterGroup | undefined): string[] {
  if (!group || !Array.isArray(group.testers)) return [];
  return (group.testers as unknown[]).flat().flatMap((entry) => {
    const email = (entry as { email?: unknown } | null)?.email;
    return typeof email === 'string' ? [email] : [];
  });
}
