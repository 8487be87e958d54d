/**
 * The runner's file commands, `GITHUB_OUTPUT`, `GITHUB_STATE` and `GITHUB_STEP_SUMMARY`, each
 * written on its own: a file that cannot be written (a full disk, a read-only file, a folder that
 * is gone, a pipe nobody reads) is a failure named by its variable, kept for the step's result,
 * and never stops the other files being written nor the step being reported. Writes are
 * synchronous, as the toolkit's are, so that state is on disk before the step goes on (a step
 * killed outright leaves its post step what it saved), and never wait on a pipe: it is opened
 * without blocking, and a reader that takes nothing for a while ends the write.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import os from 'node:os';
import type { StepState } from '../deps.ts';

export type RunnerFileVariable = 'GITHUB_OUTPUT' | 'GITHUB_STATE' | 'GITHUB_STEP_SUMMARY';

/** A runner file that could not be written: its variable, the path it held, and why, in words. */
export interface RunnerFileFailure {
  variable: RunnerFileVariable;
  file: string;
  reason: string;
}

/** How long a pipe's reader may take no data before the write gives up. */
const STALLED_PIPE_MS = 5_000;
/** The pause between two tries at a full pipe. */
const PIPE_RETRY_MS = 20;

const APPEND_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0);

/**
 * Appends `text` to the file `variable` names; the failure, if it could not be written. A
 * variable left unset is the caller's to handle (the toolkit then prints a workflow command).
 */
export function appendRunnerFile(
  variable: RunnerFileVariable,
  file: string,
  text: string,
): RunnerFileFailure | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, APPEND_FLAGS, 0o666);
    writeAll(fd, Buffer.from(text, 'utf8'));
    return undefined;
  } catch (error) {
    return { variable, file, reason: reasonOf(error) };
  } finally {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // The write's own outcome is what counts.
      }
    }
  }
}

/** `name<<delimiter` lines, as the runner reads outputs and state, with a delimiter no value holds. */
export function keyValueText(values: Readonly<Record<string, string>>): string {
  let text = '';
  for (const [name, value] of Object.entries(values)) {
    let delimiter = `ghadelimiter_${randomUUID()}`;
    while (value.includes(delimiter) || name.includes(delimiter)) delimiter = `ghadelimiter_${randomUUID()}`;
    text += `${name}<<${delimiter}${os.EOL}${value}${os.EOL}${delimiter}${os.EOL}`;
  }
  return text;
}

/** Where a step's outputs, state and summary go, and which of those files could not be written. */
export interface StepFiles {
  setOutputs(outputs: Readonly<Record<string, string>>): void;
  appendSummary(text: string): Promise<void>;
  state: StepState;
  /** The files that could not be written, each once, in the order they failed. */
  readonly failures: RunnerFileFailure[];
}

/**
 * The runner's files, written here, each on its own; a variable the runner did not set goes to
 * `unset` (the toolkit, which then prints a workflow command).
 */
export function runnerFiles(env: NodeJS.ProcessEnv, unset: StepFiles): StepFiles {
  const failures: RunnerFileFailure[] = [];
  const append = (variable: RunnerFileVariable, text: string): boolean => {
    const file = env[variable];
    if (!file) return false;
    const failure = appendRunnerFile(variable, file, text);
    // Each file is named once, by its first failure: later writes fail alike.
    if (failure && !failures.some((known) => known.variable === variable)) failures.push(failure);
    return true;
  };
  return {
    failures,
    setOutputs: (outputs) => {
      if (!append('GITHUB_OUTPUT', keyValueText(outputs))) unset.setOutputs(outputs);
    },
    appendSummary: async (text) => {
      if (!append('GITHUB_STEP_SUMMARY', text)) await unset.appendSummary(text);
    },
    state: {
      save: (name, value) => {
        if (!append('GITHUB_STATE', keyValueText({ [name]: value }))) unset.state.save(name, value);
      },
      get: (name) => unset.state.get(name),
    },
  };
}

/** What a runner file that could not be written leaves undone, once the work itself was done. */
const CONSEQUENCE: Readonly<Record<RunnerFileVariable, string>> = {
  GITHUB_OUTPUT: "later steps get none of this step's outputs (the log lists them)",
  GITHUB_STEP_SUMMARY: 'the run has no summary of this step (the log shows it)',
  GITHUB_STATE: 'the post step will not know what this step left to clean up',
};

/** The failure as one line: which file, the path it held, why, and what it leaves undone. */
export function failureNote(failure: RunnerFileFailure): string {
  return `${failure.variable} (${failure.file}) could not be written: ${failure.reason}; ${CONSEQUENCE[failure.variable]}.`;
}

/** Writes every byte; a full pipe is tried again, until its reader has taken nothing for a while. */
function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  let lastProgress = performance.now();
  while (offset < bytes.length) {
    try {
      const written = writeSync(fd, bytes, offset, bytes.length - offset);
      offset += written;
      if (written > 0) lastProgress = performance.now();
    } catch (error) {
      if (codeOf(error) !== 'EAGAIN') throw error;
      if (performance.now() - lastProgress > STALLED_PIPE_MS) {
        throw Object.assign(new Error('the pipe stalled'), { code: 'STALLED' });
      }
      pause(PIPE_RETRY_MS);
    }
  }
}

/** Sleeps without the event loop: the write is synchronous, as the state's callers expect. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function reasonOf(error: unknown): string {
  const code = codeOf(error);
  const words: Record<string, string> = {
    ENOSPC: 'no space is left on the device',
    EDQUOT: 'the disk quota is used up',
    EACCES: 'permission denied',
    EPERM: 'the file may not be changed',
    EROFS: 'the file system is read-only',
    ENOENT: 'its folder does not exist',
    ENOTDIR: 'a part of its path is not a folder',
    EISDIR: 'it is a folder',
    ENXIO: 'it is a named pipe that nothing reads',
    STALLED: `it is a pipe whose reader took nothing for ${STALLED_PIPE_MS / 1000} s`,
    EIO: 'the device gave an input/output error',
    EINVAL: 'the file takes no such writes',
  };
  const said = code !== undefined ? words[code] : undefined;
  if (said !== undefined) return `${said} (${code})`;
  const message = error instanceof Error ? error.message : String(error);
  return code !== undefined ? `${message} (${code})` : message;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
