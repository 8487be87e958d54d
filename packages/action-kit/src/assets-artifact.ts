/**
 * Job assets (logs, screenshots, video) downloaded from the service and uploaded as one workflow
 * artifact. Where the host has no artifact service, the files stay on disk and the log says so,
 * since a missing artifact should not fail a test run.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { CallOptions, DownloadResult, JobAssetList } from '@sauce-actions/api';
import type { Artifacts } from './deps.ts';
import type { ReportedJob } from './job-report.ts';
import { RequestPacer } from './job-follower.ts';
import type { Logger } from './logger.ts';

export interface AssetSource {
  list(jobId: string, params?: object, options?: CallOptions): Promise<JobAssetList>;
  download(
    jobId: string,
    fileName: string,
    dir: string,
    params?: object,
    options?: CallOptions,
  ): Promise<DownloadResult>;
}

export interface CollectAssetsOptions {
  assets: AssetSource;
  jobs: readonly Pick<ReportedJob, 'id' | 'name'>[];
  /** Folder the files are written in, one subfolder per job. */
  dir: string;
  artifactName: string;
  logger: Logger;
  artifacts: Artifacts;
  signal?: AbortSignal;
  maxRequestsPerSecond?: number;
}

/** Downloads every asset of the jobs, uploads them; answers the artifact name, or undefined when not uploaded. */
export async function collectJobAssets(options: CollectAssetsOptions): Promise<string | undefined> {
  const pacer = new RequestPacer(options.maxRequestsPerSecond ?? 5);
  const callOptions = options.signal ? { signal: options.signal } : undefined;
  let count = 0;
  for (const [index, job] of options.jobs.entries()) {
    if (options.signal?.aborted) {
      // Every request would fail the same way: one line says what was left.
      options.logger.warning(
        `Stopped downloading job assets (${abortMessage(options.signal)}): the assets of ${options.jobs.length - index} job(s) were not downloaded.`,
      );
      break;
    }
    const jobDir = path.join(options.dir, job.id);
    try {
      await pacer.take(options.signal);
      const list = await options.assets.list(job.id, {}, callOptions);
      for (const fileName of assetFileNames(list)) {
        await pacer.take(options.signal);
        await options.assets.download(job.id, fileName, jobDir, {}, callOptions);
        count += 1;
      }
    } catch (error) {
      if (options.signal?.aborted) continue;
      options.logger.warning(`Could not download the assets of job ${job.id}: ${(error as Error).message}`);
    }
  }
  if (count === 0) {
    options.logger.info('No job assets to upload.');
    return undefined;
  }
  const files = await filesUnder(options.dir);
  const result = await options.artifacts.upload(options.artifactName, files, options.dir, {
    retentionDays: 30,
  });
  if (!result) {
    options.logger.info(
      `The artifact service is not available here: ${count} asset file(s) are left in ${options.dir} and not uploaded.`,
    );
    return undefined;
  }
  options.logger.info(
    `Uploaded ${count} asset file(s) of ${options.jobs.length} job(s) as artifact "${options.artifactName}"${result.id !== undefined ? ` (id ${result.id})` : ''}.`,
  );
  return options.artifactName;
}

function abortMessage(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : 'cancelled';
}

/** The file names of an asset list: values are a name, a list of names (screenshots), or null. */
export function assetFileNames(list: JobAssetList): string[] {
  const names = new Set<string>();
  for (const value of Object.values(list)) {
    for (const name of Array.isArray(value) ? value : [value]) {
      if (typeof name === 'string' && name !== '') names.add(name);
    }
  }
  return [...names];
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}
