/** Unique build names: the service appends ` - N` to a name already used (`X`, `X - 1`, `X - 2`, …). */

/** Longest build name of a case run, and of a suite run. */
export const CASE_RUN_BUILD_MAX = 100;
export const SUITE_RUN_BUILD_MAX = 255;

/** `base` with the suffix of `n`, never longer than `max` (the base is cut to leave room for it). */
function numbered(base: string, n: number, max: number): string {
  const suffix = ` - ${n}`;
  return base.slice(0, max - suffix.length) + suffix;
}

/**
 * The build names used so far, derived from the persisted list of them, and the names claimed
 * next. A name wanted again takes the lowest free ` - N`; as names are never given back, the
 * numbers found taken stay taken, so each base remembers where to go on looking, and a nightly
 * of thousands of runs of one name does not look again through every number before it.
 */
export class BuildNames {
  /** The persisted list this was built from, which claims append to. */
  readonly source: string[];
  readonly #used: Set<string>;
  /** Per base and cap, the lowest number not yet known to be taken. */
  readonly #next = new Map<string, number>();
  /** How long the list was when last read or appended to here. */
  #length: number;

  constructor(source: string[]) {
    this.source = source;
    this.#used = new Set(source);
    this.#length = source.length;
  }

  /** Whether `list` still is the one this was built from, with nothing added to it elsewhere. */
  follows(list: string[]): boolean {
    return list === this.source && list.length === this.#length;
  }

  /** `wanted` made unique among the names used, never longer than `max`; recorded as used. */
  claim(wanted: string, max: number): string {
    const base = wanted.slice(0, max);
    let name = base;
    if (this.#used.has(base)) {
      // The cap is part of the key: a long base is cut differently under another cap.
      const key = `${max}:${base}`;
      let n = this.#next.get(key) ?? 1;
      while (this.#used.has(numbered(base, n, max))) n++;
      this.#next.set(key, n + 1);
      name = numbered(base, n, max);
    }
    this.#used.add(name);
    this.#length = this.source.push(name);
    return name;
  }
}
