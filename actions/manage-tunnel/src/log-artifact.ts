/** Uploads a Sauce Connect log as a workflow artifact; a failed upload only warns, the file stays. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { StepDeps } from '@sauce-actions/action-kit';
import { artifactName, uploadArtifact } from '@sauce-actions/action-kit/services/artifact-upload';

interface SauceConnectLog {
  file: string;
  tunnelName: string;
  /** None: as long as the repository's settings say. */
  retentionDays?: number | undefined;
}

/**
 * Uploads the log file of the named tunnel as `sauce-connect-log-<job>-<tunnel>-attempt-<n>`, a
 * name of its own when the run has that one already (legs of a matrix may share a tunnel name);
 * never throws.
 */
export async function uploadLog(
  deps: Pick<StepDeps, 'artifacts' | 'logger' | 'workflow'>,
  log: SauceConnectLog,
): Promise<void> {
  const { file, tunnelName, retentionDays } = log;
  if (!existsSync(file)) {
    deps.logger.warning(`The Sauce Connect log ${file} does not exist: nothing to upload.`);
    return;
  }
  await uploadArtifact(deps.artifacts, deps.logger, {
    what: 'the Sauce Connect log',
    name: artifactName('sauce-connect-log', deps.workflow, { label: tunnelName }),
    files: [file],
    root: path.dirname(file),
    ...(retentionDays !== undefined ? { retentionDays } : {}),
    kept: `It stays at ${file}.`,
  });
}
