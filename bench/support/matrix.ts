/**
 * Several jobs of a workflow matrix on one account: each job is its own process
 * (`matrix-job.ts`), as on separate runners, and all of them begin their first request at the
 * same moment (or `staggerMs` apart), the worst case for a shared rate limit. The emulator's
 * journal then tells how many answers were 429s.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const MATRIX_JOB = path.join(import.meta.dirname, 'matrix-job.ts');

/** Time the processes get to load before the common start. */
const LOAD_MS = 2500;

/** What one job prints when it ends (`matrix-job.ts`). */
export interface MatrixJobFigures {
  index: number;
  build: string;
  jobs: number;
  passed: number;
  failed: number;
  /** Every job of the run seen finished. */
  complete: boolean;
  polls: number;
  /** Polls whose requests met a 429 or a window with few requests left. */
  contendedPolls: number;
  /** 429 answers this job received (each waited out and sent again). */
  rateLimited: number;
  /** Requests the client held back by pacing, and for how long in all. */
  paced: number;
  pacedMs: number;
  elapsedMs: number;
  error?: string;
}

/** The figures of a job that has done nothing yet. */
export function noFigures(index: number): MatrixJobFigures {
  return {
    index,
    build: '',
    jobs: 0,
    passed: 0,
    failed: 0,
    complete: false,
    polls: 0,
    contendedPolls: 0,
    rateLimited: 0,
    paced: 0,
    pacedMs: 0,
    elapsedMs: 0,
  };
}

export interface MatrixOptions {
  /** The emulator's base address. */
  url: string;
  jobs: number;
  pacing: boolean;
  /** Time between the starts of two jobs (default 0: all at once). */
  staggerMs?: number;
  /** The jobs' poll interval (default 1000 ms). */
  intervalMs?: number;
  /** Each job's time limit (default 60 s). */
  timeoutMs?: number;
}

export interface MatrixResult {
  /** One per job, in job order; a job that printed nothing has an `error`. */
  jobs: MatrixJobFigures[];
  /** From the common start to the end of the last job. */
  elapsedMs: number;
  /** Requests the emulator received from the start on, and how many it answered 429. */
  requests: number;
  rateLimited: number;
}

interface JournalEntry {
  status: number;
  time: string;
}

async function journal(url: string): Promise<JournalEntry[]> {
  const response = await fetch(`${url}/_emulator/requests`);
  return ((await response.json()) as { requests: JournalEntry[] }).requests;
}

/** Runs the jobs to their end (each exits within its time limit) and reads the journal. */
export async function runMatrix(options: MatrixOptions): Promise<MatrixResult> {
  await fetch(`${options.url}/_emulator/requests`, { method: 'DELETE' });
  const startAt = Date.now() + LOAD_MS;
  const jobs = await Promise.all(
    Array.from({ length: options.jobs }, (_, index) =>
      runJob(options, index + 1, startAt + index * (options.staggerMs ?? 0)),
    ),
  );
  const elapsedMs = Date.now() - startAt;
  const entries = await journal(options.url);
  return {
    jobs,
    elapsedMs,
    requests: entries.length,
    rateLimited: entries.filter((entry) => entry.status === 429).length,
  };
}

function runJob(options: MatrixOptions, index: number, startAt: number): Promise<MatrixJobFigures> {
  const args = [
    MATRIX_JOB,
    '--url',
    options.url,
    '--index',
    String(index),
    '--pacing',
    options.pacing ? 'on' : 'off',
    '--start-at',
    String(startAt),
    '--interval-ms',
    String(options.intervalMs ?? 1000),
    '--timeout-ms',
    String(options.timeoutMs ?? 60_000),
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('close', (code, signal) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(line) as MatrixJobFigures);
      } catch {
        resolve({
          ...noFigures(index),
          error: `exited ${code ?? signal} without figures: ${stderr.trim().slice(-500)}`,
        });
      }
    });
  });
}
