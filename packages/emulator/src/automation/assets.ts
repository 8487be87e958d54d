/** Job assets, generated from the job itself: a command log, a server log and one screenshot. */
import { jobError, jobTimes } from './job-view.ts';
import type { JobRecord } from './model.ts';

/** The service deletes a job's assets 30 days after the job (seed 002, Limits); the job stays. */
const ASSET_RETENTION_MS = 30 * 86_400_000;

/** A 1×1 PNG: enough for clients to store and open as an image. */
const SCREENSHOT_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const SAUCE_LOG = 'log.json';
const SELENIUM_LOG = 'selenium-server.log';
const SCREENSHOT = '0000screenshot.png';

/**
 * Asset names mapped to file names; null where the emulator captures nothing (video) or the job
 * has not ended yet (assets appear when a job finishes, as on the service), or they were deleted
 * by a client or by the retention period, counted from the job's end.
 */
export function assetList(job: JobRecord, nowMs: number): Record<string, string | string[] | null> {
  const { status, endMs } = jobTimes(job, nowMs);
  const available =
    !job.assetsDeleted &&
    (status === 'complete' || status === 'error') &&
    endMs !== null &&
    nowMs < endMs + ASSET_RETENTION_MS;
  return {
    'sauce-log': available ? SAUCE_LOG : null,
    'selenium-log': available ? SELENIUM_LOG : null,
    video: null,
    screenshots: available ? [SCREENSHOT] : null,
  };
}

interface AssetContent {
  contentType: string;
  body: Buffer | string;
}

/** The bytes of one asset, or undefined when the job has no such asset now. */
export function assetContent(job: JobRecord, fileName: string, nowMs: number): AssetContent | undefined {
  const list = assetList(job, nowMs);
  if (list['sauce-log'] === null) return undefined;
  const times = jobTimes(job, nowMs);
  const passed = job.passedOverride ?? (times.status === 'complete' ? job.passes : null);
  switch (fileName) {
    case SAUCE_LOG:
      return {
        contentType: 'application/json',
        body: JSON.stringify(
          [
            { method: 'POST', path: 'session', request: { browserName: job.browser }, result: { status: 0 } },
            { method: 'POST', path: 'url', request: { url: 'https://example.com' }, result: { status: 0 } },
            {
              method: 'GET',
              path: 'title',
              request: {},
              result: passed === false ? { status: 13, message: 'assertion failed' } : { status: 0 },
            },
            { method: 'DELETE', path: 'session', request: {}, result: { status: 0 } },
          ],
          null,
          2,
        ),
      };
    case SELENIUM_LOG:
      return {
        contentType: 'text/plain; charset=utf-8',
        body: [
          `Job ${job.id} "${job.name}" on ${job.browser} ${job.browserVersion}, ${job.os}`,
          'Started new session',
          'Navigated to https://example.com',
          times.status === 'error'
            ? `Session ended: ${jobError(job, times) ?? 'error'}`
            : passed === false
              ? 'Assertion failed'
              : 'All commands succeeded',
          'Session closed',
          '',
        ].join('\n'),
      };
    case SCREENSHOT:
      return { contentType: 'image/png', body: SCREENSHOT_PNG };
    default:
      return undefined;
  }
}
