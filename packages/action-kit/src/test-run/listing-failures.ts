/**
 * Listings of the service that failed after the client's retries: a poll's listing that may
 * pass (the service in trouble, the network) is told and ridden out, the next poll lists again;
 * a few in a row, or one that will not pass (a refusal), end the wait.
 */
import { ApiError, TransportError } from '@sauce-actions/api';

/** Whether a listing's failure may pass on its own: the service in trouble, or the network. */
export function isTransient(error: unknown): boolean {
  if (error instanceof ApiError) return error.isServiceError || error.status === 429;
  if (error instanceof TransportError) return error.kind !== 'aborted';
  return false;
}

/** Failed listings in a row, ridden out and told until `max` in a row. */
export class FailedListings {
  readonly #max: number;
  readonly #warn: ((message: string) => void) | undefined;
  #inRow = 0;

  constructor(max: number, warn?: (message: string) => void) {
    this.#max = max;
    this.#warn = warn;
  }

  /** Throws `error` unless it may pass and fewer than `max` listings failed in a row; else tells it. */
  rideOut(error: unknown, signal?: AbortSignal): void {
    this.#inRow += 1;
    if (signal?.aborted || !isTransient(error) || this.#inRow >= this.#max) throw error;
    this.#warn?.(
      `Listing the jobs failed (${(error as Error).message}); listing again at the next poll (${this.#inRow} of ${this.#max - 1} ridden out).`,
    );
  }

  /** A listing came whole: the count starts again. */
  succeeded(): void {
    this.#inRow = 0;
  }
}
