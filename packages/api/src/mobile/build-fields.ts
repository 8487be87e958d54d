/**
 * What a build's answer says of its tags and custom metadata, read defensively: the interface
 * documents them in the upload's answer (`tags` an array, `metadata` an array) and the update's
 * (`metadata` an object), not among a build's listed fields, so whatever form arrives is taken
 * and anything else counts as absent. And which build of a list is the newest.
 */
import { parseServiceTime, SERVICE_TIME_FORMS } from '../core/values/service-time.ts';
import type { MobileBuild } from './build-types.ts';

type Id = string | number;

/** The tags of a build: an array of names or a comma-separated string; `undefined` when absent. */
export function buildTagsOf(build: { tags?: unknown }): string[] | undefined {
  const { tags } = build;
  if (typeof tags === 'string') return splitTags(tags);
  if (!Array.isArray(tags)) return undefined;
  return tags.filter((tag): tag is string => typeof tag === 'string').flatMap(splitTags);
}

/**
 * The custom metadata of a build: an object of strings, or an array of `{ key, value }` (or
 * `{ name, value }`) as the upload answers; `undefined` when absent.
 */
export function buildMetadataOf(build: { metadata?: unknown }): Record<string, string> | undefined {
  const { metadata } = build;
  if (Array.isArray(metadata)) {
    const entries = metadata.flatMap((entry: unknown) => {
      if (entry === null || typeof entry !== 'object') return [];
      const { key, name, value } = entry as Record<string, unknown>;
      const label = typeof key === 'string' ? key : typeof name === 'string' ? name : undefined;
      return label !== undefined && isScalar(value) ? [[label, String(value)] as const] : [];
    });
    return Object.fromEntries(entries);
  }
  if (metadata === null || typeof metadata !== 'object') return undefined;
  return Object.fromEntries(
    Object.entries(metadata as Record<string, unknown>).flatMap(([key, value]) =>
      isScalar(value) ? [[key, String(value)] as const] : [],
    ),
  );
}

export interface NewestBuildFilter {
  /** Every one of these tags. */
  tags?: readonly string[];
  /** Builds to pass over (the one just uploaded). */
  except?: readonly Id[];
}

/** A build that might be the newest has no `uploadedAt` this client can read as a time. */
export class UnreadableUploadTimeError extends Error {
  override readonly name = 'UnreadableUploadTimeError';
  /** The build's place in the list, and its id. */
  readonly index: number;
  readonly buildId: Id;
  readonly value: unknown;

  constructor(index: number, buildId: Id, value: unknown) {
    super(`build ${buildId} has no upload time to order it by (${SERVICE_TIME_FORMS})`);
    this.index = index;
    this.buildId = buildId;
    this.value = value;
  }
}

/**
 * The newest build that carries every tag of `filter.tags` and is not in `filter.except`: the
 * latest `uploadedAt`, read as an instant (never compared as text), then the larger id, which the
 * service gives in increasing order. A build that passes the filter with an `uploadedAt` that is
 * no time throws an `UnreadableUploadTimeError`: which build is the newest cannot be told.
 */
export function newestBuild<B extends Pick<MobileBuild, 'id' | 'uploadedAt' | 'tags'>>(
  builds: readonly B[],
  filter: NewestBuildFilter = {},
): B | undefined {
  const except = new Set((filter.except ?? []).map(String));
  const wanted = filter.tags ?? [];
  let newest: { build: B; at: number } | undefined;
  for (const [index, build] of builds.entries()) {
    if (except.has(String(build.id))) continue;
    const tags = buildTagsOf(build) ?? [];
    if (!wanted.every((tag) => tags.includes(tag))) continue;
    const at = parseServiceTime(build.uploadedAt);
    if (at === undefined) throw new UnreadableUploadTimeError(index, build.id, build.uploadedAt);
    if (newest === undefined || at > newest.at || (at === newest.at && largerId(build.id, newest.build.id))) {
      newest = { build, at };
    }
  }
  return newest?.build;
}

function largerId(a: Id, b: Id): boolean {
  const an = Number(a);
  const bn = Number(b);
  if (Number.isFinite(an) && Number.isFinite(bn)) return an > bn;
  return String(a) > String(b);
}

function splitTags(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
