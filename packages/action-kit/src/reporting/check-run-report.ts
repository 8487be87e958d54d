/**
 * What a step puts in its check run (`check-name`), as the step's result carries it to the host,
 * which writes it (`check-run.ts`). Types only, so that the result imports nothing of the writing.
 */

export type CheckConclusion = 'success' | 'failure' | 'neutral' | 'cancelled' | 'timed_out';

/** An annotation of the check run: a failed test case, a failed platform. */
export interface CheckAnnotation {
  level: 'failure' | 'warning' | 'notice';
  title: string;
  message: string;
  /** Longer text shown when the annotation is opened (the job's link, the error). */
  details?: string;
}

/** What a step puts in its check run; the host adds where it goes (the commit, the file annotated). */
export interface CheckRunReport {
  /** The `check-name` input: the same whatever the shard count, so that branch protection can require it. */
  name: string;
  conclusion: CheckConclusion;
  /** One line: the counts. */
  title: string;
  /** GitHub-flavoured Markdown, values escaped; cut to `MAX_CHECK_SUMMARY` when longer. */
  summary: string;
  annotations: readonly CheckAnnotation[];
}
