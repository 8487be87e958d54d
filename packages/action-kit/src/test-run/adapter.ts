/**
 * What a test action tells the test-run engine, and what the engine hands back. The engine runs
 * the loop every test action shares (start with a grace period, follow, fail fast, run again what
 * failed, stop what is left, keep it for the post step, publish); the action says what its items
 * are, how its service starts, follows and stops a batch of them, and how its report reads.
 */
import type { NotifyInputs } from '../inputs/notify-inputs.ts';
import type { IssueFiling } from '../reporting/issue-filing.ts';
import type { ReportText } from '../reporting/report-text.ts';
import type { Outputs, PullRequestComment } from '../reporting/result.ts';
import type { Failure } from '../step/failure.ts';
import type { JobTally, ReportedJob } from './job-report.ts';
import type { JUnitTestSuite } from './junit.ts';
import type { HistoryJobs, RecordWriter } from './history/history-search.ts';
import type { RunningRecordFormat, ServicePlace } from './post-step.ts';

/** One run of an item: a job as the report shows it, and what the action keeps of it. */
export interface Run<R = unknown> {
  /**
   * The item it ran, which a retry runs again (a test case's id, a platform's place), when that
   * can be told. The runs of one item on one platform (`job.platform`) are attempts of each other.
   */
  item?: string;
  job: ReportedJob;
  /** The service's job id, once one is assigned (a JS test waits for its own). */
  jobId?: string;
  /** What the action keeps of the run for its report: the service's record, the page's results. */
  record: R;
}

/** Why a round ended before its jobs did. */
export type EndReason = 'timeout' | 'cancelled' | 'failed' | 'fail-fast';

export interface EarlyEnd<R = unknown> {
  why: EndReason;
  /** Where: starting the batch, or following its jobs. */
  phase: 'start' | 'follow';
  /** The error that ended it, when one did (kept beside an abort that cut a start short). */
  error?: unknown;
  /** With `fail-fast`: the run that failed with no attempt left. */
  failedFast?: Run<R>;
}

/** Where a batch stands, after each look at its jobs. */
export interface Progress<R = unknown> {
  runs: readonly Run<R>[];
  /** Whether a job appeared or changed since the last look. */
  changed: boolean;
  /** The log line that says so; the engine prints it when something changed, else once a minute. */
  line: string;
}

export interface StartSignals {
  /** The step's deadline: once it aborts, nothing more is started. */
  signal: AbortSignal;
  /**
   * The start requests' signal, which outlives `signal` by a grace period: their answer names
   * what they started, without which it cannot be stopped.
   */
  requestSignal: AbortSignal;
  /** Called each time something was started, so that the post step learns of it at once. */
  onStarted(): void;
}

/**
 * The items of one round, started together: how the action's service starts, follows and stops
 * them. `W` is the running record it keeps for the post step (the format's, `TestRunOptions.postStep`).
 */
export interface Batch<R = unknown, W extends object = object> {
  /** Starts the items. What it started stays known to the batch when it throws halfway. */
  start(signals: StartSignals): Promise<void>;
  /** Whether anything was started that can be followed or stopped. */
  readonly started: boolean;
  /**
   * The failure's message when a start request is still unanswered as the step's deadline cuts it
   * off: what may run, and where to look for it. Undefined when no start request is unanswered.
   */
  cutOff(aborted: 'timeout' | 'cancelled'): string | undefined;
  /**
   * Follows what was started: true once every job finished, false when `signal` ended the wait.
   * Throws when following failed.
   */
  follow(signal: AbortSignal, onProgress: (progress: Progress<R>) => void): Promise<boolean>;
  /**
   * After an early end, stops what is unfinished (or only finds it, when nothing is to be
   * stopped), on a deadline of its own. True when everything turned out finished meanwhile.
   */
  stop(end: EarlyEnd<R>): Promise<boolean>;
  /** What the post step needs to stop what runs now; undefined while nothing runs. */
  running(): W | undefined;
  /** Once the round is over: what is left running for the post step to stop; undefined for nothing. */
  leftRunning(): W | undefined;
  /** What each job came to. */
  runs(end: EarlyEnd<R> | undefined): Run<R>[];
}

/** One attempt at some items: every planned item first, then those that failed. */
export interface Round<R = unknown, B extends Batch<R> = Batch<R>> {
  attempt: number;
  batch: B;
  /** How it ended before its jobs did; absent when every job was seen finished. */
  end?: EarlyEnd<R>;
  runs: Run<R>[];
}

/** An item on a platform: its last run, with the runs before it as its attempts. */
export interface ItemResult<R = unknown> {
  /** The last run's job, with the earlier runs as `attempts`: flaky when it passed after failing. */
  job: ReportedJob;
  last: Run<R>;
  /** The runs before the last, oldest first. */
  earlier: Run<R>[];
}

/** The results of a test run, which the report is made of: items, attempts, jobs, verdicts. */
export interface TestResults<R = unknown> {
  /** In the order the items were first run. */
  items: ItemResult<R>[];
  jobs: ReportedJob[];
  tally: JobTally;
  /** When the run started (ms, the runner's clock). */
  startedAtMs: number;
  /** Why the failed items were not run again, when a retry could not start. */
  notRetried?: string;
  /**
   * Why the jobs shown may not be all there are: a listing of the service that failed after
   * its retries. What was read is published, and this said with it.
   */
  incomplete?: string;
}

/** The results of a run and its rounds. */
export interface TestRun<R = unknown, B extends Batch<R> = Batch<R>> extends TestResults<R> {
  rounds: Round<R, B>[];
}

export interface TestPlan<I = unknown> {
  /** What the first round runs; none: nothing to run, and the step passes. */
  items: readonly I[];
  /** Items quarantined with `mode: skip`, not started: the report names them with their reason. */
  skipped?: readonly SkippedItem[];
}

/** An item quarantined with `mode: skip`, which no step started. */
export interface SkippedItem {
  name: string;
  reason: string;
}

export type ItemOf<P extends TestPlan> = P['items'][number];

/** What the step publishes of its results, in the action's words. */
export interface ResultsReport<O extends Outputs> {
  outputs(resultsFile: string): O;
  /** Blocks with the jobs as ranked rows, which the host cuts to the summary's limit, or a string. */
  summary: ReportText;
  /** Every item's result, written redacted to the results file. */
  resultsData: unknown;
  junitSuites(): JUnitTestSuite[];
  failure?: Failure;
  comment?: PullRequestComment;
  /**
   * With `check-name`: the check run's name and its Markdown summary (the comment's body serves);
   * the engine adds the conclusion and an annotation per failed job.
   */
  check?: { name: string; summary: string };
  /** The log line that tells how the jobs came out. */
  tallyLine?: string;
  /**
   * A failed job that does not fail the step (quarantined, or still failing under `fail-on: new`):
   * annotated as a warning, not an error.
   */
  reportOnly?: (job: ReportedJob) => boolean;
  /** More to publish once the files are written, such as the jobs' assets as an artifact. */
  artifacts?(): Promise<void>;
  /** With `issues`: the cases' GitHub issues, which the engine adds and the GitHub host writes. */
  issues?: IssueFiling;
}

export interface TestRunAdapter<P extends TestPlan, R, B extends Batch<R>, O extends Outputs> {
  /** How the action names its items in the engine's messages: `cases`, `platforms`. */
  itemsName: string;
  /** What to run. What fails here fails the step, before anything was started. */
  plan(signal: AbortSignal, startedAtMs: number): Promise<P>;
  /** A batch of the plan's items, to be started: all of them first, those that failed on a retry. */
  batch(plan: P, items: readonly ItemOf<P>[], attempt: number): B;
  /** The items of a round that finished to run again, said in the log; none ends the retries. */
  retryItems(plan: P, round: Round<R, B>): ItemOf<P>[];
  report(plan: P, run: TestRun<R, B>, signal: AbortSignal): ResultsReport<O>;
  /** How an item is named for good in its history; default: its item and platform. */
  historyItem?: HistoryItemOf<R>;
}

export interface TestRunOptions<W extends object = object> {
  /** Names the results file, `<name>-<step id>.json` in the runner's temporary folder: one per step. */
  name: string;
  timeoutMs: number;
  /** Times a failed item is run again. */
  retries: number;
  /** Stop the rest as soon as a run failed with no attempt left. */
  failFast?: boolean;
  /** Failed jobs are errors (the step fails), or only warnings. */
  failOnFailure: boolean;
  junitFile?: string;
  /**
   * Where the post step finds what the step left running (the batches' running record, in the
   * format the post step reads, with the place it runs): none when nothing is to be stopped.
   */
  postStep?: { format: RunningRecordFormat<W>; place: ServicePlace };
  /** The step's shard of a matrix: the shards plan one after another (`planTurnMs`). */
  shard?: { index: number; total: number } | undefined;
  /** Compare with the series' earlier runs, and keep this run's record: none for a shard. */
  history?: HistoryOptions | undefined;
}

/** A run found in the service by a report of a workflow run: when it was created orders the attempts. */
export interface GatheredRun<R = unknown> extends Run<R> {
  item: string;
  /**
   * The service's creation time (any unit; null when unknown): an item's runs on one platform,
   * oldest first, are its attempts.
   */
  createdAt: number | null;
}

/** An item the steps of the workflow run were to run: one that no step ran is reported as not run. */
export interface ExpectedItem {
  item: string;
  name: string;
}

/** What a report of a workflow run found: every run of its steps, of every shard and attempt. */
export interface Gathered<R = unknown> {
  runs: readonly GatheredRun<R>[];
  /** Why `runs` may miss some: the search's listing failed part way (`findBuildJobs`' `failure`). */
  incomplete?: string | undefined;
  /** Every item of the steps (the suite's cases, the platforms), in the order the report lists them. */
  expected: readonly ExpectedItem[];
  /** As `TestPlan.skipped`. */
  skipped?: readonly SkippedItem[];
}

/**
 * A report of a workflow run (`operation: report`): instead of planning, starting and following,
 * it gathers the runs of the workflow run's steps from the service, and publishes them as one
 * run's results.
 */
export interface GatherAdapter<G extends Gathered<R>, R, O extends Outputs> {
  /** Finds the runs. What fails here fails the step. */
  gather(signal: AbortSignal, startedAtMs: number): Promise<G>;
  /** `results` holds a failure with no record (`notRunJob`) for each item no step ran, `notRun`. */
  report(
    gathered: G,
    results: TestResults<R | undefined>,
    notRun: readonly ExpectedItem[],
    signal: AbortSignal,
  ): ResultsReport<O>;
  /** As `TestRunAdapter.historyItem`. */
  historyItem?: HistoryItemOf<R | undefined>;
}

/** The options of a report of a workflow run: what `TestRunOptions` has that applies. */
export type GatherOptions = Pick<
  TestRunOptions,
  'name' | 'timeoutMs' | 'failOnFailure' | 'junitFile' | 'history'
>;

/** A quarantine entry as the comparison needs it. */
export interface Quarantined {
  reason: string;
  mode: 'run' | 'skip';
}

/** What a test step compares its results with, and how. */
export interface HistoryOptions {
  /** `history`: the earlier runs compared with; 0 turns the comparison off. */
  runs: number;
  failOn: 'any' | 'new';
  /** The `default-branch` input, over what the CI system says. */
  defaultBranch?: string | undefined;
  /** What the step runs (a suite, chosen cases, a page on platforms): its series' token. */
  runsWhat: string;
  /** The run's name in its message and its issues' titles. */
  title: string;
  /** The quarantine entry that matches an item, if one does. */
  quarantineOf?: (item: { id: string; name: string }) => Quarantined | undefined;
  jobs: HistoryJobs & RecordWriter;
  /** Local ms to the service's clock, which the records' times are on. */
  serviceTime: (localMs: number) => number;
  /** The run's message and its issues (`notify-url`, `issues`). */
  notify?: NotifyInputs;
}

/** How the adapter names an item for good, and for people. */
export type HistoryItemOf<R> = (result: ItemResult<R>) => { item: string; name: string };
