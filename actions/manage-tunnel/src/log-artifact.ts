/** Uploads a Sauce Connect log as a workflow artifact; a failed upload only warns, the file stays. */
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { StepDeps } from '@sauce-actions/action-kit';

/** A name unique within the run (matrix jobs share names) and free of the characters artifacts refuse. */
function artifactName(tunnelName: string): string {
  const safe = tunnelName.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80);
  return `sauce-connect-log-${safe}-${randomBytes(3).toString('hex')}`;
}

/** Uploads the log file of the named tunnel, kept 7 days; never throws. */
export async function uploadLog(
  deps: Pick<StepDeps, 'artifacts' | 'logger'>,
  logFile: string,
  tunnelName: string,
): Promise<void> {
  if (!existsSync(logFile)) {
    deps.logger.warning(`The Sauce Connect log ${logFile} does not exist: nothing to upload.`);
    return;
  }
  const name = artifactName(tunnelName);
  try {
    const uploaded = await deps.artifacts.upload(name, [logFile], path.dirname(logFile), {
      retentionDays: 7,
    });
    if (uploaded === undefined) {
      deps.logger.warning(
        `Could not upload the Sauce Connect log as an artifact: there is no artifact service here. It stays at ${logFile}.`,
      );
      return;
    }
    deps.logger.info(
      `Uploaded the Sauce Connect log as artifact ${name}${uploaded.id ? ` (id ${uploaded.id})` : ''}.`,
    );
  } catch (error) {
    deps.logger.warning(
      `Could not upload the Sauce Connect log as an artifact (${(error as Error).message}); it stays at ${logFile}.`,
    );
  }
}
