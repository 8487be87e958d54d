/**
 * A check run of a step's results (`check-name`): one per step and name, with its conclusion, a
 * summary within the Checks API's 65,535 characters, and one annotation per failed item, sent 50
 * to a request as the API allows: the create carries the first 50, updates the rest (each update
 * appends its annotations to those before). A step run again creates a new check run of the same
 * name, as GitHub does for a job run again, and the pull request shows the newest: updating the
 * old one instead would keep its annotations, since updates only add to them. The requests are
 * pure functions of the report; `@actions/github` loads only when a check run is written.
 */
import { redactSecrets } from '../step/secrets.ts';
import { commentLimit, fitText, type TextLimit } from './budget.ts';
import type { CheckAnnotation, CheckConclusion, CheckRunReport } from './check-run-report.ts';
import { githubClient, sender, type CommentOptions } from './pull-request-comment.ts';

export type { CheckAnnotation, CheckConclusion, CheckRunReport } from './check-run-report.ts';

/** Where the check run goes, as the host reads it from the runner's environment and event. */
export interface CheckRunTarget {
  token: string;
  /** `owner/name`. */
  repository: string;
  /** The commit the check run is on: the run's head commit, or the pull request's. */
  headSha: string;
  apiUrl: string;
  /** The file annotations point at (the workflow's), since a test case has no line of the repository. */
  annotationPath: string;
  /** The workflow run's page, linked from the check run. */
  detailsUrl?: string;
}

/** GitHub refuses a check run's `summary` (and `text`) longer than this. */
export const MAX_CHECK_SUMMARY = 65_535;
/** Annotations per request at most: more go in updates of the check run. */
const ANNOTATIONS_PER_REQUEST = 50;
/** Annotations written at most: a check run past a few hundred is unread; the summary lists the rest. */
const MAX_ANNOTATIONS = 1000;
/** GitHub's limits on an annotation's parts (64 KB for texts; kept well under it). */
const MAX_TITLE = 255;
const MAX_MESSAGE = 4000;
const MAX_TITLE_LINE = 1000;

type CheckRunOutput = {
  title: string;
  summary: string;
  annotations: {
    path: string;
    start_line: number;
    end_line: number;
    annotation_level: CheckAnnotation['level'];
    title: string;
    message: string;
    raw_details?: string;
  }[];
};

/** The body of the create, and of each update that adds the annotations past the first 50. */
export interface CheckRunRequests {
  create: {
    name: string;
    head_sha: string;
    status: 'completed';
    conclusion: CheckConclusion;
    details_url?: string;
    output: CheckRunOutput;
  };
  updates: { output: CheckRunOutput }[];
}

/** The requests that write the check run: every text redacted and within GitHub's limits. */
export function checkRunRequests(
  check: CheckRunReport,
  target: Pick<CheckRunTarget, 'headSha' | 'annotationPath' | 'detailsUrl'>,
): CheckRunRequests {
  const title = cut(redactSecrets(check.title), MAX_TITLE_LINE);
  const summary = checkSummary(redactSecrets(check.summary));
  const kept = check.annotations.slice(0, MAX_ANNOTATIONS);
  const annotations = kept.map((annotation) => ({
    path: target.annotationPath,
    start_line: 1,
    end_line: 1,
    annotation_level: annotation.level,
    title: cut(redactSecrets(annotation.title), MAX_TITLE),
    message: cut(redactSecrets(annotation.message), MAX_MESSAGE),
    ...(annotation.details !== undefined
      ? { raw_details: cut(redactSecrets(annotation.details), MAX_MESSAGE) }
      : {}),
  }));
  const batches: CheckRunOutput['annotations'][] = [];
  for (let start = 0; start < annotations.length; start += ANNOTATIONS_PER_REQUEST) {
    batches.push(annotations.slice(start, start + ANNOTATIONS_PER_REQUEST));
  }
  const output = (batch: CheckRunOutput['annotations']): CheckRunOutput => ({
    title,
    summary,
    annotations: batch,
  });
  return {
    create: {
      name: check.name,
      head_sha: target.headSha,
      status: 'completed',
      conclusion: check.conclusion,
      ...(target.detailsUrl !== undefined ? { details_url: target.detailsUrl } : {}),
      output: output(batches[0] ?? []),
    },
    updates: batches.slice(1).map((batch) => ({ output: output(batch) })),
  };
}

/** A check run's summary, cut as a comment is, to the Checks API's limit. */
const CHECK_SUMMARY_LIMIT: TextLimit = {
  ...commentLimit(MAX_CHECK_SUMMARY),
  what: 'check run summary',
  limitText: '65,535 characters',
  elsewhere: 'the step summary and the results file have everything',
};

/** The summary within `MAX_CHECK_SUMMARY`, cut at a line end with a line saying so. */
export function checkSummary(summary: string): string {
  return fitText(summary, CHECK_SUMMARY_LIMIT).text;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

interface WrittenCheckRun {
  id: number;
  url: string;
  annotations: number;
}

/** Creates the check run, then adds the annotations past the first 50, update by update. */
export async function writeCheckRun(
  target: CheckRunTarget,
  check: CheckRunReport,
  options: Omit<CommentOptions, 'maxPages'>,
): Promise<WrittenCheckRun> {
  const [owner = '', repo = ''] = target.repository.split('/');
  const requests = checkRunRequests(check, target);
  const octokit = await githubClient(target, options.logger);
  const send = sender(options);
  const created = await send('create the check run', 'POST', (signal) =>
    octokit.request('POST /repos/{owner}/{repo}/check-runs', {
      owner,
      repo,
      ...requests.create,
      request: { signal },
    }),
  );
  const id = Number(created.data.id);
  let written = requests.create.output.annotations.length;
  for (const update of requests.updates) {
    // Sent once, as a create is: a repeat after a cut connection could add its annotations twice.
    await send('add annotations to the check run', 'POST', (signal) =>
      octokit.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', {
        owner,
        repo,
        check_run_id: id,
        ...update,
        request: { signal },
      }),
    );
    written += update.output.annotations.length;
  }
  return { id, url: String(created.data.html_url ?? ''), annotations: written };
}
