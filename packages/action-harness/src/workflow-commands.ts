/**
 * The workflow commands an action prints, read as the GitHub runner reads them (its
 * `ActionCommandManager` and `ActionCommand`): lines end at `\n`, `\r` or `\r\n`; a line is a
 * command when, after leading whitespace, it starts `::name props::data`, or when it holds
 * `##[name props]data` anywhere; names are matched without regard to case, and only the runner's
 * own names are commands. `::stop-commands::TOKEN` turns every command off until a line that is
 * the command `TOKEN`; meanwhile command lines are plain output, as on the runner.
 */

export type AnnotationLevel = 'error' | 'warning' | 'notice';

export interface Annotation {
  level: AnnotationLevel;
  message: string;
  properties: Record<string, string>;
}

/** A command the runner would have carried out, with its name in lower case. */
export interface WorkflowCommand {
  name: string;
  properties: Record<string, string>;
  data: string;
  /** The printed line. */
  line: string;
}

export interface ParsedLog {
  annotations: Annotation[];
  /** Values given to `::add-mask::`. */
  masks: string[];
  /** Every command carried out, `stop-commands` and its resume included, in order. */
  commands: WorkflowCommand[];
  /** What the runner's log shows: masks applied, `add-mask` lines gone. */
  log: string;
  /** Every line except `add-mask` commands, with no masking: what would show if masking failed. */
  unmasked: string;
}

/** The commands the runner knows (its command extensions and `stop-commands`). */
const RUNNER_COMMANDS = new Set([
  'add-mask',
  'add-matcher',
  'add-path',
  'debug',
  'echo',
  'endgroup',
  'error',
  'group',
  'notice',
  'remove-matcher',
  'save-state',
  'set-env',
  'set-output',
  'stop-commands',
  'warning',
]);

/** What .NET's `TrimStart()` removes: Unicode white space, which includes U+0085. */
const LEADING_SPACE = /^[\s\u0085]+/;

interface Parsed {
  name: string;
  properties: Record<string, string>;
  data: string;
}

/** Replaces each escape in turn, case-sensitively, as the runner's `Replace` calls do. */
function unescape(text: string, mappings: readonly (readonly [string, string])[]): string {
  let out = text;
  for (const [escaped, char] of mappings) out = out.split(escaped).join(char);
  return out;
}

const DATA_ESCAPES = [
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%25', '%'],
] as const;
const PROPERTY_ESCAPES = [
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%3A', ':'],
  ['%2C', ','],
  ['%25', '%'],
] as const;
const LEGACY_ESCAPES = [
  ['%3B', ';'],
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%5D', ']'],
  ['%25', '%'],
] as const;

/** `::name k=v,k=v::data`, after leading white space. */
function parseCommand(line: string, known: ReadonlySet<string>): Parsed | undefined {
  const message = line.replace(LEADING_SPACE, '');
  if (!message.startsWith('::')) return undefined;
  const end = message.indexOf('::', 2);
  if (end < 0) return undefined;
  const info = message.slice(2, end);
  const space = info.indexOf(' ');
  const name = (space < 0 ? info : info.slice(0, space)).toLowerCase();
  if (!known.has(name)) return undefined;
  const properties: Record<string, string> = {};
  if (space > 0) {
    for (const pair of info
      .slice(space + 1)
      .trim()
      .split(',')) {
      const [key, value] = splitPair(pair);
      if (key !== undefined && value !== undefined) properties[key] = unescape(value, PROPERTY_ESCAPES);
    }
  }
  return { name, properties, data: unescape(message.slice(end + 2), DATA_ESCAPES) };
}

/** `##[name k=v;k=v]data` anywhere in the line: the runner's older form, still read. */
function parseLegacyCommand(line: string, known: ReadonlySet<string>): Parsed | undefined {
  const start = line.indexOf('##[');
  if (start < 0) return undefined;
  const close = line.indexOf(']', start);
  if (close < 0) return undefined;
  const info = line.slice(start + 3, close);
  const space = info.indexOf(' ');
  const name = (space < 0 ? info : info.slice(0, space)).toLowerCase();
  if (!known.has(name)) return undefined;
  const properties: Record<string, string> = {};
  if (space > 0) {
    for (const pair of info.slice(space + 1).split(';')) {
      const [key, value] = splitPair(pair);
      if (key !== undefined && value !== undefined) properties[key] = unescape(value, LEGACY_ESCAPES);
    }
  }
  return { name, properties, data: unescape(line.slice(close + 1), LEGACY_ESCAPES) };
}

/** `key=value` split at the first `=`, empty parts dropped as the runner's split drops them. */
function splitPair(pair: string): [string | undefined, string | undefined] {
  const eq = pair.indexOf('=');
  const parts = (eq < 0 ? [pair] : [pair.slice(0, eq), pair.slice(eq + 1)]).filter((part) => part !== '');
  return parts.length === 2 ? [parts[0], parts[1]] : [undefined, undefined];
}

export function parseWorkflowCommands(printed: string): ParsedLog {
  const annotations: Annotation[] = [];
  const masks: string[] = [];
  const commands: WorkflowCommand[] = [];
  const kept: string[] = [];
  const known = new Set(RUNNER_COMMANDS);
  /** While commands are stopped: the token that resumes them ('' never does). */
  let stoppedUntil: string | undefined;
  for (const line of printed.split(/\r\n|\r|\n/)) {
    const command = parseCommand(line, known) ?? parseLegacyCommand(line, known);
    if (command === undefined) {
      kept.push(line);
      continue;
    }
    const { name, properties, data } = command;
    if (stoppedUntil !== undefined) {
      if (stoppedUntil !== '' && name === stoppedUntil) {
        known.delete(stoppedUntil);
        stoppedUntil = undefined;
        commands.push({ name, properties, data, line });
      }
      kept.push(line);
      continue;
    }
    if (name === 'stop-commands') {
      stoppedUntil = data.toLowerCase();
      known.add(stoppedUntil);
      commands.push({ name, properties, data, line });
      kept.push(line);
      continue;
    }
    // A name only a stop token made known is no command of its own.
    if (!RUNNER_COMMANDS.has(name)) {
      kept.push(line);
      continue;
    }
    commands.push({ name, properties, data, line });
    if (name === 'add-mask') {
      if (data.trim() !== '') masks.push(data);
      continue;
    }
    if (name === 'error' || name === 'warning' || name === 'notice') {
      annotations.push({ level: name, message: data, properties });
    }
    kept.push(line);
  }
  const unmasked = kept.join('\n');
  return { annotations, masks, commands, log: applyMasks(unmasked, masks), unmasked };
}

/** Replaces every masked value with `***`, longest first as the runner does. */
export function applyMasks(text: string, masks: readonly string[]): string {
  let out = text;
  for (const mask of [...masks].sort((a, b) => b.length - a.length)) out = out.split(mask).join('***');
  return out;
}
