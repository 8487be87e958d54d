/** Durations as users write them (`90`, `90s`, `30m`, `1h30m`, `500ms`) and as messages show them. */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds of `90` (seconds), `90s`, `30m`, `1h`, `1h30m` or `500ms`; `undefined` when malformed. */
export function parseDuration(text: string): number | undefined {
  const value = text.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(value)) return undefined;
  let total = 0;
  for (const match of value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) {
    total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
  }
  return Math.round(total);
}

/** The shortest exact form: `1h`, `30m`, `90s`, `500ms`. */
export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
