/**
 * run-suite-and-wait and run-js-tests through the built `cli.js` against emulators started here:
 * outputs as JSON or name=value lines, the JUnit file and summary written, the exit code of
 * failed jobs, and SIGTERM stopping the jobs; no secret ever printed.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { leaked, outputLines, SAUCE_ENV, useCliTerminal } from './support/cli.ts';
import { openLab, requestsTo, type Lab } from './support/lab.ts';

const terminal = useCliTerminal();
const { cli, workspace } = terminal;

/** Jobs that run until they are stopped, for the cancellation. */
let longJobs: Lab;

beforeAll(async () => {
  longJobs = await openLab();
});

describe('run-suite-and-wait', () => {
  beforeAll(workspace);

  it('--suite Smoke --json --junit-file r.xml: exit 1 with "failed":1, the JUnit file written', async () => {
    const run = await cli(
      [
        'run-suite-and-wait',
        '--suite',
        'Smoke',
        '--json',
        '--junit-file',
        'r.xml',
        '--poll-interval',
        '1s',
        '--api-url',
        terminal.lab.url,
        '--access-key',
        'demo-access-key',
        '--summary',
        'smoke.md',
      ],
      { SAUCE_USERNAME: 'demo' },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    expect(run.stdout).toContain('"failed":1');
    const outputs = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(outputs).toMatchObject({ total: 3, passed: 2, failed: 1, flaky: 0 });
    const junit = await readFile(path.join(terminal.dir, 'r.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites tests="3" failures="1"/);
    expect(run.stderr).toMatch(/^error: Failed job: Checkout fails: /m);
    const summary = await readFile(path.join(terminal.dir, 'smoke.md'), 'utf8');
    expect(summary).toContain('Suite Smoke: 2 of 3 jobs passed');
    expect(leaked(run.stdout, run.stderr, summary, junit)).toEqual([]);
  });

  it('name=value lines: counts as digits, a JSON array as it is, exit 0 with fail-on-failure false', async () => {
    const run = await cli(
      [
        'run-suite-and-wait',
        '--suite',
        'Smoke',
        '--fail-on-failure',
        'false',
        '--poll-interval',
        '1s',
        '--api-url',
        terminal.lab.url,
      ],
      SAUCE_ENV,
    );
    expect(run.code, run.stderr).toBe(0);
    const outputs = outputLines(run.stdout);
    expect(outputs).toMatchObject({ total: '3', passed: '2', failed: '1' });
    expect(JSON.parse(outputs['job-ids'] as string)).toHaveLength(3);
    expect(run.stderr).toMatch(/^warning: /m);
  });

  it('SIGTERM while the jobs run: they are stopped (the journal has the stops), exit 1', async () => {
    await longJobs.clearJournal();
    const run = await cli(
      [
        'run-suite-and-wait',
        '--suite',
        'Smoke',
        '--poll-interval',
        '1s',
        '--api-url',
        longJobs.url,
        '--build-name',
        'cli-cancel',
      ],
      SAUCE_ENV,
      { signalWhen: { text: 'Started suite', signal: 'SIGTERM' } },
    );
    expect(run.code).toBe(1);
    expect(run.signal).toBeNull();
    expect(run.stderr).toMatch(/^error: Cancelled/m);
    const journal = await longJobs.journal();
    const started = longJobs.jobs().filter((job) => job.build?.startsWith('cli-cancel'));
    expect(started).toHaveLength(3);
    const stops = requestsTo(journal, 'PUT', /\/jobs\/[0-9a-f]+\/stop$/);
    expect(stops.map((entry) => entry.path.split('/').at(-2)).sort()).toEqual(
      started.map((job) => job.id).sort(),
    );
    expect(longJobs.leftRunning().filter((job) => job.build?.startsWith('cli-cancel'))).toEqual([]);
  });
});

describe('run-js-tests', () => {
  beforeAll(workspace);

  it('two platforms from a repeated --platforms, exit 0', async () => {
    const run = await cli(
      [
        'run-js-tests',
        '--url',
        'https://example.com/tests/qunit.html',
        '--framework',
        'qunit',
        '--platforms',
        'Windows 11 / chrome / latest',
        '--platforms',
        'macOS 14 / safari / 17',
        '--poll-interval',
        '1s',
        '--junit-file',
        'js.xml',
        '--api-url',
        terminal.lab.url,
      ],
      SAUCE_ENV,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(outputLines(run.stdout)).toMatchObject({ total: '2', passed: '2', failed: '0' });
    expect(existsSync(path.join(terminal.dir, 'js.xml'))).toBe(true);
  });

  it('a failing page: exit 1', async () => {
    const run = await cli(
      [
        'run-js-tests',
        '--url',
        'https://example.com/fail.html',
        '--framework',
        'qunit',
        '--platforms',
        'Windows 11 / chrome / latest',
        '--poll-interval',
        '1s',
        '--api-url',
        terminal.lab.url,
        '--json',
      ],
      SAUCE_ENV,
    );
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ total: 1, failed: 1 });
  });
});
