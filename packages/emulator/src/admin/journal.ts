/**
 * The journal of requests: method, path, query, status and time; never headers or bodies, so
 * neither an `Authorization` header nor an upload's `api_key` field can reach it. What is kept is
 * cleared of secrets too: query members whose name says credential are left out, and any secret
 * the emulator knows (access keys, API keys, tokens) is masked wherever it appears in the path or
 * in a query value.
 */

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

/** What a known secret is replaced with. */
const MASK = '***';

/** Secrets shorter than this are not searched for: they would mask ordinary text. */
const MIN_SECRET_LENGTH = 3;

/** Replaces every occurrence of each secret, as is or percent-encoded, with the mask. */
function maskSecrets(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      if (masked.includes(form)) masked = masked.split(form).join(MASK);
    }
  }
  return masked;
}

function journalQuery(search: string, secrets: readonly string[] = []): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [rawName, rawValue] of new URLSearchParams(search)) {
    if (SECRET_NAME.test(rawName)) continue;
    const name = maskSecrets(rawName, secrets);
    const value = maskSecrets(rawValue, secrets);
    const existing = query[name];
    query[name] =
      existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  return query;
}

export class Journal {
  #entries: JournalEntry[] = [];

  /**
   * Starts an entry for a request; the caller fills in the status when the answer goes out. `url`
   * is the path and query (origin form); `secrets` are masked out of both.
   */
  open(method: string, url: string, timeMs: number, secrets: readonly string[] = []): JournalEntry {
    const queryAt = url.indexOf('?');
    const entry: JournalEntry = {
      method,
      path: maskSecrets(queryAt < 0 ? url : url.slice(0, queryAt), secrets),
      query: queryAt < 0 ? {} : journalQuery(url.slice(queryAt + 1), secrets),
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
