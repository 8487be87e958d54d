/** The journal of requests: method, path, query, status and time; never headers or bodies. */

export interface JournalEntry {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** The answer's status; 0 when the connection was cut without one. */
  status: number;
  /** ISO 8601 time the request arrived. */
  time: string;
}

/** Query members that may carry a credential are left out of the journal altogether. */
const SECRET_NAME = /key|token|secret|pass|auth|signature|credential|session|sig$/i;

/** Oldest entries go first once the journal holds this many. */
const CAPACITY = 10_000;

export function journalQuery(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    if (SECRET_NAME.test(name)) continue;
    const existing = query[name];
    query[name] =
      existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  return query;
}

export class Journal {
  #entries: JournalEntry[] = [];

  /** Starts an entry for a request; the caller fills in the status when the answer goes out. */
  open(method: string, url: string, timeMs: number): JournalEntry {
    const queryAt = url.indexOf('?');
    const entry: JournalEntry = {
      method,
      path: queryAt < 0 ? url : url.slice(0, queryAt),
      query: queryAt < 0 ? {} : journalQuery(url.slice(queryAt + 1)),
      status: 0,
      time: new Date(timeMs).toISOString(),
    };
    this.#entries.push(entry);
    if (this.#entries.length > CAPACITY) this.#entries.splice(0, this.#entries.length - CAPACITY);
    return entry;
  }

  entries(): JournalEntry[] {
    return this.#entries.map((entry) => ({ ...entry }));
  }

  clear(): void {
    this.#entries = [];
  }
}
