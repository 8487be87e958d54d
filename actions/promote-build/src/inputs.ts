/** The inputs of promote-build, read and checked before anything is sent. */
import {
  InputError,
  optionalProperty,
  readMobileConnection,
  type InputReader,
  type MobileConnection,
} from '@sauce-actions/action-kit';
import { readBuildChoice, type BuildChoice } from '@sauce-actions/action-kit/inputs/build-choice';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** `soak`: at least a minute, at most a year (a longer one is more likely a slip of the unit). */
export const SOAK_BOUNDS = { minMs: MINUTE, maxMs: 365 * DAY };
export const DEFAULT_SOAK_MS = DAY;

/** Counts a gate takes: a whole number from 0, far below what a build ever sees. */
const MAX_COUNT = 1_000_000_000;

/** What a build must show in its ring before it moves on, each counted since it entered the ring. */
export interface Gate {
  minSessions: number;
  maxCrashes: number;
  /** No limit when absent. */
  maxFeedbacks?: number;
}

export interface PromoteInputs extends BuildChoice {
  connection: MobileConnection;
  projectId: string;
  /** Tester group names, in the order a build moves through them: one at least. */
  rings: [string, ...string[]];
  soakMs: number;
  gate: Gate;
  /** Email the new ring's testers. */
  notify: boolean;
  /** Decide and report; change nothing. */
  dryRun: boolean;
}

export function readInputs(read: InputReader): PromoteInputs {
  const connection = readMobileConnection(read, { needsEmail: true });
  const projectId = read.id('project-id', 'positive-integer', {
    required: true,
    hint: 'the `project-id` output of upload-build',
  });
  const maxFeedbacks = read.integer('max-feedbacks', undefined, {
    min: 0,
    max: MAX_COUNT,
    what: 'a whole number of feedbacks, or empty for no limit',
  });
  return {
    connection,
    projectId,
    ...readBuildChoice(read),
    rings: readRings(read),
    soakMs: read.duration('soak', DEFAULT_SOAK_MS, SOAK_BOUNDS),
    gate: {
      minSessions: read.integer('min-sessions', 0, {
        min: 0,
        max: MAX_COUNT,
        what: 'a whole number of sessions',
      }),
      maxCrashes: read.integer('max-crashes', 0, {
        min: 0,
        max: MAX_COUNT,
        what: 'a whole number of crashes',
      }),
      ...optionalProperty('maxFeedbacks', maxFeedbacks),
    },
    notify: read.boolean('notify', false),
    dryRun: read.boolean('dry-run', false),
  };
}

const RINGS_FORM = 'tester group names in the order a build moves through them, such as `qa, beta, public`';

function readRings(read: InputReader): [string, ...string[]] {
  const rings = read.list('rings');
  const [first, ...others] = rings;
  if (first === undefined) throw new InputError('rings', 'is required but was empty', RINGS_FORM);
  const twice = rings.find((ring, at) => rings.indexOf(ring) !== at);
  if (twice !== undefined) {
    throw new InputError('rings', `names ${JSON.stringify(twice)} twice`, `${RINGS_FORM}, each once`);
  }
  return [first, ...others];
}
