/** What a promotion reports: its outputs, and a summary of what the step read and decided. */
import { formatDuration, SummaryBuilder } from '@sauce-actions/action-kit';
import type { Decision, GateRow } from './decision.ts';
import type { ReadEvidence } from './evidence.ts';
import { FEEDBACK_WINDOW } from './evidence.ts';
import type { RingRecord } from './ring-record.ts';

export type PromoteOutputs = {
  /** `promoted`, `held` or `done`; empty when the step failed before deciding. */
  decision: string;
  /** The ring the build is in after the step. */
  ring: string;
  /** Why, one sentence a line. */
  reasons: string;
  'build-id': string;
};

/** Feedbacks the summary lists at most. */
const LISTED_FEEDBACKS = 20;

export interface PromotionReport {
  projectId: string;
  buildId: string;
  rings: readonly string[];
  decision: Decision;
  record?: RingRecord;
  evidence: ReadEvidence;
  dryRun: boolean;
  nowMs: number;
}

export function ringAfter(decision: Decision): string {
  return decision.decision === 'promoted' ? (decision.to ?? '') : (decision.from ?? '');
}

export function promotionOutputs(report: PromotionReport): PromoteOutputs {
  return {
    decision: report.decision.decision,
    ring: ringAfter(report.decision),
    reasons: report.decision.reasons.join('\n'),
    'build-id': report.buildId,
  };
}

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function headline(report: PromotionReport): string {
  const { decision } = report;
  const build = `Build ${report.buildId}`;
  const would = report.dryRun ? ' (dry run: nothing changed)' : '';
  if (decision.decision === 'promoted') {
    return `${build}: ${report.dryRun ? 'would be promoted' : 'promoted'} ${decision.from !== undefined ? `from ${decision.from} ` : ''}to ${decision.to}${would}`;
  }
  if (decision.decision === 'done') return `${build}: done, in the last ring (${decision.from})`;
  return `${build}: held in ${decision.from ?? 'no ring'}${would}`;
}

function gateCells(row: GateRow): string[] {
  return [row.input, row.needed, row.seen, row.pass ? '✅ passes' : '❌ holds'];
}

export function promotionSummary(report: PromotionReport): string {
  const { decision, record, evidence } = report;
  const builder = new SummaryBuilder().heading(headline(report)).facts([
    ['Project id', report.projectId],
    ['Build id', report.buildId],
    ['Rings', report.rings.join(' → ')],
    ['Ring', record?.ring ?? 'none yet'],
    [
      'In it since',
      record !== undefined ? `${iso(record.sinceMs)}, moved by ${record.by || 'an unknown step'}` : undefined,
    ],
    [
      'Soak left',
      decision.soakedAtMs !== undefined
        ? `${formatDuration(Math.ceil((decision.soakedAtMs - report.nowMs) / 60_000) * 60_000)}, until ${iso(decision.soakedAtMs)}`
        : undefined,
    ],
  ]);
  builder.heading('Why', 3);
  for (const reason of decision.reasons) builder.paragraph(reason);
  if (decision.gates.length > 0) {
    builder
      .heading('Gate', 3)
      .table(['Gate', 'Needed', 'Seen in the ring', 'Verdict'], decision.gates.map(gateCells));
  }
  // The feedback is read for a gate only: a build moving on from its ring.
  if (record !== undefined && decision.gates.length > 0) {
    builder.heading(`Feedback since ${iso(record.sinceMs)}`, 3);
    const shown = evidence.feedbacks.slice(0, LISTED_FEEDBACKS);
    builder.list(
      shown.map(
        (feedback) => `${iso(feedback.atMs)} ${feedback.by ? `${feedback.by}: ` : ''}${feedback.text}`,
      ),
      'No feedback of the build since it entered its ring.',
    );
    if (evidence.feedbacks.length > shown.length) {
      builder.paragraph(`And ${evidence.feedbacks.length - shown.length} more.`);
    }
    if (evidence.windowFull) {
      builder.paragraph(
        `The service lists the account's latest ${FEEDBACK_WINDOW} feedbacks only, and all of them are newer than the ring's start: older feedback of the build may be missing here. The gate counts the build's own feedback counter where it is higher.`,
      );
    }
  }
  return builder.toString();
}
