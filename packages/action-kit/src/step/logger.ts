/**
 * The one log every action writes to. Hosts implement it (the runner's log, a terminal's standard
 * error); tests record it. Secrets are redacted by the host, which is the last place before output.
 */
import type { Logger as ClientLogger } from '@sauce-actions/api';

export interface Logger {
  info(message: string): void;
  /** Something the user should look at; on the runner also an annotation. */
  warning(message: string): void;
  /** Shown only when the user asks for detail (step debug logging, `--verbose`). */
  debug(message: string): void;
  /** Lines logged inside `body` are folded under `name` where the host can fold them. */
  group<T>(name: string, body: () => Promise<T>): Promise<T>;
}

type LogLevel = 'info' | 'warning' | 'debug' | 'group';

interface LogEntry {
  level: LogLevel;
  message: string;
}

/** A logger that keeps every entry, for tests of `run`. */
export interface RecordingLogger extends Logger {
  readonly entries: LogEntry[];
  /** The messages of one level, in order. */
  lines(level?: LogLevel): string[];
}

export function recordingLogger(): RecordingLogger {
  const entries: LogEntry[] = [];
  const add =
    (level: LogLevel) =>
    (message: string): void => {
      entries.push({ level, message });
    };
  return {
    entries,
    info: add('info'),
    warning: add('warning'),
    debug: add('debug'),
    async group(name, body) {
      add('group')(name);
      return body();
    },
    lines: (level = 'info') => entries.filter((entry) => entry.level === level).map((entry) => entry.message),
  };
}

/** The API client's logger (retries, slow answers) on the action's log: detail as debug, trouble as warnings. */
export function clientLogger(logger: Logger): ClientLogger {
  return { debug: (message) => logger.debug(message), warn: (message) => logger.warning(message) };
}
