/**
 * Log text that no CI system reads as a command. The GitHub runner reads every line of a step's
 * standard output and standard error: a line is a workflow command when, after leading white
 * space, it starts with `::` (`::stop-commands::`, `::add-mask::`, `::error::`), or when it holds
 * `##[` anywhere; its lines end at `\n`, `\r` or `\r\n`. Azure Pipelines reads `##vso[` anywhere in
 * a line. Names from inputs and from the service reach the log inside sentences, with whatever
 * they hold, so the hosts pass every plain line through here: each of those openings gets a
 * space inside (`: :`, `# #[`), which no runner reads and a reader still reads.
 */

/** Line breaks, and the characters some terminals and log viewers also take for one. */
const LINE_BREAK = /\r\n|[\r\n\v\f\u0085\u2028\u2029]/;

/**
 * `::` at the start of a line, after white space; invisible format characters (zero-width space,
 * the byte-order mark) count as white space here, since a culture-aware comparison skips them.
 */
const COMMAND_START = /^([\s\p{Cf}]*:)(\p{Cf}*:)/u;

/** The `#` that opens `##[` or `##vso[` (in any case), wherever it is. */
const HASH_COMMAND = /#(?=\p{Cf}*#\p{Cf}*(?:v\p{Cf}*s\p{Cf}*o\p{Cf}*)?\[)/giu;

/** `text` with every line break a `\n`, and no line a runner reads as a command. */
export function commandFreeText(text: string): string {
  return text
    .split(LINE_BREAK)
    .map((line) => line.replace(COMMAND_START, '$1 $2').replace(HASH_COMMAND, '# '))
    .join('\n');
}

/**
 * JSON text with no `##[` or `##vso[` in it, the same value once parsed: such a `#` is written
 * `\u0023`. (A `#` can only stand inside a string in JSON, where that escape is allowed.)
 */
export function commandFreeJson(json: string): string {
  return json.replace(HASH_COMMAND, '\\u0023');
}
