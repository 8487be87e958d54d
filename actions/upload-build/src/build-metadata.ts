/**
 * What the CI system says of the run, as the build's custom metadata and tags (`git-metadata`):
 * the commit, the branch or tag, the pull request, the repository and the run's address, under
 * fixed keys; on a pull request, the tag `pr-<number>`, by which later steps find its build.
 */
import type { CiContext } from '@sauce-actions/action-kit';

/** The keys, in the order the summary lists them; the README names the same. */
const CI_METADATA_KEYS = ['commit', 'branch', 'tag', 'pull-request', 'repository', 'run-url'] as const;

type CiMetadataKey = (typeof CI_METADATA_KEYS)[number];

/** The metadata the CI context gives; keys it has no value for are left out. */
export function ciMetadata(ci: CiContext): Partial<Record<CiMetadataKey, string>> {
  const values: Record<CiMetadataKey, string | undefined> = {
    commit: ci.commit,
    branch: ci.branch,
    tag: ci.tag,
    'pull-request': ci.pullRequest ? String(ci.pullRequest.number) : undefined,
    repository: ci.repository,
    'run-url': ci.runUrl,
  };
  return Object.fromEntries(
    CI_METADATA_KEYS.flatMap((key) => (values[key] !== undefined ? [[key, values[key]] as const] : [])),
  );
}

/** The tag of a pull request's builds. */
function pullRequestTag(number: number): string {
  return `pr-${number}`;
}

export interface BuildLabels {
  /** The CI system's metadata under the keys of `metadata` given, which win. */
  metadata: Record<string, string>;
  /** `tags` given, with the pull request's tag. */
  tags: string[];
  /** The keys the CI system filled (and `metadata` did not). */
  fromCi: string[];
}

/** The metadata and tags to send: `metadata` given wins key by key; `git-metadata: false` adds nothing. */
export function buildLabels(
  given: { metadata: Readonly<Record<string, string>>; tags: readonly string[]; gitMetadata: boolean },
  ci: CiContext,
): BuildLabels {
  if (!given.gitMetadata) return { metadata: { ...given.metadata }, tags: [...given.tags], fromCi: [] };
  const fromCi = ciMetadata(ci);
  const added = Object.keys(fromCi).filter((key) => !Object.hasOwn(given.metadata, key));
  const tags = [...given.tags];
  if (ci.pullRequest) {
    const tag = pullRequestTag(ci.pullRequest.number);
    if (!tags.includes(tag)) tags.push(tag);
  }
  return { metadata: { ...fromCi, ...given.metadata }, tags, fromCi: added };
}
