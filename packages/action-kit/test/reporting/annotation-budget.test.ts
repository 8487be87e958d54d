/**
 * Annotations within what the runner shows of a step (10 of each level, the rest dropped in the
 * order emitted): the step's failure counted first, then the action's in its order, then one
 * notice a group counting the rest.
 */
import { describe, expect, it } from 'vitest';
import {
  ANNOTATIONS_PER_LEVEL,
  planAnnotations,
  type AnnotationPlanInput,
} from '../../src/reporting/annotation-budget.ts';
import type { Annotation } from '../../src/reporting/result.ts';

const failedJobs = { one: 'failed job', other: 'failed jobs' };
const flakyJobs = { one: 'flaky job', other: 'flaky jobs' };
const errors = (count: number, level: Annotation['level'] = 'error'): Annotation[] =>
  Array.from({ length: count }, (_, n) => ({ level, message: `job ${n} failed`, group: failedJobs }));
const flaky = (count: number): Annotation[] =>
  Array.from({ length: count }, (_, n) => ({
    level: 'warning',
    message: `job ${n} is flaky`,
    group: flakyJobs,
  }));
const ofLevel = (annotations: readonly Annotation[], level: Annotation['level']) =>
  annotations.filter((annotation) => annotation.level === level);

describe('planAnnotations', () => {
  it.each<
    [string, AnnotationPlanInput, { errors: number; warnings: number; notices: string[]; leftOut: number }]
  >([
    [
      'a few, all shown',
      { annotations: errors(3), failure: true },
      { errors: 3, warnings: 0, notices: [], leftOut: 0 },
    ],
    [
      '9 errors and the failure: all shown',
      { annotations: errors(9), failure: true },
      { errors: 9, warnings: 0, notices: [], leftOut: 0 },
    ],
    [
      '1,000 failed jobs and the failure: 9 shown after it, one notice for the rest',
      { annotations: errors(1_000), failure: true },
      { errors: 9, warnings: 0, notices: ['991 more failed jobs: see the summary.'], leftOut: 991 },
    ],
    [
      '11 failed jobs as warnings (fail-on-failure off), no failure',
      { annotations: errors(11, 'warning'), failure: false },
      { errors: 0, warnings: 10, notices: ['1 more failed job: see the summary.'], leftOut: 1 },
    ],
    [
      'warnings already used by the log, and one kept for the comment',
      { annotations: flaky(10), failure: false, used: { warning: 4 }, reserve: { warning: 1 } },
      { errors: 0, warnings: 5, notices: ['5 more flaky jobs: see the summary.'], leftOut: 5 },
    ],
    [
      'failed and flaky past the limit, and warnings the log wrote as plain lines',
      { annotations: [...errors(20), ...flaky(12)], failure: true, used: { warning: 8 }, loggedOnly: 3 },
      {
        errors: 9,
        warnings: 2,
        notices: [
          '11 more failed jobs: see the summary.',
          '10 more flaky jobs: see the summary.',
          '3 more warnings: see the log.',
        ],
        leftOut: 21,
      },
    ],
    [
      'ungrouped annotations past the limit, counted for the log',
      {
        annotations: Array.from({ length: 12 }, (_, n): Annotation => ({
          level: 'warning',
          message: `w${n}`,
        })),
        failure: false,
      },
      { errors: 0, warnings: 10, notices: ['2 more warnings: see the log.'], leftOut: 2 },
    ],
  ])('%s', (_, input, expected) => {
    const { shown, leftOut } = planAnnotations(input);
    expect(ofLevel(shown, 'error')).toHaveLength(expected.errors);
    expect(ofLevel(shown, 'warning')).toHaveLength(expected.warnings);
    expect(ofLevel(shown, 'notice').map((notice) => notice.message)).toEqual(expected.notices);
    expect(leftOut).toHaveLength(expected.leftOut);
    // With the failure and what the log used, no level goes past what the runner shows.
    const used = (level: Annotation['level']) =>
      ofLevel(shown, level).length +
      (input.used?.[level] ?? 0) +
      (input.reserve?.[level] ?? 0) +
      (level === 'error' && input.failure ? 1 : 0);
    for (const level of ['error', 'warning', 'notice'] as const)
      expect(used(level)).toBeLessThanOrEqual(ANNOTATIONS_PER_LEVEL);
  });

  it('keeps the action’s order: the first (worst) annotations are the ones shown', () => {
    const { shown, leftOut } = planAnnotations({ annotations: errors(30), failure: true });
    expect(ofLevel(shown, 'error').map((annotation) => annotation.message)).toEqual(
      Array.from({ length: 9 }, (_, n) => `job ${n} failed`),
    );
    expect(leftOut[0]?.message).toBe('job 9 failed');
  });

  it('puts the notices counting the rest before the action’s own notices when room is short', () => {
    const notices = Array.from({ length: 10 }, (_, n): Annotation => ({ level: 'notice', message: `n${n}` }));
    const { shown } = planAnnotations({ annotations: [...errors(12), ...notices], failure: true });
    const shownNotices = ofLevel(shown, 'notice').map((notice) => notice.message);
    expect(shownNotices).toHaveLength(ANNOTATIONS_PER_LEVEL);
    expect(shownNotices).toContain('3 more failed jobs: see the summary.');
  });
});
