/** Puts testers into their group, makes sure the groups exist, then invites the groups to the build. */
import { ActionError, describeFailure, type ActionResult, type StepDeps } from '@sauce-actions/action-kit';
import { chosenBuild } from '@sauce-actions/action-kit/services/latest-build';
import {
  checkTesterGroups,
  findTesterGroup,
  unknownGroupsMessage,
} from '@sauce-actions/action-kit/services/tester-groups';
import { ApiError, type MobileClient, type MobileTesterGroup } from '@sauce-actions/api';
import type { InviteInputs } from './inputs.ts';
import { inviteSummary, type InviteOutputs, type InviteReport } from './report.ts';

export interface InviteDeps extends Pick<StepDeps, 'logger' | 'signal'> {
  client: { mobile: Pick<MobileClient, 'builds' | 'testers' | 'testerGroups'> };
}

export async function run(inputs: InviteInputs, deps: InviteDeps): Promise<ActionResult<InviteOutputs>> {
  const report: InviteReport = {
    outputs: {
      'build-id': '',
      'invited-groups': [],
      'added-testers': [],
      'refused-testers': [],
      'created-groups': [],
    },
    projectId: inputs.projectId,
    buildId: inputs.buildId,
    testerGroup: inputs.testerGroup,
    invited: false,
  };
  try {
    // `build-id: latest` is resolved first: no tester joins a group for a build that is not there.
    const buildId = await chosenBuild(inputs, deps, 'no one was invited');
    report.buildId = buildId;
    report.outputs['build-id'] = buildId;
    await invite({ ...inputs, buildId }, deps, report);
    return { outputs: report.outputs, summary: inviteSummary(report), annotations: [] };
  } catch (error) {
    // Groups created and testers added stay so: the outputs and the summary say which.
    const changed = report.outputs['created-groups'].length + report.outputs['added-testers'].length > 0;
    return {
      // No group was invited: the invitation is the last request.
      outputs: { ...report.outputs, 'invited-groups': [] },
      summary: changed ? inviteSummary(report) : '',
      annotations: [],
      failure: describeFailure(error, deps.signal),
    };
  }
}

async function invite(inputs: InviteInputs, deps: InviteDeps, report: InviteReport): Promise<void> {
  const { testerGroups, testers, builds } = deps.client.mobile;
  const { outputs } = report;
  const call = { signal: deps.signal };

  const check = await checkTesterGroups(testerGroups, inputs.groups, call);
  outputs['invited-groups'].push(...check.found.map((group) => group.name));
  if (check.unknown.length > 0 && !inputs.createGroups) {
    throw new ActionError(
      'refused',
      unknownGroupsMessage(check, 'Fix `groups`, or set `create-groups: true` to create them.'),
    );
  }
  for (const name of check.unknown) {
    const group = await testerGroups.create(name, call);
    deps.logger.info(`Created tester group ${group.name}`);
    outputs['created-groups'].push(group.name);
    outputs['invited-groups'].push(group.name);
  }

  if (inputs.testers.length > 0 && inputs.testerGroup !== undefined) {
    await testers.add({ emails: inputs.testers, group: inputs.testerGroup }, call);
    // The answer holds only a status: the group's members say who made it in.
    const after = (await testerGroups.list(call)).groups ?? [];
    const group = findTesterGroup(after, inputs.testerGroup);
    // The service creates a tester group that is absent when testers are added to it: this step
    // created it as much as one of `groups` (unless it was one of those, created above).
    const created =
      group !== undefined &&
      findTesterGroup(check.existing, inputs.testerGroup) === undefined &&
      !outputs['created-groups'].includes(group.name);
    if (created) outputs['created-groups'].push(group.name);
    const members = new Set(membersOf(group).map((email) => email.toLowerCase()));
    outputs['added-testers'] = inputs.testers.filter((email) => members.has(email.toLowerCase()));
    outputs['refused-testers'] = inputs.testers.filter((email) => !members.has(email.toLowerCase()));
    const refused = outputs['refused-testers'];
    deps.logger.info(
      `Tester group ${inputs.testerGroup}${created ? ' (created)' : ''}: ${outputs['added-testers'].length} added${refused.length ? `, ${refused.length} refused (${refused.join(', ')})` : ''}`,
    );
    if (group && !outputs['invited-groups'].includes(group.name)) outputs['invited-groups'].push(group.name);
  }

  if (outputs['invited-groups'].length === 0) {
    throw new ActionError(
      'refused',
      `None of the testers could be added to ${inputs.testerGroup}, so no group was invited. Check the emails: ${outputs['refused-testers'].join(', ')}.`,
    );
  }
  try {
    await builds.invite(
      inputs.projectId,
      inputs.buildId,
      {
        groups: outputs['invited-groups'],
        ...(inputs.comment !== undefined ? { comment: inputs.comment } : {}),
        notify: inputs.notify,
      },
      call,
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw new ActionError(
        'refused',
        `Build ${inputs.buildId} of project ${inputs.projectId} was not found: check \`project-id\` and \`build-id\` (upload-build's outputs of the same names), and that they belong to the account of the key.`,
        { cause: error },
      );
    }
    throw error;
  }
  report.invited = true;
  deps.logger.info(
    `Invited ${outputs['invited-groups'].join(', ')} to build ${inputs.buildId} of project ${inputs.projectId}${inputs.notify ? ', with emails' : ''}`,
  );
}

/** `testers` is documented as an array holding arrays of `{ email }`; flat lists are read too. */
function membersOf(group: MobileTesterGroup | undefined): string[] {
  if (!group || !Array.isArray(group.testers)) return [];
  return (group.testers as unknown[]).flat().flatMap((entry) => {
    const email = (entry as { email?: unknown } | null)?.email;
    return typeof email === 'string' ? [email] : [];
  });
}
