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
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
  };
}

/** Runs `sauce-actions <action> [flags]`; answers the exit code. */
export async function runCli(
  commands: readonly CliCommand[],
  argv: readonly string[],
  host: CliIo,
): Promise<number> {
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
  const json = args.includes('--json');
  const usage = (message: string): number => {
    io.stderr(`error: ${message}\n`);
    if (json) io.stdout(`${commandFreeJson(JSON.stringify({ error: { kind: 'usage', message } }))}\n`);
    return EXIT_USAGE;
  };
  if (name === undefined) {
    io.stderr(generalHelp(commands));
    return EXIT_USAGE;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout(generalHelp(commands));
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
  // The run's part loads only now, with the action: help and mistakes answer sooner without it.
  const [{ runAction }, module] = await Promise.all([import('./cli-run.ts'), command.load()]);
  return runAction(command, module, parsed.inputs, parsed.options, io);
}
