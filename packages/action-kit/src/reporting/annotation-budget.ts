/**
 * Annotations within what the runner shows: 10 errors, 10 warnings and 10 notices a step, the rest
 * dropped in the order emitted. The step's failure is an error annotation too (the toolkit's
 * `setFailed`), and the one that says why the step failed, so it goes first and is counted; then
 * an action's annotations in its order (the worst first), and for those past the limit one notice
 * per group: `990 more failed jobs: see the summary`. The host writes what was left out to the log.
 */
import type { Annotation, AnnotationGroup } from './result.ts';

/** What the runner shows of each level in a step. */
export const ANNOTATIONS_PER_LEVEL = 10;

type Level = Annotation['level'];
export type AnnotationCounts = Record<Level, number>;

export interface AnnotationPlanInput {
  annotations: readonly Annotation[];
  /** Whether the step fails: its failure is an error annotation, the first. */
  failure: boolean;
  /** Annotations the step made already, such as its log's warnings. */
  used?: Partial<AnnotationCounts>;
  /** Annotations kept free for later, such as the warning of a comment that could not be written. */
  reserve?: Partial<AnnotationCounts>;
  /** Warnings the log wrote as plain lines, when the step's warnings were used up. */
  loggedOnly?: number;
}

export interface AnnotationPlan {
  /** What to annotate after the failure, in order: the annotations kept, then the notices counting the rest. */
  shown: Annotation[];
  /** The annotations left out, for the log. */
  leftOut: Annotation[];
}

const UNGROUPED: Record<Level, AnnotationGroup> = {
  error: { one: 'error', other: 'errors' },
  warning: { one: 'warning', other: 'warnings' },
  notice: { one: 'notice', other: 'notices' },
};

interface Overflow {
  group: AnnotationGroup;
  count: number;
  /** Grouped annotations are about items of the summary; others are only in the log. */
  where: 'the summary' | 'the log';
}

export function planAnnotations(input: AnnotationPlanInput): AnnotationPlan {
  const room = (level: Level): number =>
    Math.max(
      0,
      ANNOTATIONS_PER_LEVEL -
        (input.used?.[level] ?? 0) -
        (input.reserve?.[level] ?? 0) -
        (level === 'error' && input.failure ? 1 : 0),
    );
  const overflows = new Map<string, Overflow>();
  const overflow = (group: AnnotationGroup, where: Overflow['where'], count = 1): void => {
    const key = `${group.other}\u0000${where}`;
    const known = overflows.get(key);
    if (known) known.count += count;
    else overflows.set(key, { group, count, where });
  };
  const kept = new Set<Annotation>();
  const leftOut: Annotation[] = [];
  for (const level of ['error', 'warning'] as const) {
    const ofLevel = input.annotations.filter((annotation) => annotation.level === level);
    ofLevel.slice(0, room(level)).forEach((annotation) => kept.add(annotation));
    for (const annotation of ofLevel.slice(room(level))) {
      leftOut.push(annotation);
      overflow(annotation.group ?? UNGROUPED[level], annotation.group ? 'the summary' : 'the log');
    }
  }
  if ((input.loggedOnly ?? 0) > 0) overflow(UNGROUPED.warning, 'the log', input.loggedOnly);

  // The notices that count the rest come first among notices: they stand for more.
  const notices = input.annotations.filter((annotation) => annotation.level === 'notice');
  const noticeRoom = room('notice');
  const free = noticeRoom - overflows.size;
  const keptNotices = free >= notices.length ? notices : notices.slice(0, Math.max(0, free - 1));
  keptNotices.forEach((annotation) => kept.add(annotation));
  for (const annotation of notices.slice(keptNotices.length)) {
    leftOut.push(annotation);
    overflow(annotation.group ?? UNGROUPED.notice, annotation.group ? 'the summary' : 'the log');
  }
  return {
    shown: [
      ...input.annotations.filter((annotation) => kept.has(annotation)),
      ...overflowNotices([...overflows.values()], noticeRoom),
    ],
    leftOut,
  };
}

/** One notice a group, or one for them all when there are more groups than notices left. */
function overflowNotices(overflows: readonly Overflow[], room: number): Annotation[] {
  if (room <= 0 || overflows.length === 0) return [];
  const notice = (message: string): Annotation => ({ level: 'notice', message });
  if (overflows.length > room) {
    const count = overflows.reduce((sum, { count: n }) => sum + n, 0);
    return [notice(`${count} more annotations: see the summary and the log.`)];
  }
  return overflows.map(({ group, count, where }) =>
    notice(`${count} more ${count === 1 ? group.one : group.other}: see ${where}.`),
  );
}
