/**
 * A test action of the engine's own for its tests: items whose runs come out as a script says,
 * attempt by attempt, so that each rule of the loop shows without a service.
 */
import { CancelledError } from '../../../src/step/failure.ts';
import type {
  Batch,
  EarlyEnd,
  Progress,
  Run,
  StartSignals,
  TestPlan,
  TestRunAdapter,
} from '../../../src/test-run/adapter.ts';
import type { ReportedJobStatus } from '../../../src/test-run/job-report.ts';
import {
  parseRunningRecord,
  savedStrings,
  type RunningRecordFormat,
} from '../../../src/test-run/post-step.ts';
import { testRunOutputs, type TestRunOutputs } from '../../../src/test-run/results.ts';

/** How an item's run comes out, attempt by attempt (the last one repeats). */
export type Script = Record<string, ReportedJobStatus[]>;

export interface Toy {
  script: Script;
  /** An error the start of an attempt throws, having started nothing. */
  startFails?: Record<number, Error>;
  /** Whether that start is still unanswered when it fails (the deadline cut it off). */
  unanswered?: boolean;
  /** An error following an attempt throws. */
  followFails?: Record<number, Error>;
  /** Aborts the step's signal while following an attempt. */
  cancelDuring?: Record<number, AbortController>;
  /** The stop finds everything finished. */
  finishedMeanwhile?: boolean;
  /** Starts every job id, so that runs of several nights have jobs of their own. */
  night?: string;
  /** Done as the report is made, after the run. */
  beforeReport?: () => void;
}

/** What the toy batches did, for the checks. */
export interface Seen {
  started: string[][];
  stopped: EarlyEnd[];
}

/** What a toy batch records for its post step. */
export interface ToyRecord {
  toys: string[];
}

export const TOY_RECORD: RunningRecordFormat<ToyRecord> = {
  key: 'toys',
  read: (text) => parseRunningRecord(text, (record) => ({ toys: savedStrings(record.toys) })),
};

export class ToyBatch implements Batch<string, ToyRecord> {
  readonly #toy: Toy;
  readonly #items: readonly string[];
  readonly #attempt: number;
  readonly #seen: Seen;
  #started = false;
  #unanswered = false;
  #stopped = false;

  constructor(toy: Toy, items: readonly string[], attempt: number, seen: Seen) {
    this.#toy = toy;
    this.#items = items;
    this.#attempt = attempt;
    this.#seen = seen;
  }

  get started(): boolean {
    return this.#started;
  }

  async start({ onStarted }: StartSignals): Promise<void> {
    const failure = this.#toy.startFails?.[this.#attempt];
    if (failure) {
      this.#unanswered = this.#toy.unanswered ?? false;
      throw failure;
    }
    this.#started = true;
    this.#seen.started.push([...this.#items]);
    onStarted();
  }

  cutOff(aborted: 'timeout' | 'cancelled'): string | undefined {
    return this.#unanswered ? `${aborted}: the toys may run` : undefined;
  }

  async follow(signal: AbortSignal, onProgress: (progress: Progress<string>) => void): Promise<boolean> {
    onProgress({ runs: this.#runs('running'), changed: true, line: `${this.#items.length} toys running` });
    this.#toy.cancelDuring?.[this.#attempt]?.abort(new CancelledError('the run was cancelled (SIGINT)'));
    const failure = this.#toy.followFails?.[this.#attempt];
    if (failure) throw failure;
    if (signal.aborted) return false;
    const runs = this.#runs();
    onProgress({ runs, changed: true, line: `${runs.length} toys finished` });
    return !signal.aborted;
  }

  async stop(end: EarlyEnd): Promise<boolean> {
    this.#seen.stopped.push(end);
    this.#stopped = true;
    return this.#toy.finishedMeanwhile ?? false;
  }

  running(): ToyRecord | undefined {
    return this.#started ? { toys: [...this.#items] } : undefined;
  }

  leftRunning(): ToyRecord | undefined {
    return this.#stopped && !this.#toy.finishedMeanwhile ? { toys: [...this.#items] } : undefined;
  }

  runs(end: EarlyEnd | undefined): Run<string>[] {
    return this.#runs(end !== undefined ? 'stopped' : undefined);
  }

  #runs(status?: ReportedJobStatus): Run<string>[] {
    return this.#items.map((item) => {
      const outcomes = this.#toy.script[item] ?? ['passed'];
      const id = `${this.#toy.night ?? ''}${item}-${this.#attempt}`;
      return {
        item,
        job: {
          id,
          name: item,
          platform: 'toy',
          status: status ?? outcomes[Math.min(this.#attempt, outcomes.length) - 1] ?? 'passed',
          url: `https://example.com/${id}`,
        },
        jobId: id,
        record: id,
      };
    });
  }
}

export interface ToyPlan extends TestPlan<string> {
  label: string;
}

export function toyAdapter(toy: Toy, seen: Seen): TestRunAdapter<ToyPlan, string, ToyBatch, TestRunOutputs> {
  return {
    itemsName: 'toys',
    plan: async () => ({ items: Object.keys(toy.script), label: 'Toys' }),
    batch: (_plan, items, attempt) => new ToyBatch(toy, items, attempt, seen),
    retryItems: (_plan, round) =>
      round.runs.flatMap((run) => (run.job.status === 'failed' && run.item !== undefined ? [run.item] : [])),
    report: (plan, run) => {
      toy.beforeReport?.();
      return {
        outputs: (resultsFile) => testRunOutputs(run, resultsFile),
        summary: `${plan.label}: ${run.tally.passed} of ${run.tally.total} passed`,
        resultsData: { jobs: run.jobs, ended: run.rounds.at(-1)?.end?.why ?? null },
        junitSuites: () => [
          { name: plan.label, cases: run.jobs.map((job) => ({ name: job.name, classname: 'toy' })) },
        ],
        ...(run.tally.failed > 0
          ? { failure: { kind: 'tests-failed', message: `${run.tally.failed} failed` } }
          : {}),
        tallyLine: `${run.tally.passed} of ${run.tally.total} toys passed`,
      };
    },
  };
}
