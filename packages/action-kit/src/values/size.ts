/** Sizes as users write them (`500MB`, `2GiB`) and as messages show them. */

const DECIMAL_UNITS = [
  ['TB', 1e12],
  ['GB', 1e9],
  ['MB', 1e6],
  ['kB', 1e3],
] as const;
const BINARY_UNITS = [
  ['TiB', 2 ** 40],
  ['GiB', 2 ** 30],
  ['MiB', 2 ** 20],
  ['KiB', 2 ** 10],
] as const;
const UNIT_BYTES: Readonly<Record<string, number>> = Object.fromEntries([
  ['b', 1],
  ...[...DECIMAL_UNITS, ...BINARY_UNITS].map(([unit, bytes]) => [unit.toLowerCase(), bytes] as const),
]);

/** The smallest and largest value a size input takes, in bytes. */
export interface SizeBounds {
  minBytes: number;
  maxBytes: number;
}

/**
 * `max-assets-size`, in every action that downloads job assets: less than 1 MB does not hold one
 * video; more than 100 GB is more than a runner's disk, so more likely the slip of a unit.
 */
export const ASSETS_SIZE_BOUNDS: SizeBounds = { minBytes: 1e6, maxBytes: 100e9 };

/** How a size is written, for refusals and documentation. */
export const SIZE_FORM =
  'a number with a unit, `kB`, `MB`, `GB` (powers of 1000) or `KiB`, `MiB`, `GiB` (powers of 1024), such as `500MB` or `2GiB`';

/**
 * Bytes of `500MB`, `1.5 GB`, `2GiB`, `64KiB` or `100B` (units in any case, `KB` as `kB`);
 * `undefined` when malformed: no unit (`500` is more likely meant as megabytes than as bytes), a
 * sign, an exponent, another unit. Too many digits give `Infinity`, which no bound admits.
 */
export function parseSize(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(text.trim());
  const unit = match ? UNIT_BYTES[(match[2] as string).toLowerCase()] : undefined;
  if (!match || unit === undefined) return undefined;
  return Math.round(Number(match[1]) * unit);
}

/**
 * `500 MB`, `2 GiB` (a whole number of a binary unit that is not one of a decimal unit), `1.05 MB`
 * (rounded to two decimals), `512 B`.
 */
export function formatSize(bytes: number): string {
  const binary = BINARY_UNITS.find(([, size]) => bytes >= size && bytes % size === 0);
  if (binary && bytes % 1000 !== 0) return `${bytes / binary[1]} ${binary[0]}`;
  const decimal = DECIMAL_UNITS.find(([, size]) => bytes >= size);
  if (!decimal) return `${bytes} B`;
  return `${Number((bytes / decimal[1]).toFixed(2))} ${decimal[0]}`;
}

/** `from 1 MB to 100 GB`. */
export function formatSizeBounds(bounds: SizeBounds): string {
  return `from ${formatSize(bounds.minBytes)} to ${formatSize(bounds.maxBytes)}`;
}
