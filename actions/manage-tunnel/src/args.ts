/** Extra Sauce Connect arguments written as on a command line: words, with '…' or "…" quoting. */
import { InputError, quoteValue } from '@sauce-actions/action-kit';

export function splitArgs(text: string, input = 'sc-args'): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && (text[i + 1] === '"' || text[i + 1] === '\\')) {
        word = (word ?? '') + text[++i];
      } else word = (word ?? '') + char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + char;
  }
  if (quote !== undefined) {
    throw new InputError(
      input,
      `has an unclosed ${quote} quote`,
      'arguments separated by spaces, quoted with \' or "',
    );
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** `host:port`, `:port` or `[v6]:port`, the form of Sauce Connect's `--api-address`. */
export function checkAddress(value: string, input = 'status-address'): string {
  const match = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]*):(\d{1,5})$/.exec(value);
  const port = match ? Number(match[2]) : 0;
  if (!match || port < 1 || port > 65535) {
    throw new InputError(
      input,
      `has ${quoteValue(value)}, which is not host:port`,
      '`host:port` such as `localhost:8032`, or `:8032`',
    );
  }
  return value;
}

/**
 * Whether Sauce Connect starts as part of a tunnel pool: `--tunnel-pool` (or `-t`) in its
 * arguments, or `SAUCE_TUNNEL_POOL` in its environment. Outside a pool, Sauce Connect 5 shuts
 * down the running tunnels of its name when it starts.
 */
export function joinsPool(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  for (const arg of args) {
    if (arg === '--tunnel-pool' || arg === '-t') return true;
    const value = /^(?:--tunnel-pool|-t)=(.*)$/.exec(arg)?.[1];
    if (value !== undefined) return value.toLowerCase() !== 'false';
  }
  return /^(true|1)$/i.test(env.SAUCE_TUNNEL_POOL ?? '');
}
