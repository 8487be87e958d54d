/**
 * Job assets (logs, screenshots, video) downloaded from the service and uploaded as one workflow
 * artifact. Where the host has no artifact service, or the upload fails, the files stay in their
 * folder and a warning says why: a missing artifact should not fail a test run.
 *
 * Names from the service become paths here: a job id is a folder name only when it is one plain
 * name (`pathInFolder`), else that job's assets are skipped with a warning; asset names are
 * reduced to safe base names by the client, made unique within their job's folder. The bytes
 * written in all are capped, counted as they stream in: at the limit the download stops.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  DownloadLimitError,
  pathInFolder,
  safeBaseName,
  type CallOptions,
  type DownloadResult,
  type JobAssetList,
} from '@sauce-actions/api';
import type { Artifacts } from '../deps.ts';
import { quoteValue } from '../step/input-error.ts';
import type { Logger } from '../step/logger.ts';
import type { ReportedJob } from '../test-run/job-report.ts';
import type { RequestPacer } from '../step/request-pacer.ts';
import { formatSize } from '../values/size.ts';
import { uploadArtifact } from './artifact-upload.ts';

export interface AssetSource {
  list(jobId: string, params?: object, options?: CallOptions): Promise<JobAssetList>;
  download(
    jobId: string,
    fileName: string,
    dir: string,
    params?: { saveAs?: string; maxBytes?: number },
    options?: CallOptions,
  ): Promise<DownloadResult>;
}

/** The most bytes the assets of a step take, and the input that set it (named in the warning). */
export interface AssetLimit {
  bytes: number;
  input: string;
}

interface CollectAssetsOptions {
  assets: AssetSource;
  jobs: readonly Pick<ReportedJob, 'id' | 'name'>[];
  /** Folder the files are written in, one subfolder per job. */
  dir: string;
  /** The output that names `dir`, for the warning when the files are not uploaded. */
  dirOutput?: string;
  artifactName: string;
  /** None: as long as the repository's settings say. */
  retentionDays?: number;
  logger: Logger;
  artifacts: Artifacts;
  signal?: AbortSignal;
  /** The step's pacer: downloads take their turns with the step's other requests. */
  pacer: RequestPacer;
  /** Without it, nothing bounds the download but `signal`. */
  limit?: AssetLimit;
}

/** What the downloads left, for the warnings. */
interface Collected {
  files: number;
  bytes: number;
  /** Job ids that cannot be folder names. */
  refused: string[];
  /** Listings and files that could not be downloaded, each with why. */
  failed: string[];
  /** The file at which the limit stopped the download, as `<job>/<file>`. */
  stopped?: { file: string; announced: boolean };
  /** Files of the stopped job not downloaded after it. */
  skippedFiles: string[];
  /** Jobs whose assets were not listed after it. */
  skippedJobs: number;
}

/** At most this many names in one warning. */
const LISTED = 10;

/** What a step kept of its jobs' assets: the files in the folder, and the artifact they went to. */
interface CollectedAssets {
  files: number;
  /** The artifact's name; none when the files were not uploaded (a warning says why). */
  artifact?: string;
}

/** Downloads every asset of the jobs into the folder, then uploads them as one artifact; never fails on the artifact. */
export async function collectJobAssets(options: CollectAssetsOptions): Promise<CollectedAssets> {
  const collected = await downloadAll(options);
  warnAbout(collected, options);
  if (collected.files === 0) {
    options.logger.info('No job assets to upload.');
    return { files: 0 };
  }
  const { dir, dirOutput } = options;
  const files = await filesUnder(dir);
  const artifact = await uploadArtifact(options.artifacts, options.logger, {
    what: `${files.length} asset file(s) of ${options.jobs.length} job(s)`,
    name: options.artifactName,
    files,
    root: dir,
    ...(options.retentionDays !== undefined ? { retentionDays: options.retentionDays } : {}),
    kept: `The files are kept in ${dir}${dirOutput !== undefined ? ` (output \`${dirOutput}\`)` : ''}.`,
  });
  return { files: files.length, ...(artifact !== undefined ? { artifact } : {}) };
}

async function downloadAll(options: CollectAssetsOptions): Promise<Collected> {
  const { signal, limit } = options;
  const { pacer } = options;
  const callOptions = signal ? { signal } : undefined;
  const collected: Collected = {
    files: 0,
    bytes: 0,
    refused: [],
    failed: [],
    skippedFiles: [],
    skippedJobs: 0,
  };
  // Folder names as a case-insensitive file system compares them: two jobs never share one.
  const folders = new Set<string>();
  for (const [index, job] of options.jobs.entries()) {
    if (signal?.aborted) {
      // Every request would fail the same way: one line says what was left.
      options.logger.warning(
        `Stopped downloading job assets (${abortMessage(signal)}): the assets of ${options.jobs.length - index} job(s) were not downloaded.`,
      );
      break;
    }
    if (collected.stopped) {
      collected.skippedJobs = options.jobs.length - index;
      break;
    }
    const jobDir = pathInFolder(options.dir, job.id);
    if (jobDir === undefined || folders.has(job.id.toLowerCase())) {
      collected.refused.push(job.id);
      continue;
    }
    folders.add(job.id.toLowerCase());
    let names: string[];
    try {
      await pacer.take(signal);
      names = assetFileNames(await options.assets.list(job.id, {}, callOptions));
    } catch (error) {
      if (!signal?.aborted) collected.failed.push(`job ${job.id}: ${(error as Error).message}`);
      continue;
    }
    const taken = new Set<string>();
    for (const fileName of names) {
      const saveAs = uniqueName(safeBaseName(fileName, 'asset'), taken);
      // The name as saved, and as the service gave it when that differs.
      const shown = `${job.id}/${saveAs}${saveAs === fileName ? '' : ` (${quoteValue(fileName)})`}`;
      if (collected.stopped) {
        collected.skippedFiles.push(shown);
        continue;
      }
      try {
        await pacer.take(signal);
        const params = { saveAs, ...(limit ? { maxBytes: limit.bytes - collected.bytes } : {}) };
        const result = await options.assets.download(job.id, fileName, jobDir, params, callOptions);
        collected.files += 1;
        collected.bytes += result.bytes;
      } catch (error) {
        if (signal?.aborted) break;
        if (error instanceof DownloadLimitError) {
          collected.stopped = { file: shown, announced: error.announcedBytes !== undefined };
        } else {
          collected.failed.push(`${shown}: ${(error as Error).message}`);
        }
      }
    }
  }
  return collected;
}

/** One warning per kind of trouble, not one per job: a step has at most 10 warning annotations. */
function warnAbout(collected: Collected, options: CollectAssetsOptions): void {
  const { logger, limit } = options;
  if (collected.refused.length > 0) {
    logger.warning(
      `Skipped the assets of ${collected.refused.length} job(s): the service answered ids that cannot be folder names (one plain name, without separator, \`..\`, drive, control character or device name): ${listed(collected.refused.map(quoteValue))}.`,
    );
  }
  if (collected.failed.length > 0) {
    logger.warning(`Could not download some job assets: ${listed(collected.failed, '; ')}.`);
  }
  if (collected.stopped && limit) {
    const { file, announced } = collected.stopped;
    const parts = [
      `kept ${formatSize(collected.bytes)} in ${collected.files} file(s)`,
      `${file} (${announced ? 'announced as larger than what was left; not downloaded' : 'cut at the limit and removed'})`,
      ...(collected.skippedFiles.length > 0 ? [`not downloaded: ${listed(collected.skippedFiles)}`] : []),
      ...(collected.skippedJobs > 0 ? [`nor the assets of ${collected.skippedJobs} more job(s)`] : []),
    ];
    logger.warning(
      `Job assets stopped at ${formatSize(limit.bytes)}, the limit of \`${limit.input}\`: ${parts.join('; ')}. Raise \`${limit.input}\` to keep more.`,
    );
  }
}

function listed(items: readonly string[], separator = ', '): string {
  const more = items.length - LISTED;
  return items.slice(0, LISTED).join(separator) + (more > 0 ? `${separator}and ${more} more` : '');
}

/** `name`, or `name-2.ext`, `name-3.ext`...: the first that no file of the folder has, in any case. */
function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
    const dot = name.lastIndexOf('.');
    const extension = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
    // Room for the number within the 200 characters a safe base name keeps.
    const stem = [...name.slice(0, name.length - extension.length)].slice(0, 180).join('');
    candidate = safeBaseName(`${stem}-${n}${extension}`);
  }
  taken.add(candidate.toLowerCase());
  return candidate;
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
