/** Entry point: reads the typed inputs, hands them to `run`, publishes outputs and the summary. */
import * as core from '@actions/core';
import {
  createClient,
  mobileClientOptions,
  mobileWebBase,
  present,
  readBoolean,
  readDuration,
  readEnum,
  readKeyValues,
  readList,
  readMobileConnection,
  readRequiredString,
  readString,
  runAction,
  setOutputs,
  workspaceDir,
} from '@sauce-actions/action-kit';
import { PLATFORMS, run, type UploadInputs } from './run.ts';
import { uploadSummary } from './summary.ts';

await runAction({ title: 'Upload build' }, async (signal) => {
  const connection = readMobileConnection();
  const inputs: UploadInputs = {
    file: readRequiredString('file'),
    ...present('appName', readString('app-name')),
    ...present('symbolsFile', readString('symbols-file')),
    groups: readList('groups'),
    notify: readBoolean('notify', false),
    ...present('releaseNotes', readString('release-notes')),
    ...present('releaseNotesFile', readString('release-notes-file')),
    autoUpdate: readBoolean('auto-update', false),
    tags: readList('tags'),
    ...present('folderName', readString('folder-name')),
    ...present('landingPageMode', readEnum('landing-page-mode', ['open', 'closed'])),
    uploadToVendor: readBoolean('upload-to-vendor', false),
    ...present('platform', readEnum('platform', PLATFORMS)),
    metadata: readKeyValues('metadata'),
    timeoutMs: readDuration('timeout', 30 * 60_000, { minMs: 1000 }),
  };
  const client = createClient(mobileClientOptions(connection));
  try {
    const report = await run(inputs, {
      client: client.mobile,
      workspace: workspaceDir(),
      region: connection.region,
      apiUrl: connection.apiUrl,
      webBase: mobileWebBase(connection.region, connection.apiUrl),
      log: (line) => core.info(line),
      signal,
    });
    setOutputs(report.outputs);
    await uploadSummary(report).write();
  } finally {
    await client.close();
  }
});
