/**
 * The inputs that compare a test run with the earlier runs of the default branch: how many to
 * compare with, which failures fail the step, the default branch where the CI system does not
 * say it, the quarantine file, and who is told of what changed (`notify-inputs.ts`). Read the same way by both test actions, in every operation,
 * and checked before any request.
 */
import { InputError, quoteValue } from '../step/input-error.ts';
import { optionalProperty } from '../values/optional-property.ts';
import type { InputReader } from './inputs.ts';
import { NO_NOTIFY, readNotifyInputs, type NotifyInputs } from './notify-inputs.ts';
import { readQuarantineFile } from './quarantine-file.ts';
import type { QuarantineEntry } from './quarantine-entry.ts';

/** `any`: every failure fails the step; `new`: only new failures do, still-failing ones are reported. */
export const FAIL_ON = ['any', 'new'] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** Earlier runs compared with when `history` is empty. */
export const DEFAULT_HISTORY_RUNS = 10;
/** Each earlier run is one request to read back: more would slow every step for little. */
export const MAX_HISTORY_RUNS = 50;

export interface HistoryInputs {
  /** Earlier runs of the default branch to compare with; 0 turns the comparison off. */
  runs: number;
  failOn: FailOn;
  /** The repository's default branch as the input names it; it overrides the CI system's. */
  defaultBranch?: string;
  quarantine: {
    /** The file as the input names it, or the default; none when no file was read. */
    file?: string;
    /** The entries in force. */
    entries: QuarantineEntry[];
    /** The entries past their last day, ignored with a warning. */
    expired: QuarantineEntry[];
  };
  /** The run's message and its issues, sent by the step that has the whole run. */
  notify: NotifyInputs;
}

/** No comparison and no quarantine: for tests and programs that build inputs by hand. */
export const NO_HISTORY: HistoryInputs = {
  runs: 0,
  failOn: 'any',
  quarantine: { entries: [], expired: [] },
  notify: NO_NOTIFY,
};

export interface HistoryReadOptions {
  /** Where the quarantine file is looked for. */
  workspace: string;
  /** Today in UTC, `YYYY-MM-DD`, which decides the entries that expired. */
  today: string;
}

const BRANCH_FORM =
  'a git branch name, such as `main` or `release/2.x`: no spaces, control characters, `..`, `@{` or any of `~ ^ : ? * [ \\`; not starting with `-` nor ending with `.`; each part between `/` not empty, not starting with `.` nor ending with `.lock`';

/** The first of git's refusals of a branch name (`git check-ref-format --branch`) that applies. */
const BRANCH_PROBLEMS: readonly [RegExp, string][] = [
  [/\p{Cc}/u, 'which holds a control character'],
  [/\s/, 'which holds a space'],
  [/^-/, 'which starts with `-`, as an option of git does'],
  [/\.\./, 'which holds `..`'],
  [/[~^:?*[\\]/, 'which holds one of `~ ^ : ? * [ \\`'],
  [/@\{/, 'which holds `@{`'],
  [/^@$/, "which is `@`, git's name of the current commit"],
  [/(^|\/)\./, 'which has a part starting with `.`'],
  [/\/\/|^\/|\/$/, 'which has an empty part between `/`'],
  [/\.lock(\/|$)/, 'which has a part ending with `.lock`'],
  [/\.$/, 'which ends with `.`'],
];

export async function readHistoryInputs(
  read: InputReader,
  options: HistoryReadOptions,
): Promise<HistoryInputs> {
  const runs = read.integer('history', DEFAULT_HISTORY_RUNS, {
    min: 0,
    max: MAX_HISTORY_RUNS,
    what: 'a whole number of earlier runs (`0` turns the comparison off)',
  });
  const failOn = read.enum('fail-on', FAIL_ON, 'any');
  const defaultBranch = read.string('default-branch');
  if (defaultBranch !== undefined) checkBranchName('default-branch', defaultBranch);
  const notify = readNotifyInputs(read);
  const found = await readQuarantineFile(options.workspace, read.string('quarantine-file'));
  // The YAML parser loads only for a step that has a quarantine file.
  const quarantine = found
    ? {
        file: found.file,
        ...(await import('./quarantine.ts')).parseQuarantine(found.text, {
          file: found.file,
          today: options.today,
        }),
      }
    : { entries: [], expired: [] };
  return { runs, failOn, ...optionalProperty('defaultBranch', defaultBranch), quarantine, notify };
}

function checkBranchName(input: string, name: string): void {
  const problem = BRANCH_PROBLEMS.find(([pattern]) => pattern.test(name))?.[1];
  if (problem !== undefined) throw new InputError(input, `has ${quoteValue(name)}, ${problem}`, BRANCH_FORM);
}
