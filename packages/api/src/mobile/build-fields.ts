/**
 * What a build's answer says of its tags and custom metadata, read defensively: the interface
 * documents them in the upload's answer (`tags` an array, `metadata` an array) and the update's
 * (`metadata` an object), not among a build's listed fields, so whatever form arrives is taken
 * and anything else counts as absent. And which build of a list is the newest.
 */
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

/**
 * The newest build that carries every tag of `filter.tags` and is not in `filter.except`: latest
 * `uploadedAt` (`YYYY-MM-DD HH:MM:SS` sorts as text), then the larger id, which the service gives
 * in increasing order.
 */
export function newestBuild<B extends Pick<MobileBuild, 'id' | 'uploadedAt' | 'tags'>>(
  builds: readonly B[],
  filter: NewestBuildFilter = {},
): B | undefined {
  const except = new Set((filter.except ?? []).map(String));
  const wanted = filter.tags ?? [];
  let newest: B | undefined;
  for (const build of builds) {
    if (except.has(String(build.id))) continue;
    const tags = buildTagsOf(build) ?? [];
    if (!wanted.every((tag) => tags.includes(tag))) continue;
    if (newest === undefined || isNewer(build, newest)) newest = build;
  }
  return newest;
}

function isNewer(
  a: Pick<MobileBuild, 'id' | 'uploadedAt'>,
  b: Pick<MobileBuild, 'id' | 'uploadedAt'>,
): boolean {
  const at = typeof a.uploadedAt === 'string' ? a.uploadedAt : '';
  const bt = typeof b.uploadedAt === 'string' ? b.uploadedAt : '';
  if (at !== bt) return at > bt;
  const an = Number(a.id);
  const bn = Number(b.id);
  if (Number.isFinite(an) && Number.isFinite(bn)) return an > bn;
  return String(a.id) > String(b.id);
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
