/** Uploads a Sauce Connect log as a workflow artifact; a failed upload only warns, the file stays. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** Uploads the log file of the named tunnel; never throws. */
export type LogUploader = (logFile: string, tunnelName: string) => Promise<void>;

/** The uploading part of `@actions/artifact`'s client. */
export interface ArtifactClient {
  uploadArtifact(
    name: string,
    files: string[],
    rootDirectory: string,
    options?: { retentionDays?: number },
  ): Promise<{ id?: number | undefined; size?: number | undefined }>;
}

/** A name unique within the run (matrix jobs share names) and free of the characters artifacts refuse. */
export function artifactName(tunnelName: string): string {
  const safe = tunnelName.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80);
  return `sauce-connect-log-${safe}-${randomBytes(3).toString('hex')}`;
}

export function logUploader(
  client: () => Promise<ArtifactClient>,
  log: (line: string) => void,
  warn: (line: string) => void,
): LogUploader {
  return async (logFile, tunnelName) => {
    if (!existsSync(logFile)) {
      warn(`The Sauce Connect log ${logFile} does not exist: nothing to upload.`);
      return;
    }
    const name = artifactName(tunnelName);
    try {
      const uploaded = await (
        await client()
      ).uploadArtifact(name, [logFile], path.dirname(logFile), {
        retentionDays: 7,
      });
      log(`Uploaded the Sauce Connect log as artifact ${name}${uploaded.id ? ` (id ${uploaded.id})` : ''}.`);
    } catch (error) {
      warn(
        `Could not upload the Sauce Connect log as an artifact (${(error as Error).message}); it stays at ${logFile}.`,
      );
    }
  };
}
