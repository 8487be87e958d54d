/**
 * The emulator's journal of requests, kept whole over a long run. The emulator keeps its newest
 * 10,000 entries only, and a nightly with other pipelines on the account can send more: the
 * recorder reads the journal every few seconds and joins each reading to what it has, by finding
 * where the reading's first entries are in it (so entries that left the emulator's window stay,
 * and statuses still 0 on an earlier reading, requests not yet answered, are updated).
 */

import type { JournalEntry } from '@sauce-actions/emulator';

export type { JournalEntry };

/** The emulator's journal capacity: a reading shorter than this holds every entry. */
const CAPACITY = 10_000;

/** Entries compared to place a reading: enough that equal times and paths cannot mislead. */
const ANCHOR = 50;

const keyOf = (entry: JournalEntry): string =>
  `${entry.time} ${entry.method} ${entry.path} ${JSON.stringify(entry.query)}`;

export class JournalRecorder {
  readonly #url: string;
  #entries: JournalEntry[] = [];
  #keys: string[] = [];
  /** Where the last reading began in `#entries`. */
  #offset = 0;
  #timer: NodeJS.Timeout | undefined;
  #syncing: Promise<void> = Promise.resolve();
  /** Readings that did not overlap the one before: entries were lost in between. */
  gaps = 0;

  constructor(url: string) {
    this.#url = url;
  }

  /** Reads the journal every `intervalMs` until `stop()`. */
  start(intervalMs = 5000): void {
    this.#timer = setInterval(() => void this.sync().catch(() => {}), intervalMs);
  }

  /** The last reading and every entry; once stopped, the entries as they were. */
  async stop(): Promise<JournalEntry[]> {
    if (this.#timer === undefined) return this.entries();
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.sync();
    return this.entries();
  }

  /** One reading, after any still under way. */
  sync(): Promise<void> {
    this.#syncing = this.#syncing.catch(() => {}).then(() => this.#read());
    return this.#syncing;
  }

  entries(): JournalEntry[] {
    return [...this.#entries];
  }

  async #read(): Promise<void> {
    const response = await fetch(`${this.#url}/_emulator/requests`);
    const { requests } = (await response.json()) as { requests: JournalEntry[] };
    this.#join(requests);
  }

  #join(reading: JournalEntry[]): void {
    const keys = reading.map(keyOf);
    const known = this.#entries.length;
    let at: number | undefined;
    if (reading.length < CAPACITY && this.#offset === 0) {
      at = 0;
    } else {
      for (let start = Math.max(this.#offset, known - reading.length, 0); start < known; start++) {
        const span = Math.min(ANCHOR, known - start, keys.length);
        let same = true;
        for (let i = 0; i < span && same; i++) same = this.#keys[start + i] === keys[i];
        if (same) {
          at = start;
          break;
        }
      }
    }
    if (at === undefined) {
      if (known > 0) this.gaps += 1;
      at = known;
    }
    this.#entries = [...this.#entries.slice(0, at), ...reading];
    this.#keys = [...this.#keys.slice(0, at), ...keys];
    this.#offset = at;
  }
}
