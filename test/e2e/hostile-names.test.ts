/**
 * End to end, on the bundles: names from inputs and from the service that carry workflow commands
 * (`::stop-commands::`, `::add-mask::`, `::error::`, `##[`, `##vso[`) or Markdown (a blank line,
 * then an image and a heading), and output paths that are no plain file. The runner-faithful
 * harness reads the step's output as the runner does, `stop-commands` included, so a command that
 * got through shows as one; the command line's output is read the same way.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  DEFAULT_CONTEXT,
  parseWorkflowCommands,
  runStep,
  startGitHubApi,
  type StepResult,
} from '@sauce-actions/action-harness';
import { defaultSeed, startEmulator, type RunningEmulator, type Seed } from '@sauce-actions/emulator';
// The sample writers are not among the emulator's package exports.
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from './support/cli.ts';
import { MOBILE, ROOT, SAUCE, SECRETS } from './support/lab.ts';

/** What the steps mask as they read it: the keys, their Basic forms, the workflow's token. */
const SECRET_FORMS = new Set([DEFAULT_CONTEXT.token, 'ghs_hostileNames0a1b2c', ...SECRETS]);

/** Ends the HTML block of a summary, then brings a tracking image and a heading. */
const MARKDOWN = 'name\n\n![px](https://tracker.example/px.gif)\n\n# Heading';
const LONG = `Long ${'x'.repeat(5000)} end`;
/** Every case of `Hostile` fails, so that each is run again and named in the retry line. */
const HOSTILE_CASES = [
  'Login\n::stop-commands::tok',
  'Cart\n::add-mask::passed',
  'Search\r::error::forged ##[error]forged',
  'Pay ##vso[task.setvariable variable=x]forged',
  MARKDOWN,
  LONG,
  'Bidi \u202egnp.exe',
  'Plain one',
  'Plain two',
];
/** Every case of `Quiet` passes. */
const QUIET_CASES = ['Home\n::error::forged', 'About ##[error]forged', 'Help\n::warning::forged'];
const HOSTILE_SUITE = '3e0a6b2d-8c41-4f7a-9b5e-6d2c1a0f9ea1';
const QUIET_SUITE = '3e0a6b2d-8c41-4f7a-9b5e-6d2c1a0f9ea2';

function seed(): Seed {
  const base = defaultSeed();
  const target = { capabilities: { browserName: 'chrome', browserVersion: 'latest', platformName: 'Linux' } };
  const cases = (suite: string, names: string[], prefix: string, outcome?: 'fail') =>
    names.map((name, n) => ({
      id: `${prefix}${String(n + 1).padStart(2, '0')}`,
      name,
      testSuiteId: suite,
      runSettings: { primaryTarget: target },
      ...(outcome ? { expectedOutcome: outcome } : {}),
    }));
  return {
    ...base,
    authoring: {
      ...base.authoring,
      testSuites: [
        ...(base.authoring.testSuites ?? []),
        { id: HOSTILE_SUITE, name: 'Hostile' },
        { id: QUIET_SUITE, name: 'Quiet' },
      ],
      testCases: [
        ...(base.authoring.testCases ?? []),
        ...cases(HOSTILE_SUITE, HOSTILE_CASES, 'cccccccccccccccccccccc', 'fail'),
        ...cases(QUIET_SUITE, QUIET_CASES, 'dddddddddddddddddddddd'),
      ],
    },
  };
}

let emulator: RunningEmulator;
let workspace: string;
const steps: StepResult[] = [];

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build the bundles (npm run build)`);
  emulator = await startEmulator({ port: 0, jobDurationMs: 300, seed: seed() });
  workspace = await mkdtemp(path.join(os.tmpdir(), 'e2e-hostile-'));
});

afterAll(async () => {
  await Promise.all(steps.map((step) => step.cleanup()));
  await emulator?.close();
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

async function step(
  action: 'upload-build' | 'run-suite-and-wait',
  inputs: Record<string, string>,
  extra: Partial<Parameters<typeof runStep>[0]> = {},
): Promise<StepResult> {
  const result = await runStep({
    actionDir: path.join(ROOT, 'actions', action),
    inputs: { 'api-url': emulator.url, ...inputs },
    workspace,
    ...extra,
  });
  steps.push(result);
  return result;
}

/** The commands the step carried out beyond the hosts' own masks of the keys. */
function commandsBeyondMasks(result: StepResult): string[] {
  return [result, ...(result.post ? [result.post] : [])]
    .flatMap((phase) => phase.commands)
    .filter((command) => !(command.name === 'add-mask' && SECRET_FORMS.has(command.data)))
    .map((command) => command.name);
}

/** What a command hidden in a name would have done: stop commands, mask a word, or annotate. */
function expectNoForgedCommand(result: StepResult): void {
  const names = commandsBeyondMasks(result);
  expect(
    names.filter((name) => !['error', 'warning', 'notice', 'group', 'endgroup', 'debug'].includes(name)),
  ).toEqual([]);
  expect(result.masks.filter((mask) => !SECRET_FORMS.has(mask))).toEqual([]);
  // A forged annotation's text is what follows the command in the name.
  expect(result.annotations.filter((annotation) => annotation.message.startsWith('forged'))).toEqual([]);
}

/** A summary Markdown reads as HTML alone: every line a tag, no blank line, no image. */
function expectHtmlOnly(summary: string): void {
  const lines = summary.split('\n').filter((line) => line !== '');
  expect(lines.filter((line) => !line.startsWith('<'))).toEqual([]);
  expect(summary).not.toMatch(/\n[ \t]*\n/);
  expect(summary).not.toContain('<img');
  expect(summary).not.toContain('\u202e');
}

describe('names that carry workflow commands and Markdown', () => {
  it('run-suite-and-wait: a stop-commands in build-name and commands in case names leave the failure seen; the retry line names five', async () => {
    const result = await step('run-suite-and-wait', {
      ...SAUCE,
      suite: 'Hostile',
      'build-name': 'Nightly\n::stop-commands::tok',
      retries: '1',
      'poll-interval': '1s',
      'junit-file': 'reports/hostile.xml',
    });
    expect(result.exitCode).toBe(1);
    expectNoForgedCommand(result);
    // The failure still reaches the runner as its first error annotation, after every name was printed.
    const errors = result.annotations.filter((annotation) => annotation.level === 'error');
    expect(errors[0]?.message).toContain('9 of 9 job(s) failed');
    expect(result.log).toContain('Started');
    expect(result.log).toContain('Nightly\n: :stop-commands::tok');

    // The retry line: five names and a count, on one line of the log.
    const retry = result.log
      .split('\n')
      .find((line) => line.startsWith('Running 9 failed test case(s) again'));
    expect(retry).toBeDefined();
    expect(result.log).toContain('and 4 more.');
    expect(result.log.length).toBeLessThan(20_000);

    // The summary: one row per job, every name on its line, the long one shortened.
    expectHtmlOnly(result.summary);
    expect(result.summary.match(/<tr>/g)).toHaveLength(HOSTILE_CASES.length + 1);
    expect(result.summary).toContain('name ![px](https://tracker.example/px.gif) # Heading');
    expect(result.summary).not.toContain(LONG);
    expect(result.summary).toContain('Long xxx');
    // The JUnit file and the results file keep the names whole.
    const junit = await readFile(path.join(workspace, 'reports', 'hostile.xml'), 'utf8');
    expect(junit).toContain(LONG);
    const results = JSON.parse(await readFile(result.outputs['results-file']!, 'utf8')) as {
      jobs: { name: string }[];
    };
    expect(results.jobs.map((job) => job.name).sort()).toEqual([...HOSTILE_CASES].sort());
  });

  it('run-suite-and-wait: a green step whose case names hold error commands shows no error', async () => {
    const result = await step('run-suite-and-wait', { ...SAUCE, suite: 'Quiet', 'poll-interval': '1s' });
    expect(result.exitCode).toBe(0);
    expectNoForgedCommand(result);
    expect(result.annotations).toEqual([]);
    expectHtmlOnly(result.summary);
    expect(result.summary.match(/<tr>/g)).toHaveLength(QUIET_CASES.length + 1);
  });

  it('upload-build: the app name and version the service answers cannot stop commands or mask a word', async () => {
    await createSampleApk(path.join(workspace, 'stop.apk'), {
      packageId: 'com.example.stop',
      name: 'Demo\n::stop-commands::tok',
      version: '1.0\n::add-mask::passed',
      versionCode: 1,
    });
    // In a pull request with no token, the comment is a warning, printed after the names.
    const result = await step(
      'upload-build',
      { ...MOBILE, file: 'stop.apk', 'pr-comment': 'true', 'github-token': '' },
      {
        context: { eventName: 'pull_request', repository: 'example/app' },
        event: { pull_request: { number: 3 } },
      },
    );
    expect(result.exitCode).toBe(0);
    expectNoForgedCommand(result);
    expect(result.outputs['app-name']).toBe('Demo\n::stop-commands::tok');
    expect(result.log).toContain('Uploaded Demo\n: :stop-commands::tok 1.0\n: :add-mask::passed');
    expect(result.annotations.map((annotation) => annotation.message)).toEqual([
      expect.stringContaining('pr-comment: no pull-request comment written'),
    ]);
    expectHtmlOnly(result.summary);
  });

  it('upload-build: an app name holding Markdown is one line in the summary and in the comment', async () => {
    await createSampleApk(path.join(workspace, 'markdown.apk'), {
      packageId: 'com.example.markdown',
      name: MARKDOWN,
      version: '2.0',
      versionCode: 2,
    });
    const github = await startGitHubApi({ token: 'ghs_hostileNames0a1b2c', repository: 'example/app' });
    try {
      const result = await step(
        'upload-build',
        { ...MOBILE, file: 'markdown.apk', 'pr-comment': 'true' },
        {
          env: { GITHUB_API_URL: github.url },
          context: { eventName: 'pull_request', repository: 'example/app', token: 'ghs_hostileNames0a1b2c' },
          event: { pull_request: { number: 4 } },
        },
      );
      expect(result.exitCode).toBe(0);
      expectHtmlOnly(result.summary);
      expect(result.summary).toContain(
        '<td>App</td><td>name ![px](https://tracker.example/px.gif) # Heading</td>',
      );
      const body = github.commentsOf(4)[0]?.body ?? '';
      const lines = body.split('\n');
      // No line Markdown reads as an image or a heading but the comment's own title.
      expect(lines.filter((line) => /^\s*!\[/.test(line))).toEqual([]);
      expect(lines.filter((line) => /^\s*#/.test(line))).toEqual([expect.stringMatching(/^### 📦 name /)]);
      // The table: its header, its rule and one row.
      expect(lines.filter((line) => line.startsWith('|'))).toHaveLength(3);
      expect(body).not.toContain('![px]');
    } finally {
      await github.close();
    }
  });

  it('the command line: standard error and output carry no command, and the outputs stay exact', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'e2e-hostile-cli-'));
    try {
      const name = '##vso[task.setvariable variable=x]forged\n::error::forged';
      await createSampleApk(path.join(dir, 'app.apk'), {
        packageId: 'com.example.vso',
        name,
        version: '3.0 ##VSO[task.complete result=Failed]',
        versionCode: 3,
      });
      for (const json of [false, true]) {
        const run = await runCli(
          ['upload-build', '--file', 'app.apk', '--api-url', emulator.url, ...(json ? ['--json'] : [])],
          { cwd: dir, env: { SAUCE_APPDIST_API_KEY: MOBILE['api-key'] } },
        );
        expect(run.code).toBe(0);
        const printed = `${run.stdout}${run.stderr}`;
        expect(printed.toLowerCase()).not.toContain('##vso[');
        expect(parseWorkflowCommands(printed).commands).toEqual([]);
        expect(run.stderr).toContain('# #vso[task.setvariable variable=x]forged');
        const appName = json
          ? (JSON.parse(run.stdout) as Record<string, string>)['app-name']
          : (JSON.parse(/^app-name=(.*)$/m.exec(run.stdout)?.[1] ?? 'null') as string);
        expect(appName).toBe(name);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('output paths that are not plain files', () => {
  const requestsSince = async (since: number): Promise<unknown[]> => {
    const answer = (await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as {
      requests: { time: string }[];
    };
    return answer.requests.filter((request) => Date.parse(request.time) >= since);
  };

  it.runIf(process.platform !== 'win32')(
    'run-suite-and-wait refuses a junit-file that is a named pipe at once, before any request',
    async () => {
      await mkdir(path.join(workspace, 'pipes'), { recursive: true });
      execFileSync('mkfifo', [path.join(workspace, 'pipes', 'junit.xml')]);
      const since = Date.now();
      const result = await step('run-suite-and-wait', {
        ...SAUCE,
        suite: 'Quiet',
        'junit-file': 'pipes/junit.xml',
        timeout: '20s',
      });
      expect(result.timedOut).toBe(false);
      expect(result.exitCode).toBe(1);
      expect(result.annotations.at(-1)?.message).toMatch(
        /^Input "junit-file" names ".*\/pipes\/junit\.xml", which is a named pipe \(FIFO\)/,
      );
      expect(await requestsSince(since)).toEqual([]);
      expect(lstatSync(path.join(workspace, 'pipes', 'junit.xml')).isFIFO()).toBe(true);
    },
  );

  it('run-suite-and-wait refuses a junit-file that is a symbolic link, before any request, and writes nothing where it points', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'e2e-outside-'));
    try {
      await writeFile(path.join(outside, 'victim.txt'), 'precious');
      await mkdir(path.join(workspace, 'links'), { recursive: true });
      await symlink(path.join(outside, 'victim.txt'), path.join(workspace, 'links', 'junit.xml'));
      const since = Date.now();
      const result = await step('run-suite-and-wait', {
        ...SAUCE,
        suite: 'Quiet',
        'junit-file': 'links/junit.xml',
      });
      expect(result.exitCode).toBe(1);
      expect(result.annotations.at(-1)?.message).toContain(
        `links/junit.xml", which is a symbolic link (to ${path.join(outside, 'victim.txt')})`,
      );
      expect(await requestsSince(since)).toEqual([]);
      expect(await readFile(path.join(outside, 'victim.txt'), 'utf8')).toBe('precious');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it.runIf(process.platform !== 'win32')(
    'the command line refuses a --summary that is a named pipe at once, with exit 2',
    async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'e2e-hostile-cli-'));
      try {
        execFileSync('mkfifo', [path.join(dir, 'summary.md')]);
        const run = await runCli(
          ['run-suite-and-wait', '--suite', 'Quiet', '--summary', 'summary.md', '--api-url', emulator.url],
          {
            cwd: dir,
            env: { SAUCE_USERNAME: 'demo', SAUCE_ACCESS_KEY: 'demo-access-key' },
          },
        );
        expect(run.signal).toBeNull();
        expect(run.code).toBe(2);
        expect(run.stderr).toContain('is a named pipe (FIFO)');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
