/**
 * The command line's flags for one action: its `action.yml` inputs, `--name value` or
 * `--name=value`, plus the host's own options. Every mistake is a `UsageError` naming the flag,
 * found before the action's code is even loaded, so nothing is sent.
 */
import type { ActionMetadata } from './action-metadata.ts';
import { closestName } from './closest-name.ts';

/** A mistake in how the command was written: exit code 2, before anything is done. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The host's own options, next to the action's inputs. */
export interface HostOptions {
  /** Outputs as one JSON object instead of `name=value` lines. */
  json: boolean;
  /** Where the Markdown summary is written. */
  summaryFile?: string;
  /** Debug lines on standard error too. */
  verbose: boolean;
  help: boolean;
  version: boolean;
}

interface ParsedArgs {
  /** The inputs given, by name; a repeated list input holds its values joined by newlines. */
  inputs: Map<string, string>;
  options: HostOptions;
}

/** Host options, by flag name: whether each takes a value. */
export const HOST_FLAGS: Readonly<Record<string, { value: boolean; help: string }>> = {
  json: {
    value: false,
    help: 'print the outputs as one JSON object instead of `name=value` lines, with `error` when the run fails',
  },
  summary: { value: true, help: 'write the Markdown summary of the run to FILE' },
  verbose: { value: false, help: 'also print debug lines (requests, retries) on standard error' },
  help: { value: false, help: 'show this help' },
  version: { value: false, help: 'print the version of sauce-actions' },
};

/**
 * Inputs that the command line, and only it, reads from the environment when the flag is not
 * given, ahead of the `action.yml` default: a CI system sets such a variable once for every job.
 */
export const ENVIRONMENT_FALLBACKS: Readonly<Record<string, { variable: string; otherwise: string }>> = {
  'api-url': { variable: 'SAUCE_API_URL', otherwise: 'the address of `region`' },
};

/** Reads the arguments that follow the action's name. */
export function parseActionArgs(
  command: string,
  args: readonly string[],
  metadata: ActionMetadata,
): ParsedArgs {
  const inputs = new Map<string, string>();
  const options: HostOptions = { json: false, verbose: false, help: false, version: false };
  // Help and the version win over any other mistake: someone asking for them is finding out how
  // to write the rest.
  if (args.some((arg) => arg === '--help' || arg === '-h'))
    return { inputs, options: { ...options, help: true } };
  if (args.includes('--version')) return { inputs, options: { ...options, version: true } };
  for (let at = 0; at < args.length; at++) {
    const arg = args[at] as string;
    if (!arg.startsWith('--') || arg === '--') {
      throw new UsageError(
        dashedFlag(command, arg) ??
          `Unexpected argument ${JSON.stringify(arg)} for ${command}: every input is a flag, \`--<input> <value>\` or \`--<input>=<value>\`.`,
      );
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const host = HOST_FLAGS[name];
    const input = Object.hasOwn(metadata.inputs, name) ? metadata.inputs[name] : undefined;
    if (host === undefined && input === undefined) throw unknownFlag(command, name, metadata);
    let value: string | undefined;
    if (eq >= 0) {
      value = arg.slice(eq + 1);
    } else if (host === undefined || host.value) {
      const next = args[at + 1];
      // A value that starts with `--` is more likely a forgotten value than meant: `=` makes it plain.
      if (next === undefined || next.startsWith('--')) {
        throw new UsageError(
          `--${name} needs a value: \`--${name} <value>\`, or \`--${name}=<value>\` for a value that starts with \`--\`.`,
        );
      }
      value = next;
      at += 1;
    }
    if (host !== undefined) {
      setHostOption(options, name, value);
      continue;
    }
    const before = inputs.get(name);
    if (before !== undefined && !input?.list) {
      throw new UsageError(`--${name} was given twice; it takes one value.`);
    }
    inputs.set(name, before === undefined ? (value as string) : `${before}\n${value as string}`);
  }
  return { inputs, options };
}

/**
 * Dashes that are not two hyphens, as an editor or a chat turns `--` into (an en dash `–`, an em
 * dash `—`, a minus sign), and a hyphen mixed with them.
 */
const TYPOGRAPHIC_DASHES =
  /^[-\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]*[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D][-\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]*(?=[^-\u2010-\u2015\u2212\uFE58\uFE63\uFF0D])/u;

/**
 * The refusal of `—suite` or `–access-key=…`: "did you mean --suite?", naming the flag only (a
 * value after `=` may be a secret). Undefined for an argument without such dashes.
 */
function dashedFlag(command: string, arg: string): string | undefined {
  const dashes = TYPOGRAPHIC_DASHES.exec(arg)?.[0];
  if (dashes === undefined) return undefined;
  const name = arg.slice(dashes.length).split('=')[0] as string;
  return `Unexpected argument ${JSON.stringify(`${dashes}${name}`)} for ${command}: it starts with ${JSON.stringify(dashes)}, a dash, not two hyphens. Did you mean --${name}? Type the two hyphens again (an editor or a chat may have turned \`--\` into a dash).`;
}

function setHostOption(options: HostOptions, name: string, value: string | undefined): void {
  if (name === 'summary') {
    if (value === undefined || value.trim() === '') throw new UsageError('--summary needs a file name.');
    options.summaryFile = value;
    return;
  }
  if (value !== undefined) throw new UsageError(`--${name} takes no value.`);
  if (name === 'json') options.json = true;
  else if (name === 'verbose') options.verbose = true;
  else if (name === 'version') options.version = true;
  else options.help = true;
}

function unknownFlag(command: string, name: string, metadata: ActionMetadata): UsageError {
  const known = [...Object.keys(metadata.inputs), ...Object.keys(HOST_FLAGS)];
  const closest = closestName(name, known);
  const hint = closest !== undefined ? ` Did you mean --${closest}?` : '';
  return new UsageError(
    `Unknown flag --${name} for ${command}.${hint} Run \`sauce-actions ${command} --help\` for its inputs.`,
  );
}
