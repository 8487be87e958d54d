/** Progress of long transfers in the step log: percent and rate, at most once every few seconds. */
import type { Logger } from '../step/logger.ts';

interface ProgressOptions {
  /** What moves, for example "Uploading app.apk". */
  label: string;
  /** Least time between two lines (default 5 s). */
  intervalMs?: number;
  logger: Pick<Logger, 'info'>;
  now?: () => number;
}

type ProgressReporter = (progress: { sentBytes: number; totalBytes: number }) => void;

export function createProgressReporter(options: ProgressOptions): ProgressReporter {
  // Intervals and rates on the monotonic clock: a wall clock set back would silence the lines.
  const now = options.now ?? (() => performance.now());
  const interval = options.intervalMs ?? 5000;
  const started = now();
  let lastLine = started;
  let done = false;
  return ({ sentBytes, totalBytes }) => {
    if (done) return;
    const at = now();
    const finished = totalBytes > 0 && sentBytes >= totalBytes;
    if (!finished && at - lastLine < interval) return;
    lastLine = at;
    done = finished;
    const percent = totalBytes > 0 ? Math.floor((sentBytes / totalBytes) * 100) : 0;
    const seconds = Math.max((at - started) / 1000, 0.001);
    options.logger.info(
      `${options.label}: ${percent}% (${formatBytes(sentBytes)} of ${formatBytes(totalBytes)}, ${formatBytes(sentBytes / seconds)}/s)`,
    );
  };
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${units[unit]}`;
}
