/** "Did you mean": the known name closest to a mistyped one, for usage errors. */

/** The closest of `names` to `wanted`, if close enough to be a likely typo. */
export function closestName(wanted: string, names: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = wanted.toLowerCase();
  for (const name of names) {
    // Only the case wrong (`--SUITE`) is the surest slip; a prefix (`--suit` for `--suite`) the
    // commonest: both win at a small cost. Otherwise letters count as equal whatever their case.
    const folded = name.toLowerCase();
    const distance =
      folded === lower
        ? 0.25
        : folded.startsWith(lower) && wanted.length >= 3
          ? 0.5
          : editDistance(lower, folded);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  // Up to one edit in three characters: `--timout` finds `--timeout`, `--x` finds nothing.
  return bestDistance <= Math.max(1, Math.floor(wanted.length / 3)) ? best : undefined;
}

/** Levenshtein distance, with a swap of neighbours counting as one edit. */
export function editDistance(a: string, b: string): number {
  // Rows of the table, flattened: cell (i, j) is at i * width + j.
  const width = b.length + 1;
  const cells = new Array<number>((a.length + 1) * width).fill(0);
  const at = (i: number, j: number): number => cells[i * width + j] ?? 0;
  for (let i = 0; i <= a.length; i++) {
    for (let j = 0; j <= b.length; j++) {
      if (i === 0 || j === 0) {
        cells[i * width + j] = i + j;
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, at(i - 2, j - 2) + 1);
      }
      cells[i * width + j] = value;
    }
  }
  return at(a.length, b.length);
}
