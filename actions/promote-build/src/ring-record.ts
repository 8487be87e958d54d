/**
 * What promote-build keeps on the build itself, so that any later step (a re-run, another
 * schedule, a step after one that was killed) knows where the build stands: its custom metadata
 * holds the ring, when it entered it on the service's clock, who moved it, and its counters then
 * (the gates count from them); a tag `ring-<name>` shows the ring in lists. A claim, written
 * before a promotion and cleared by it, keeps two steps from promoting the same build at once.
 */
import { oneLine } from '@sauce-actions/action-kit/reporting/one-line';
import { buildMetadataOf, buildTagsOf, type MobileBuild } from '@sauce-actions/api';

/** The metadata keys of the record. */
export const RECORD_KEYS = {
  ring: 'sauce_ring',
  since: 'sauce_ring_since',
  by: 'sauce_ring_by',
  sessions: 'sauce_ring_sessions',
  crashes: 'sauce_ring_crashes',
  feedbacks: 'sauce_ring_feedbacks',
  claim: 'sauce_ring_claim',
} as const;

/** The tag of a build's ring. */
export const RING_TAG_PREFIX = 'ring-';

/** The counters a gate reads, as the build shows them. */
export interface Counters {
  sessions: number;
  crashes: number;
  feedbacks: number;
}

export interface RingRecord {
  ring: string;
  /** When the build entered the ring, on the service's clock (ms since the epoch). */
  sinceMs: number;
  /** Who moved it there: a workflow run's address, or the step's words. */
  by: string;
  /** Its counters when it entered the ring. */
  at: Counters;
}

/** A promotion under way: the ring it goes to, the step's token, when it was claimed. */
export interface Claim {
  to: string;
  token: string;
  atMs: number;
}

export interface BuildStanding {
  record?: RingRecord;
  claim?: Claim;
  counters: Counters;
  tags: string[];
}

function count(value: unknown): number {
  const number = Number(value);
  return Number.isSafeInteger(number) && number >= 0 ? number : 0;
}

/** Where the build stands, from what the service answers of it. */
export function standingOf(build: MobileBuild): BuildStanding {
  const metadata = buildMetadataOf(build) ?? {};
  const counters = {
    sessions: count(build.sessions),
    crashes: count(build.crashes),
    feedbacks: count(build.feedbacks),
  };
  const record = recordOf(metadata);
  const claim = claimOf(metadata[RECORD_KEYS.claim]);
  return {
    ...(record !== undefined ? { record } : {}),
    ...(claim !== undefined ? { claim } : {}),
    counters,
    tags: buildTagsOf(build) ?? [],
  };
}

function recordOf(metadata: Record<string, string>): RingRecord | undefined {
  // The service's words, shown in the log, the outputs and the summary: one line each.
  const ring = oneLine(metadata[RECORD_KEYS.ring] ?? '');
  const sinceMs = Date.parse(metadata[RECORD_KEYS.since] ?? '');
  if (!ring || !Number.isFinite(sinceMs)) return undefined;
  return {
    ring,
    sinceMs,
    by: oneLine(metadata[RECORD_KEYS.by] ?? ''),
    at: {
      sessions: count(metadata[RECORD_KEYS.sessions]),
      crashes: count(metadata[RECORD_KEYS.crashes]),
      feedbacks: count(metadata[RECORD_KEYS.feedbacks]),
    },
  };
}

function claimOf(value: string | undefined): Claim | undefined {
  const [to, token, at] = oneLine(value ?? '').split(' ');
  const atMs = Date.parse(at ?? '');
  return to && token && Number.isFinite(atMs) ? { to, token, atMs } : undefined;
}

/** The metadata of a claim, and of none. */
export function claimMetadata(claim: Claim | undefined): Record<string, string> {
  return {
    [RECORD_KEYS.claim]: claim ? `${claim.to} ${claim.token} ${new Date(claim.atMs).toISOString()}` : '',
  };
}

/** The metadata and the tags of a build once it entered `record.ring`; the claim cleared. */
export function recordChanges(
  record: RingRecord,
  tags: readonly string[],
): { metadata: Record<string, string>; tags: string[] } {
  return {
    metadata: {
      [RECORD_KEYS.ring]: record.ring,
      [RECORD_KEYS.since]: new Date(record.sinceMs).toISOString(),
      [RECORD_KEYS.by]: record.by,
      [RECORD_KEYS.sessions]: String(record.at.sessions),
      [RECORD_KEYS.crashes]: String(record.at.crashes),
      [RECORD_KEYS.feedbacks]: String(record.at.feedbacks),
      ...claimMetadata(undefined),
    },
    tags: [...tags.filter((tag) => !tag.startsWith(RING_TAG_PREFIX)), ringTag(record.ring)],
  };
}

/** `ring-beta`: the ring's name with anything but letters, digits, `.`, `_` and `-` as `-`. */
export function ringTag(ring: string): string {
  return `${RING_TAG_PREFIX}${ring.replace(/[^\w.-]+/g, '-')}`;
}
