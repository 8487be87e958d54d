/** The command line's help, generated from the embedded `action.yml` of each action. */
import { ENVIRONMENT_FALLBACKS, HOST_FLAGS } from './cli-args.ts';
import type { CliCommand } from './cli-command.ts';
import { commandLineDefault, commandLineDescription, reworded } from './cli-wording.ts';

const WIDTH = 100;
const PROGRAM = 'sauce-actions';

/** The variables the command line reads, by what they stand for. */
const ENVIRONMENT: readonly (readonly [string, string])[] = [
  ['SAUCE_USERNAME', '--username (automation and AI authoring)'],
  ['SAUCE_ACCESS_KEY', '--access-key'],
  ['SAUCE_APPDIST_API_KEY', '--api-key (mobile distribution)'],
  ...Object.entries(ENVIRONMENT_FALLBACKS).map(
    ([name, { variable, otherwise }]) => [variable, `--${name}; without either, ${otherwise}`] as const,
  ),
  [
    'SAUCE_ACTIONS_OUTPUT_DIR',
    'where a run leaves its files (results, logs, assets); default sauce-actions-output in the current folder',
  ],
  [
    'SAUCE_ACTIONS_TOOL_CACHE',
    'where Sauce Connect is kept once downloaded; default ~/.cache/sauce-actions/tools',
  ],
  ['HTTPS_PROXY, NO_PROXY', 'the proxy of every request (HTTP_PROXY too, and lower-case forms)'],
];

const EXIT_CODES = [
  'Exit codes: 0 done; 1 the work failed (a test failed, the service refused, a timeout, a cancel);',
  '2 bad input or usage, found before anything is sent.',
];

export function generalHelp(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((command) => command.name.length)) + 2;
  return [
    `Usage: ${PROGRAM} <action> [--<input> <value>]... [--json] [--summary FILE] [--verbose]`,
    `       ${PROGRAM} --help | --version`,
    '',
    'Runs one of the Sauce Labs actions from any CI system or terminal. The flags are the inputs of',
    'the GitHub action of the same name, with the same checks and defaults.',
    '',
    'Actions:',
    ...commands.flatMap((command) =>
      wrap(reworded(firstSentence(command.metadata.description)), WIDTH - width - 2).map(
        (line, index) => `  ${(index === 0 ? command.name : '').padEnd(width)}${line}`,
      ),
    ),
    '',
    `Run \`${PROGRAM} <action> --help\` for the inputs and outputs of one action.`,
    '',
    'Environment (a flag given wins):',
    ...ENVIRONMENT.flatMap(([name, text]) =>
      wrap(text, WIDTH - 28).map((line, index) => `  ${(index === 0 ? name : '').padEnd(26)}${line}`),
    ),
    '',
    'Outputs go to standard output as name=value lines (multi-line values JSON-encoded), or as one',
    'JSON object with --json (always one, with "error" when the run or the usage failed); progress,',
    'logs, warnings and errors go to standard error.',
    ...EXIT_CODES,
    '',
  ].join('\n');
}

export function actionHelp(command: CliCommand): string {
  const { metadata } = command;
  const inputs = Object.entries(metadata.inputs).flatMap(([name, input]) => {
    const byDefault = commandLineDefault(name, input);
    const notes = [
      ...(byDefault !== undefined ? [`Default: ${byDefault}.`] : []),
      ...(input.list ? ['Repeatable: the values of a repeated flag are joined by newlines.'] : []),
    ];
    const description = commandLineDescription(name, input);
    return [`  --${name} <value>`, ...indent(wrap([description, ...notes].join(' '), WIDTH - 6), 6)];
  });
  const outputs = Object.entries(metadata.outputs).flatMap(([name, output]) => [
    `  ${name}`,
    ...indent(wrap(output.description, WIDTH - 6), 6),
  ]);
  const host = Object.entries(HOST_FLAGS).flatMap(([name, flag]) => [
    `  --${name}${name === 'summary' ? ' FILE' : ''}`,
    ...indent(wrap(flag.help, WIDTH - 6), 6),
  ]);
  return [
    `Usage: ${PROGRAM} ${command.name} [--<input> <value>]... [--json] [--summary FILE] [--verbose]`,
    '',
    ...wrap(reworded(metadata.description), WIDTH),
    '',
    'Inputs (`--<input> <value>` or `--<input>=<value>`):',
    ...inputs,
    '',
    'Outputs (name=value lines on standard output, or one JSON object with --json):',
    ...outputs,
    '',
    'Options:',
    ...host,
    '',
    ...(command.holdsWhatItStarted
      ? [
          ...wrap(
            'What the step starts and its GitHub post step would stop (Sauce Connect launched by `start`) keeps the command in the foreground until SIGINT or SIGTERM, which stops it; with `--stop-on-exit false` the command ends and leaves it running.',
            WIDTH,
          ),
          '',
        ]
      : []),
    ...EXIT_CODES,
    '',
  ].join('\n');
}

function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end < 0 ? text : text.slice(0, end + 1);
}

/** Words wrapped to `width` columns; a longer word keeps its own line. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

function indent(lines: string[], by: number): string[] {
  return lines.map((line) => `${' '.repeat(by)}${line}`);
}
