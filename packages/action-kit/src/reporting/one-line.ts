/**
 * A value from an input or the service (a job's, case's, app's, build's or tunnel's name, an error
 * the service gave) as it may stand in a step summary or a pull-request comment: one line, with no
 * control or invisible characters, redacted, and shortened. A line break inside a value would end
 * the summary's HTML block and let Markdown run (a blank line, then an image or a heading); bidi
 * overrides and zero-width characters make a name read as another. Every escaping function of
 * the summaries and comments starts here; the JUnit file and the results file keep values whole.
 */
import { redactSecrets } from '../step/secrets.ts';

/** Names longer than this (in characters) are shortened in the middle, with an ellipsis. */
export const MAX_NAME_LENGTH = 200;
/** Sentences (a failure's message, a note under the totals) are shortened past this. */
export const MAX_SENTENCE_LENGTH = 2000;

/** Line breaks and tabs: each becomes a space. */
const BREAK_CHARS = '\\t\\n\\v\\f\\r\\u0085\\u2028\\u2029';

/**
 * Removed: the other C0 and C1 controls (escape sequences included), the soft hyphen, bidi
 * embeddings, overrides, isolates and marks, zero-width spaces and word joiners, the byte-order
 * mark, and interlinear annotation marks. Zero-width (non-)joiners stay: scripts and emoji need them.
 */
const INVISIBLE_CHARS =
  '\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b\\u200e\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb';

const BREAKS = new RegExp(`[${BREAK_CHARS}]`, 'g');
const INVISIBLE = new RegExp(`[${INVISIBLE_CHARS}]`, 'g');
/** One character a link's address must not hold as it is. */
const UNSAFE_IN_ADDRESS = new RegExp(`^[\\s${BREAK_CHARS}${INVISIBLE_CHARS}]$`);

/** `text` on one line, without control or invisible characters, redacted, at most `maxLength` characters. */
export function oneLine(text: string, maxLength = MAX_NAME_LENGTH): string {
  // Redacted again once clean: a secret split by an invisible character is whole after.
  const clean = redactSecrets(redactSecrets(text).replace(BREAKS, ' ').replace(INVISIBLE, ''));
  return shorten(clean.replace(/\s+/g, ' ').trim(), maxLength);
}

/**
 * At most `maxLength` characters (code points, so that no character is split): a longer text keeps
 * its start and its end around an ellipsis, since names often differ only at their end.
 */
export function shorten(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const chars = Array.from(text);
  if (chars.length <= maxLength) return text;
  const kept = Math.max(0, maxLength - 1);
  const head = Math.ceil(kept / 2);
  const tail = kept - head;
  return `${chars.slice(0, head).join('')}…${tail > 0 ? chars.slice(-tail).join('') : ''}`;
}

/**
 * An address as it may stand in a link: redacted, and each character that could end it or hide in
 * it (white space, controls, invisible characters, and those of `alsoEncoded`) percent-encoded.
 */
export function linkAddress(href: string, alsoEncoded = ''): string {
  const encoded = new Set(alsoEncoded);
  return Array.from(redactSecrets(href), (char) =>
    UNSAFE_IN_ADDRESS.test(char) || encoded.has(char) ? percentEncoded(char) : char,
  ).join('');
}

/** `%XX` for each byte of the character in UTF-8. */
function percentEncoded(char: string): string {
  return [...Buffer.from(char, 'utf8')]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
}
