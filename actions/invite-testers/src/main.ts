/** Entry point: reads the typed inputs, hands them to `run`, publishes outputs and the summary. */
import * as core from '@actions/core';
import {
  createClient,
  mobileClientOptions,
  present,
  readBoolean,
  readList,
  readMobileConnection,
  readRequiredString,
  readString,
  runAction,
  setOutputs,
} from '@sauce-actions/action-kit';
import { run, type InviteInputs } from './run.ts';
import { inviteSummary } from './summary.ts';

await runAction({ title: 'Invite testers' }, async (signal) => {
  const connection = readMobileConnection({ needsEmail: true });
  const inputs: InviteInputs = {
    projectId: readRequiredString('project-id'),
    buildId: readRequiredString('build-id'),
    groups: readList('groups'),
    testers: readList('testers'),
    ...present('testerGroup', readString('tester-group')),
    createGroups: readBoolean('create-groups', false),
    ...present('comment', readString('comment')),
    notify: readBoolean('notify', false),
  };
  const client = createClient(mobileClientOptions(connection));
  try {
    const report = await run(inputs, { client: client.mobile, log: (line) => core.info(line), signal });
    setOutputs(report.outputs);
    await inviteSummary(report).write();
  } finally {
    await client.close();
  }
});
