/**
 * The command line's help and usage mistakes end to end, through the built `cli.js` against an
 * emulator started here: the help of every action with its inputs and defaults, and exit 2 before
 * any request for a mistaken flag, action or value.
 */
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SAUCE_ENV, useCliTerminal } from './support/cli.ts';
import { ROOT } from './support/lab.ts';

/** Every action of the repository, from its folders: the command line must have a command for each. */
const ACTIONS = readdirSync(path.join(ROOT, 'actions')).filter((name) =>
  existsSync(path.join(ROOT, 'actions', name, 'action.yml')),
);

const terminal = useCliTerminal();
const { cli, workspace } = terminal;

describe('help', () => {
  beforeAll(workspace);

  it('lists every action of the actions/ folder, exit 0', async () => {
    const run = await cli(['--help']);
    expect(run.code).toBe(0);
    expect(ACTIONS.length).toBeGreaterThanOrEqual(5);
    for (const name of ACTIONS) {
      expect(
        run.stdout,
        `actions/${name} has no command: add it to COMMANDS in src/commands.ts (its action.yml and a load of its src/definition.ts), then rebuild dist/`,
      ).toContain(`  ${name} `);
    }
    expect(run.stdout).toContain('Exit codes');
  });

  it('without an action, shows the help on standard error, exit 2', async () => {
    const run = await cli([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Usage: sauce-actions <action>');
  });

  it.each(ACTIONS)('%s --help: every input of action.yml, with its default', async (name) => {
    const metadata = parse(await readFile(path.join(ROOT, 'actions', name, 'action.yml'), 'utf8')) as {
      inputs: Record<string, { default?: unknown }>;
      outputs: Record<string, unknown>;
    };
    const run = await cli([name, '--help']);
    expect(run.code).toBe(0);
    for (const [input, spec] of Object.entries(metadata.inputs)) {
      expect(run.stdout).toContain(`  --${input} <value>\n`);
      const section = run.stdout.slice(run.stdout.indexOf(`  --${input} <value>\n`));
      const next = section.indexOf('\n  --', 1);
      const help = section.slice(0, next < 0 ? undefined : next).replace(/\s+/g, ' ');
      // An input that only GitHub acts on says so instead of a default that changes nothing here.
      if (help.includes('GitHub Actions only')) continue;
      if (spec.default !== undefined && !String(spec.default).includes('${{')) {
        expect(help).toContain(`Default: ${String(spec.default)}.`);
      }
    }
    for (const output of Object.keys(metadata.outputs)) expect(run.stdout).toContain(`\n  ${output}\n`);
  });
});

describe('usage mistakes: exit 2 before any request', () => {
  beforeAll(workspace);

  it('--suit Smoke names --suit, suggests --suite, and sends nothing', async () => {
    await terminal.lab.clearJournal();
    const run = await cli(
      ['run-suite-and-wait', '--suit', 'Smoke', '--api-url', terminal.lab.url],
      SAUCE_ENV,
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Unknown flag --suit for run-suite-and-wait. Did you mean --suite?');
    expect(await terminal.lab.journal()).toEqual([]);
  });

  it('--SUITE (the case wrong) names --suite; with --json the error is the one JSON object on standard output', async () => {
    await terminal.lab.clearJournal();
    const run = await cli(
      ['run-suite-and-wait', '--SUITE', 'Smoke', '--json', '--api-url', terminal.lab.url],
      SAUCE_ENV,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown flag --SUITE for run-suite-and-wait. Did you mean --suite?');
    expect(JSON.parse(run.stdout)).toEqual({
      error: {
        kind: 'usage',
        message: expect.stringContaining('Did you mean --suite?') as unknown,
      },
    });
    expect(await terminal.lab.journal()).toEqual([]);
  });

  it('a suite the service does not know is found after requests were sent: exit 1, as other refusals', async () => {
    await terminal.lab.clearJournal();
    const run = await cli(
      ['run-suite-and-wait', '--suite', 'No such suite', '--json', '--api-url', terminal.lab.url],
      SAUCE_ENV,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: Input "suite" names "No such suite", but no test suite/m);
    const printed = JSON.parse(run.stdout) as { error: { kind: string; message: string } };
    expect(printed.error.kind).toBe('refused');
    expect(printed.error.message).toContain('Input "suite" names "No such suite"');
    expect((await terminal.lab.journal()).length).toBeGreaterThan(0);
  });

  it('an unknown action is named, with the closest one', async () => {
    const run = await cli(['upload-buld', '--file', 'app.apk']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown action "upload-buld". Did you mean upload-build?');
  });

  it.each([
    [['--suite', 'Smoke', '--suite', 'Other'], '--suite was given twice; it takes one value.'],
    [['--suite'], '--suite needs a value'],
    [['--suite', '--json'], '--suite needs a value'],
    [['Smoke'], 'Unexpected argument "Smoke" for run-suite-and-wait'],
    [['--json=yes'], '--json takes no value.'],
  ])('%j is refused', async (args, message) => {
    await terminal.lab.clearJournal();
    const run = await cli(['run-suite-and-wait', '--api-url', terminal.lab.url, ...args], SAUCE_ENV);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(await terminal.lab.journal()).toEqual([]);
  });

  it("a value the action's reader refuses is bad input too: exit 2, nothing sent", async () => {
    await terminal.lab.clearJournal();
    const run = await cli(
      ['run-suite-and-wait', '--suite=Smoke', '--retries', '9', '--api-url', terminal.lab.url],
      SAUCE_ENV,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: Input "retries" has 9, which is out of range/m);
    expect(await terminal.lab.journal()).toEqual([]);
  });

  it('a missing credential names its input and environment variable', async () => {
    const run = await cli(['manage-tunnel', '--operation', 'list', '--api-url', terminal.lab.url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('SAUCE_USERNAME is not set');
  });
});
