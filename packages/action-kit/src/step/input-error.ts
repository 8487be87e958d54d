/** The user's mistake in an input: names the input, the value's problem and what is allowed. */
export class InputError extends Error {
  override readonly name = 'InputError';
  readonly input: string;
  readonly problem: string;
  readonly allowed: string | undefined;

  constructor(input: string, problem: string, allowed?: string) {
    super(`Input "${input}" ${problem}${allowed ? `. Allowed: ${allowed}` : ''}.`);
    this.input = input;
    this.problem = problem;
    this.allowed = allowed;
  }
}

/** Quotes a value for an error message, shortened so that a pasted file cannot flood the log. */
export function quoteValue(value: string): string {
  const oneLine = value.replace(/\s+/g, ' ');
  return JSON.stringify(oneLine.length > 80 ? `${oneLine.slice(0, 77)}...` : oneLine);
}
