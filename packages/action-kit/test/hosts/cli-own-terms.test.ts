/**
 * What the command line has of its own, next to the action's inputs: `--version`, the refusal of a
 * Node.js too old for the bundles, the `SAUCE_API_URL` fallback of `--api-url`, and help in its own
 * terms (its defaults and variables, not the runner's).
 */
import { describe, expect, it } from 'vitest';
import { actionMetadata } from '../../src/hosts/action-metadata.ts';
import type { CliCommand } from '../../src/hosts/cli-command.ts';
import { runCli } from '../../src/hosts/cli-host.ts';
import { action, command, useCliTerminal, type Inputs } from './cli-sample.ts';

const { out, err, io } = useCliTerminal('cli-own-');

/** The sample command, keeping the inputs its run was given and whether it was loaded. */
function recording(): { command: CliCommand; seen: () => Inputs | undefined; loaded: () => boolean } {
  let seen: Inputs | undefined;
  let loaded = false;
  const module = {
    action: action(async (inputs) => {
      seen = inputs;
      return { outputs: {}, summary: '', annotations: [] };
    }),
  };
  return {
    command: { ...command(module), load: async () => ((loaded = true), module) },
    seen: () => seen,
    loaded: () => loaded,
  };
}

describe('--version', () => {
  it.each([[['--version']], [['sample', '--version']], [['sample', '--name', 'x', '--version']]])(
    '%j prints the version, exit 0, without loading the action',
    async (args) => {
      const sample = recording();
      expect(await runCli([sample.command], args, io, { version: '1.2.3' })).toBe(0);
      expect(out.join('')).toBe('sauce-actions 1.2.3\n');
      expect(sample.loaded()).toBe(false);
    },
  );

  it('is listed among the options of the help', async () => {
    expect(await runCli([recording().command], ['sample', '--help'], io)).toBe(0);
    expect(out.join('')).toContain('  --version\n      print the version of sauce-actions\n');
  });
});

describe('an old Node.js', () => {
  const node20 = { version: '20.20.2', execPath: '/usr/bin/node' };

  it('is refused in one line, exit 2, before anything is loaded', async () => {
    const sample = recording();
    expect(await runCli([sample.command], ['sample', '--name', 'x'], io, { node: node20 })).toBe(2);
    expect(err.join('')).toBe(
      'error: sauce-actions needs Node.js 22 or later, and this is Node.js 20.20.2 (/usr/bin/node). Install Node.js 22 or later and run it again.\n',
    );
    expect(out.join('')).toBe('');
    expect(sample.loaded()).toBe(false);
  });

  it('with --json, is one JSON object of kind usage', async () => {
    expect(await runCli([recording().command], ['sample', '--json'], io, { node: node20 })).toBe(2);
    const object = JSON.parse(out.join('')) as { error: { kind: string; message: string } };
    expect(object.error.kind).toBe('usage');
    expect(object.error.message).toContain('needs Node.js 22 or later');
  });

  it.each(['22.0.0', '24.21.0', '25.1.0'])('%s is not refused', async (version) => {
    const node = { version, execPath: '/usr/bin/node' };
    expect(await runCli([recording().command], ['--version'], io, { node })).toBe(0);
  });
});

describe('SAUCE_API_URL', () => {
  it('is the address when --api-url is not given, and says so by name', async () => {
    const sample = recording();
    io.env = { ...io.env, SAUCE_API_URL: 'http://127.0.0.1:4545/' };
    expect(await runCli([sample.command], ['sample'], io)).toBe(0);
    expect(sample.seen()?.connection.apiUrl).toBe('http://127.0.0.1:4545');
    expect(err.join('')).toContain('--api-url not given: using the environment variable SAUCE_API_URL.');
  });

  it('gives way to --api-url', async () => {
    const sample = recording();
    io.env = { ...io.env, SAUCE_API_URL: 'http://127.0.0.1:4545' };
    expect(await runCli([sample.command], ['sample', '--api-url', 'http://127.0.0.1:9'], io)).toBe(0);
    expect(sample.seen()?.connection.apiUrl).toBe('http://127.0.0.1:9');
    expect(err.join('')).not.toContain('SAUCE_API_URL');
  });

  it('empty, is as if not set', async () => {
    const sample = recording();
    io.env = { ...io.env, SAUCE_API_URL: '' };
    expect(await runCli([sample.command], ['sample'], io)).toBe(0);
    expect(sample.seen()?.connection.apiUrl).toBeUndefined();
  });

  it('with a password in it, is refused as --api-url is, exit 2, and never printed', async () => {
    io.env = { ...io.env, SAUCE_API_URL: 'https://user:hunter2-secret@gateway.example' };
    expect(await runCli([recording().command], ['sample', '--json'], io)).toBe(2);
    const printed = out.join('') + err.join('');
    expect(printed).toContain('api-url');
    expect(printed).toContain('SAUCE_API_URL');
    expect(printed).not.toContain('hunter2-secret');
  });
});

describe('help in the command line terms', () => {
  const metadata = actionMetadata({
    name: 'Sample',
    description: 'Does a thing on the runner and stops it when the job ends.',
    inputs: {
      file: { description: 'Path of the file, relative to the workspace.' },
      'access-key': { description: 'Access key (store it as a secret).' },
      'api-url': { description: 'Base address that replaces the region.' },
      'pr-comment': {
        description: 'The token needs `pull-requests: write` (job `permissions`).',
        default: false,
      },
      'github-token': { description: 'Token; default the workflow token.', default: '${{ github.token }}' },
      'fail-on-failure': { description: '`true` fails the step when a test fails.', default: true },
    },
    outputs: {},
  });
  const sample: CliCommand = { ...recording().command, metadata };

  it('an action: current folder, the command, its own defaults and variables, GitHub-only inputs said so', async () => {
    expect(await runCli([sample], ['sample', '--help'], io)).toBe(0);
    const help = out.join('').replace(/\s+/g, ' ');
    expect(help).toContain('Does a thing on this machine and stops it when the command ends.');
    expect(help).toContain('Path of the file, relative to the current folder.');
    expect(help).toContain("(keep it in the CI system's secret variables, not on the command line)");
    expect(help).toContain(
      'Base address that replaces the region. Default: the environment variable SAUCE_API_URL, else the address of `region`.',
    );
    expect(help).toContain('--pr-comment <value> GitHub Actions only');
    expect(help).toContain('--github-token <value> GitHub Actions only');
    expect(help).toContain('`true` fails the command when a test fails. Default: true.');
    for (const runnerWord of ['workspace', 'the step', '${{', 'permissions', 'Default: false']) {
      expect(help).not.toContain(runnerWord);
    }
  });

  it('the commands: the environment variables, SAUCE_API_URL among them', async () => {
    expect(await runCli([sample], ['--help'], io)).toBe(0);
    const help = out.join('');
    expect(help).toContain('sauce-actions --help | --version');
    for (const variable of ['SAUCE_USERNAME', 'SAUCE_ACCESS_KEY', 'SAUCE_APPDIST_API_KEY', 'SAUCE_API_URL']) {
      expect(help).toMatch(new RegExp(`^  ${variable} +--`, 'm'));
    }
  });
});
