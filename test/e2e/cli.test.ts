/**
 * The command line end to end: every action through the built `cli.js`, a process of its own,
 * against an emulator started here; its exit codes, help, flags, the cleanup on a signal, and
 * that no secret is ever printed.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { publishBuild, sha256, tarGz } from '../../actions/manage-tunnel/test/archives.ts';
import { writeFakeSauceConnect } from '../../actions/manage-tunnel/test/fake-sc.ts';
import { CLI, outputLines, runCli, type CliRun } from './support/cli.ts';
import { closeLabs, openLab, requestsTo, ROOT, type Lab } from './support/lab.ts';

const ACTIONS = ['upload-build', 'invite-testers', 'run-suite-and-wait', 'run-js-tests', 'manage-tunnel'];
const SAUCE_ENV = { SAUCE_USERNAME: 'demo', SAUCE_ACCESS_KEY: 'demo-access-key' };
const MOBILE_ENV = { SAUCE_APPDIST_API_KEY: 'demo-api-key' };
/** Every form in which a key could leak: as is, or inside a Basic header. */
const SECRETS = [
  'demo-access-key',
  Buffer.from('demo:demo-access-key').toString('base64'),
  'demo-api-key',
  Buffer.from('demo@example.com:demo-api-key').toString('base64'),
];

let lab: Lab;
/** Jobs that run until they are stopped, for the cancellation. */
let longJobs: Lab;
/** The current describe's workspace: the commands' working folder. */
let dir: string;
const dirs: string[] = [];

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build the bundles (npm run build)`);
  // Jobs end before the first poll (a second after the start, the shortest poll-interval).
  [lab, longJobs] = await Promise.all([openLab({ jobDurationMs: 500 }), openLab()]);
});

afterAll(async () => {
  await closeLabs();
  await Promise.all(dirs.map((at) => rm(at, { recursive: true, force: true })));
});

async function workspace(): Promise<void> {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cli-e2e-'));
  dirs.push(dir);
}

function cli(args: readonly string[], env: Record<string, string> = {}, extra = {}): Promise<CliRun> {
  return runCli(args, { cwd: dir, env, ...extra });
}

function leaked(...texts: string[]): string[] {
  const all = texts.join('\n');
  return SECRETS.filter((secret) => all.includes(secret));
}

describe('help', () => {
  beforeAll(workspace);

  it('lists the five actions, exit 0', async () => {
    const run = await cli(['--help']);
    expect(run.code).toBe(0);
    for (const name of ACTIONS) expect(run.stdout).toContain(`  ${name} `);
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
      if (spec.default !== undefined && !String(spec.default).includes('${{')) {
        const section = run.stdout.slice(run.stdout.indexOf(`  --${input} <value>\n`));
        const next = section.indexOf('\n  --', 1);
        expect(section.slice(0, next < 0 ? undefined : next).replace(/\s+/g, ' ')).toContain(
          `Default: ${String(spec.default)}.`,
        );
      }
    }
    for (const output of Object.keys(metadata.outputs)) expect(run.stdout).toContain(`\n  ${output}\n`);
  });
});

describe('usage mistakes: exit 2 before any request', () => {
  beforeAll(workspace);

  it('--suit Smoke names --suit, suggests --suite, and sends nothing', async () => {
    await lab.clearJournal();
    const run = await cli(['run-suite-and-wait', '--suit', 'Smoke', '--api-url', lab.url], SAUCE_ENV);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Unknown flag --suit for run-suite-and-wait. Did you mean --suite?');
    expect(await lab.journal()).toEqual([]);
  });

  it('--SUITE (the case wrong) names --suite; with --json the error is the one JSON object on standard output', async () => {
    await lab.clearJournal();
    const run = await cli(
      ['run-suite-and-wait', '--SUITE', 'Smoke', '--json', '--api-url', lab.url],
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
    expect(await lab.journal()).toEqual([]);
  });

  it('a suite the service does not know is found after requests were sent: exit 1, as other refusals', async () => {
    await lab.clearJournal();
    const run = await cli(
      ['run-suite-and-wait', '--suite', 'No such suite', '--json', '--api-url', lab.url],
      SAUCE_ENV,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: Input "suite" names "No such suite", but no test suite/m);
    const printed = JSON.parse(run.stdout) as { error: { kind: string; message: string } };
    expect(printed.error.kind).toBe('refused');
    expect(printed.error.message).toContain('Input "suite" names "No such suite"');
    expect((await lab.journal()).length).toBeGreaterThan(0);
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
    await lab.clearJournal();
    const run = await cli(['run-suite-and-wait', '--api-url', lab.url, ...args], SAUCE_ENV);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(await lab.journal()).toEqual([]);
  });

  it("a value the action's reader refuses is bad input too: exit 2, nothing sent", async () => {
    await lab.clearJournal();
    const run = await cli(
      ['run-suite-and-wait', '--suite=Smoke', '--retries', '9', '--api-url', lab.url],
      SAUCE_ENV,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: Input "retries" has 9, which is out of range/m);
    expect(await lab.journal()).toEqual([]);
  });

  it('a missing credential names its input and environment variable', async () => {
    const run = await cli(['manage-tunnel', '--operation', 'list', '--api-url', lab.url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('SAUCE_USERNAME is not set');
  });
});

describe('mobile distribution', () => {
  let apk: string;
  beforeAll(async () => {
    await workspace();
    apk = path.join(dir, 'app.apk');
    await createSampleApk(apk, {
      packageId: 'com.example.cli',
      name: 'CLI Shop',
      version: '4.5.6',
      versionCode: 456,
    });
  });

  it.runIf(process.platform !== 'win32').each([
    ['.\\app.apk', '\\ is not a folder separator on Linux; write "./app.apk"'],
    ['C:\\x\\app.apk', 'a drive letter (C:) is a Windows path, and this runner is Linux'],
    ['~/app.apk', '`~` is not expanded, as the runner passes inputs as written'],
  ])(
    'upload-build --file %s: exit 2 before any request, saying what is wrong with the form',
    async (file, hint) => {
      await lab.clearJournal();
      const run = await cli(['upload-build', '--file', file, '--api-url', lab.url], MOBILE_ENV);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^error: Input "file" names .*, which does not exist: /m);
      expect(run.stderr).toContain(hint.replace('Linux', process.platform === 'darwin' ? 'macOS' : 'Linux'));
      expect(await lab.journal()).toEqual([]);
    },
  );

  it('upload-build with the key from the environment prints build-id=…, exit 0; invite-testers takes its outputs', async () => {
    const upload = await cli(
      [
        'upload-build',
        '--file',
        'app.apk',
        `--api-url=${lab.url}`,
        '--email',
        'demo@example.com',
        '--tags',
        'cli',
        '--tags',
        'nightly',
        '--metadata',
        'commit=abc123',
        '--metadata',
        'branch=main',
        '--summary',
        'upload.md',
      ],
      MOBILE_ENV,
    );
    expect(upload.code, upload.stderr).toBe(0);
    const outputs = outputLines(upload.stdout);
    expect(outputs['build-id']).toMatch(/^\d+$/);
    expect(outputs['app-version']).toBe('4.5.6');
    expect(upload.stderr).toContain('Uploaded CLI Shop 4.5.6');
    const stored = lab.emulator.context.mobile.data.builds.find((b) => String(b.id) === outputs['build-id']);
    // Repeated list flags arrive as one value per line.
    expect(stored?.tags).toEqual(['cli', 'nightly']);
    expect(stored?.metadata).toEqual({ commit: 'abc123', branch: 'main' });
    const summary = await readFile(path.join(dir, 'upload.md'), 'utf8');
    expect(summary).toContain('CLI Shop');

    const invite = await cli([
      'invite-testers',
      '--project-id',
      outputs['project-id'] as string,
      '--build-id',
      outputs['build-id'] as string,
      '--email',
      'demo@example.com',
      '--api-key',
      'demo-api-key',
      '--groups',
      'qa',
      '--testers',
      'dave@example.com',
      '--testers',
      'erin@example.com',
      '--tester-group',
      'cli-testers',
      '--api-url',
      lab.url,
    ]);
    expect(invite.code, invite.stderr).toBe(0);
    expect(outputLines(invite.stdout)['invited-groups']).toBe('qa,cli-testers');
    expect(outputLines(invite.stdout)['added-testers']).toBe('dave@example.com,erin@example.com');
    expect(leaked(upload.stdout, upload.stderr, summary, invite.stdout, invite.stderr)).toEqual([]);
  });

  it('a key the service refuses: exit 1, the reason on standard error, no secret printed', async () => {
    const run = await cli(['upload-build', '--file', 'app.apk', '--api-url', lab.url, '--verbose'], {
      SAUCE_APPDIST_API_KEY: 'key-from-eu-central-1',
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: .*\(code 5\)/m);
    expect(run.stderr).toContain('debug: ');
    expect(run.stderr).not.toContain('key-from-eu-central-1');
  });
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
        lab.url,
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
    const junit = await readFile(path.join(dir, 'r.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites tests="3" failures="1"/);
    expect(run.stderr).toMatch(/^error: Failed job: Checkout fails: /m);
    const summary = await readFile(path.join(dir, 'smoke.md'), 'utf8');
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
        lab.url,
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
        lab.url,
      ],
      SAUCE_ENV,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(outputLines(run.stdout)).toMatchObject({ total: '2', passed: '2', failed: '0' });
    expect(existsSync(path.join(dir, 'js.xml'))).toBe(true);
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
        lab.url,
        '--json',
      ],
      SAUCE_ENV,
    );
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ total: 1, failed: 1 });
  });
});

describe('manage-tunnel', () => {
  let sc: string;
  const pids: number[] = [];
  beforeAll(async () => {
    await workspace();
    sc = await writeFakeSauceConnect(dir);
  });
  afterAll(() => {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  });

  const fakeEnv = (): Record<string, string> => ({ ...SAUCE_ENV, FAKE_SC_EMULATOR: lab.url });

  it('wait for demo-tunnel, then list it', async () => {
    const wait = await cli(
      ['manage-tunnel', '--tunnel-name', 'demo-tunnel', '--stop-on-exit', 'false', '--api-url', lab.url],
      SAUCE_ENV,
    );
    expect(wait.code, wait.stderr).toBe(0);
    const id = outputLines(wait.stdout)['tunnel-id'];
    expect(id).toMatch(/^[0-9a-f]+$/);
    const list = await cli(
      [
        'manage-tunnel',
        '--operation',
        'list',
        '--tunnel-name',
        'demo-tunnel',
        '--api-url',
        lab.url,
        '--json',
      ],
      SAUCE_ENV,
    );
    expect(list.code, list.stderr).toBe(0);
    const listed = JSON.parse(JSON.parse(list.stdout).tunnels as string) as { id: string }[];
    expect(listed.map((t) => t.id)).toEqual([id]);
  });

  it('start stays in the foreground with Sauce Connect; SIGTERM stops it and its tunnel, exit 0', async () => {
    const run = await cli(
      [
        'manage-tunnel',
        '--operation',
        'start',
        '--tunnel-name',
        'cli-held',
        '--sc-path',
        sc,
        '--status-address',
        'localhost:8241',
        '--api-url',
        lab.url,
      ],
      fakeEnv(),
      { signalWhen: { text: 'Running until SIGINT or SIGTERM', signal: 'SIGTERM' } },
    );
    expect(run.code, run.stderr).toBe(0);
    const id = outputLines(run.stdout)['tunnel-id'];
    expect(run.stderr).toContain('Sauce Connect stopped.');
    const pid = Number(/Started Sauce Connect \(pid (\d+)\)/.exec(run.stderr)?.[1]);
    pids.push(pid);
    expect(isAlive(pid)).toBe(false);
    expect(lab.emulator.context.automation.data.tunnels[id as string]?.status).toBe('terminated');
  });

  it('start --stop-on-exit false ends and leaves Sauce Connect running; stop --tunnel-name deletes the tunnel later', async () => {
    const run = await cli(
      [
        'manage-tunnel',
        '--operation',
        'start',
        '--tunnel-name',
        'cli-left',
        '--sc-path',
        sc,
        '--status-address',
        'localhost:8242',
        '--stop-on-exit',
        'false',
        '--api-url',
        lab.url,
      ],
      fakeEnv(),
    );
    expect(run.code, run.stderr).toBe(0);
    const pid = Number(/Started Sauce Connect \(pid (\d+)\)/.exec(run.stderr)?.[1]);
    pids.push(pid);
    expect(isAlive(pid)).toBe(true);
    const stop = await cli(
      ['manage-tunnel', '--operation', 'stop', '--tunnel-name', 'cli-left', '--api-url', lab.url],
      SAUCE_ENV,
    );
    expect(stop.code, stop.stderr).toBe(0);
    const id = outputLines(run.stdout)['tunnel-id'];
    expect(outputLines(stop.stdout)['tunnel-id']).toBe(id);
    expect(lab.emulator.context.automation.data.tunnels[id as string]?.status).toBe('terminated');
  });

  it('start downloads the listed Sauce Connect once into its tool cache, verified, then finds it there', async () => {
    // The stand-in in a folder, as older archives wrap it, published in the emulator's listing.
    const archive = tarGz([{ name: 'sauce-connect/sc', body: await readFile(sc), mode: 0o755 }]);
    await publishBuild(lab.url, '9.9.9', archive);
    const flags = ['manage-tunnel', '--operation', 'start', '--sc-version', '9.9.9', '--api-url', lab.url];
    const env = { ...fakeEnv(), SAUCE_ACTIONS_TOOL_CACHE: path.join(dir, 'tools') };
    const signalWhen = { text: 'Running until SIGINT or SIGTERM', signal: 'SIGINT' as const };
    const first = await cli(
      [...flags, '--tunnel-name', 'cli-dl-1', '--status-address', 'localhost:8243'],
      env,
      { signalWhen },
    );
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('Downloading Sauce Connect 9.9.9 from');
    expect(first.stderr).toContain(
      `expecting sha256 ${sha256(archive)} from the Sauce Labs download listing`,
    );
    const second = await cli(
      [...flags, '--tunnel-name', 'cli-dl-2', '--status-address', 'localhost:8244'],
      env,
      { signalWhen },
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(
      `Sauce Connect 9.9.9 found in the tool cache (sha256 ${sha256(archive)}).`,
    );
    expect(second.stderr).toContain('Sauce Connect stopped.');
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
