/** Fault rules: answers, delays and cut connections injected into matching requests. */

export interface FaultSpec {
  method?: string;
  /** A path, or a regular expression written `/.../`. */
  path: string;
  status?: number;
  body?: unknown;
  /** Seconds, sent as `Retry-After`. */
  retryAfter?: number;
  delayMs?: number;
  /** Cut the connection without an answer. */
  drop?: boolean;
  /**
   * Headers set on the answer, the injected one or the route's own: a `content-type` such as
   * `text/html` (a captive portal), a `content-encoding`, a redirect's `location`.
   */
  headers?: Record<string, string>;
  /** Sends only this many bytes of the body, then cuts the connection (the length promised is the whole). */
  truncate?: number;
  /** Sends the body at this many bytes a second, in slices of a tenth of a second. */
  bytesPerSecond?: number;
  /** After the body, keeps sending spaces and never ends, until the client closes the connection. */
  endless?: boolean;
  /** Compresses the body so, with its `content-encoding`, as a compressing gateway would. */
  compress?: 'gzip' | 'deflate' | 'br';
  /** How many matching requests the rule applies to; default 1. */
  times?: number;
}

export interface FaultRule extends FaultSpec {
  id: number;
  /** Applications left. */
  remaining: number;
}

/**
 * A rule's path is a regular expression when it starts and ends with `/` and has something
 * between (no flags: a path such as `/a/status` must not read as `/a/` with flags). The
 * expression is not anchored; anything else must equal the request path exactly.
 */
function pathMatcher(spec: string): (path: string) => boolean {
  if (spec.length > 2 && spec.startsWith('/') && spec.endsWith('/')) {
    const pattern = new RegExp(spec.slice(1, -1));
    return (path) => pattern.test(path);
  }
  return (path) => path === spec;
}

/** Throws when a regular expression in `path` does not compile, so the rule is refused up front. */
export function checkFaultPath(spec: string): void {
  pathMatcher(spec);
}

/**
 * Why a rule would not do what it says, or undefined: a body or a Retry-After goes out only with a
 * status, and a rule with no status, delay or cut would change nothing. Refused up front rather
 * than kept as a rule that silently has no effect.
 */
export function faultRuleProblem(spec: FaultSpec): string | undefined {
  if (spec.drop && (spec.status !== undefined || shapesAnswer(spec)))
    return 'a dropped connection has no answer: "drop" goes without "status", "headers", "truncate", "bytesPerSecond", "endless" and "compress"';
  if (spec.status === undefined && !spec.drop) {
    if (spec.body !== undefined) return 'body is sent only with a status: add "status"';
    if (spec.retryAfter !== undefined) return 'retryAfter is sent only with a status: add "status"';
    if (!spec.delayMs && !shapesAnswer(spec))
      return 'the rule does nothing: give "status", "delayMs", "drop", "headers", "truncate", "bytesPerSecond", "endless" or "compress"';
  }
  if (spec.truncate !== undefined && spec.endless) return '"truncate" and "endless" exclude each other';
  if (spec.compress !== undefined && spec.endless) return '"compress" and "endless" exclude each other';
  return undefined;
}

/** Whether a rule changes how an answer is sent: its headers, or its body's length or pace. */
export function shapesAnswer(spec: FaultSpec): boolean {
  return (
    spec.headers !== undefined ||
    spec.truncate !== undefined ||
    spec.bytesPerSecond !== undefined ||
    spec.endless === true ||
    spec.compress !== undefined
  );
}

export class FaultRules {
  #rules: (FaultRule & { matches: (path: string) => boolean })[] = [];
  #nextId = 1;

  add(spec: FaultSpec): FaultRule {
    const rule = { ...spec, id: this.#nextId++, remaining: spec.times ?? 1, matches: pathMatcher(spec.path) };
    this.#rules.push(rule);
    return this.#view(rule);
  }

  list(): FaultRule[] {
    return this.#rules.map((rule) => this.#view(rule));
  }

  clear(): number {
    const count = this.#rules.length;
    this.#rules = [];
    return count;
  }

  /** The first rule matching the request, used up by one; rules added first win. */
  take(method: string, path: string): FaultRule | undefined {
    const rule = this.#rules.find(
      (candidate) =>
        (!candidate.method || candidate.method.toUpperCase() === method.toUpperCase()) &&
        candidate.matches(path),
    );
    if (!rule) return undefined;
    rule.remaining -= 1;
    if (rule.remaining <= 0) this.#rules = this.#rules.filter((candidate) => candidate !== rule);
    return this.#view(rule);
  }

  #view(rule: FaultRule & { matches: unknown }): FaultRule {
    const { matches: _matches, ...view } = rule;
    return view;
  }
}
