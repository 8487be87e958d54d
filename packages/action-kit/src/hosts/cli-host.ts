/**
 * The command line's host, the second host of the action contract next to the runner's: the
 * subcommand's flags are its inputs (defaults from the embedded `action.yml`, the same readers and
 * checks); `cli-run.ts` runs the action and publishes its result. This part answers help and usage
 * mistakes without loading the action or the client. No part imports `@actions/core`, which
 * writes to standard output, where the outputs go.
 */
import { commandFreeJson, commandFreeText } from '../reporting/log-text.ts';
import { redactSecrets } from '../step/secrets.ts';
import { parseActionArgs, UsageError } from './cli-args.ts';
import { EXIT_DONE, EXIT_USAGE, type CliCommand, type CliIo } from './cli-command.ts';
import { actionHelp, generalHelp } from './cli-help.ts';
import { closestName } from './closest-name.ts';

export { EXIT_DONE, EXIT_FAILED, EXIT_USAGE, type CliIo } from './cli-command.ts';

export function processIo(): CliIo {
  return {
    stdout: writerTo(process.stdout),
    stderr: writerTo(process.stderr),
    env: process.env,
    cwd: process.cwd(),
  };
}

/**
 * Writes to a standard stream until it fails. A reader that stops reading (`| head -1`, a pipe
 * to `true`) closes it under the command (EPIPE): what is left to print has no reader, but the
 * work goes on and its status is the exit code, instead of a stack from an unhandled error.
 */
function writerTo(stream: NodeJS.WriteStream): (text: string) => void {
  let open = true;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    open = false;
    // Any other failure (a full disk) is no reader's choice: said on standard error, if it can be.
    if (error.code !== 'EPIPE' && stream === process.stdout && !process.stderr.destroyed) {
      process.stderr.write(
        `error: standard output could not be written (${error.message}): outputs are lost.\n`,
      );
    }
  });
  return (text) => {
    if (open && !stream.destroyed) stream.write(text);
  };
}

/** Runs `sauce-actions <action> [flags]`; answers the exit code. */
export async function runCli(
  commands: readonly CliCommand[],
  argv: readonly string[],
  host: CliIo,
  about: {
    /** The package's version, for `--version`. */
    version?: string;
    /** The Node.js running the command, refused when older than the bundles need. */
    node?: { version: string; execPath: string };
  } = {},
): Promise<number> {
  const version = about.version ?? 'unknown';
  // Everything printed passes here: no secret the readers registered gets out, and no line of
  // standard error reads as a CI system's command (standard output holds only the outputs,
  // which `cli-run.ts` writes so).
  const io: CliIo = {
    ...host,
    stdout: (text) => host.stdout(redactSecrets(text)),
    stderr: (text) => host.stderr(commandFreeText(redactSecrets(text))),
  };
  const [name, ...args] = argv;
  // With `--json`, standard output holds one JSON object whatever happens: a usage mistake too.
  const json = argv.includes('--json');
  const usage = (message: string): number => {
    io.stderr(`error: ${message}\n`);
    if (json) io.stdout(`${commandFreeJson(JSON.stringify({ error: { kind: 'usage', message } }))}\n`);
    return EXIT_USAGE;
  };
  // The package's entry refuses an old Node.js before loading anything; a checkout's bundle run
  // straight with `node dist/cli.js` gets here, where it would fail only when an action loads.
  const tooOld = about.node !== undefined ? oldNodeRefusal(about.node) : undefined;
  if (tooOld !== undefined) return usage(tooOld);
  if (name === undefined) {
    io.stderr(generalHelp(commands));
    return EXIT_USAGE;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout(generalHelp(commands));
    return EXIT_DONE;
  }
  if (name === '--version') {
    io.stdout(`sauce-actions ${version}\n`);
    return EXIT_DONE;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (command === undefined) {
    const closest = closestName(
      name,
      commands.map((c) => c.name),
    );
    return usage(
      `Unknown action ${JSON.stringify(name)}.${closest !== undefined ? ` Did you mean ${closest}?` : ''} The actions are ${commands.map((c) => c.name).join(', ')}; \`sauce-actions --help\` says more.`,
    );
  }
  let parsed;
  try {
    parsed = parseActionArgs(command.name, args, command.metadata);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usage(error.message);
  }
  if (parsed.options.help) {
    io.stdout(actionHelp(command));
    return EXIT_DONE;
  }
  if (parsed.options.version) {
    io.stdout(`sauce-actions ${version}\n`);
    return EXIT_DONE;
  }
  // The run's part loads only now, with the action: help and mistakes answer sooner without it.
  const [{ runAction }, module] = await Promise.all([import('./cli-run.ts'), command.load()]);
  return runAction(command, module, parsed.inputs, parsed.options, io);
}

/** The oldest Node.js major version the bundles run on (the package's entry checks the same). */
export const MINIMUM_NODE_MAJOR = 22;

function oldNodeRefusal(node: { version: string; execPath: string }): string | undefined {
  if (Number(node.version.split('.')[0]) >= MINIMUM_NODE_MAJOR) return undefined;
  return `sauce-actions needs Node.js ${MINIMUM_NODE_MAJOR} or later, and this is Node.js ${node.version} (${node.execPath}). Install Node.js ${MINIMUM_NODE_MAJOR} or later and run it again.`;
}
