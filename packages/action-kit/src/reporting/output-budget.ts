/**
 * Outputs kept small: GitHub keeps 1 MB of outputs a job, for all its steps, so a list output (an
 * array, or a JSON array in a string such as `job-ids`) holds its first items up to a count and a
 * size; the full lists are in the step's results file or summary. Other values are short by
 * nature (ids, counts, addresses) and pass as they are.
 */
import type { Outputs, OutputValue } from './result.ts';

/** Items a list output holds at most. */
export const MAX_OUTPUT_ITEMS = 100;
/** Bytes a list output holds at most, as published (comma-separated, or JSON). */
export const MAX_OUTPUT_BYTES = 32 * 1024;

export interface BoundedOutput {
  value: OutputValue;
  /** When items were left out: how many are kept, of how many. */
  cut?: { kept: number; total: number };
}

/** The first items of a list, as many as the count and the size allow; anything else as it is. */
export function boundOutput(value: OutputValue): BoundedOutput {
  if (Array.isArray(value)) {
    const list = value as readonly string[];
    const kept = keptItems(list, (items) => items.join(','));
    return kept === list.length
      ? { value }
      : { value: list.slice(0, kept), cut: { kept, total: list.length } };
  }
  const array = typeof value === 'string' ? jsonArray(value) : undefined;
  if (array === undefined) return { value };
  const kept = keptItems(array, (items) => JSON.stringify(items));
  return kept === array.length
    ? { value }
    : { value: JSON.stringify(array.slice(0, kept)), cut: { kept, total: array.length } };
}

/** How many of the first items fit, at least none. */
function keptItems<T>(items: readonly T[], written: (items: readonly T[]) => string): number {
  const fits = (count: number): boolean =>
    Buffer.byteLength(written(items.slice(0, count)), 'utf8') <= MAX_OUTPUT_BYTES;
  let kept = Math.min(items.length, MAX_OUTPUT_ITEMS);
  if (fits(kept)) return kept;
  // The largest count that fits: sizes grow with the count.
  let low = 0;
  while (low < kept) {
    const middle = Math.ceil((low + kept) / 2);
    if (fits(middle)) low = middle;
    else kept = middle - 1;
  }
  return low;
}

/** A string holding a JSON array, as list outputs such as `job-ids` are written; else undefined. */
function jsonArray(text: string): unknown[] | undefined {
  if (!text.startsWith('[') || text.length <= 2) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The outputs as published, each list bounded, and for the log a line for each list that was cut. */
export function boundOutputs(outputs: Outputs): { outputs: Record<string, OutputValue>; notes: string[] } {
  const bounded: Record<string, OutputValue> = {};
  const notes: string[] = [];
  // The actions that write a results file list everything there; the others in their summary.
  const whereAll =
    'results-file' in outputs ? 'the results file (the output results-file)' : 'the step summary';
  for (const [name, value] of Object.entries(outputs)) {
    const { value: kept, cut } = boundOutput(value);
    bounded[name] = kept;
    if (cut) {
      notes.push(
        `The output ${name} holds the first ${cut.kept} of ${cut.total} items, to keep the job's outputs far under GitHub's 1 MB; ${whereAll} has them all.`,
      );
    }
  }
  return { outputs: bounded, notes };
}
