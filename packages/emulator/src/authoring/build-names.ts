/** Unique build names: the service appends ` - N` to a name already used (`X`, `X - 1`, `X - 2`, …). */

/** Longest build name of a case run, and of a suite run. */
export const CASE_RUN_BUILD_MAX = 100;
export const SUITE_RUN_BUILD_MAX = 255;

/** `wanted` made unique among `used`, never longer than `max` (the base is cut to leave room for the suffix). */
export function uniqueBuildName(wanted: string, used: ReadonlySet<string>, max: number): string {
  const base = wanted.slice(0, max);
  if (!used.has(base)) return base;
  for (let n = 1; ; n++) {
    const suffix = ` - ${n}`;
    const candidate = base.slice(0, max - suffix.length) + suffix;
    if (!used.has(candidate)) return candidate;
  }
}
