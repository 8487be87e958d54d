/** The GitHub host: how any action's result reaches the runner, whatever the action. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startGitHubApi, type GitHubApiStandIn } from '@sauce-actions/action-harness';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { runOnGitHub, runOnGitHubPost } from '../../src/hosts/github-host.ts';
import { stubGitHubRunner } from './github-runner.ts';
import {
  abortReasonOf,
  ActionError,
  readSauceConnection,
  type ActionDefinition,
  type InputReader,
  type PostDefinition,
  type SauceConnection,
} from '../../src/index.ts';

const runner = stubGitHubRunner('github-host-');
const { stdout, read } = runner;

interface Inputs {
  connection: SauceConnection;
  name: string | undefined;
}

const readInputs = (reader: InputReader): Inputs => ({
  connection: readSauceConnection(reader),
  name: reader.string('name'),
});

describe('runOnGitHub', () => {
  it('publishes outputs, then the summary with the failure, annotations and the failure', async () => {
    const action: ActionDefinition<Inputs> = {
      title: 'Run suite',
      readInputs,
      run: async (inputs, deps) => {
        deps.logger.info(`hello ${inputs.connection.username}, key ${inputs.connection.accessKey}`);
        return {
          outputs: { total: 3, 'job-ids': ['a', 'b'], note: 'uses the-access-key' },
          summary: '<h2>3 jobs</h2>\n',
          annotations: [{ level: 'warning', message: 'Job b was slow', title: 'Slow job' }],
          failure: { kind: 'tests-failed', message: '1 of 3 jobs failed.' },
        };
      },
    };
    await runOnGitHub(action);
    const outputs = read('output');
    expect(outputs).toMatch(/total<<.*\n3\n/);
    expect(outputs).toMatch(/job-ids<<.*\na,b\n/);
    expect(outputs).toMatch(/note<<.*\nuses \*\*\*\n/);
    expect(read('summary')).toBe('<h2>3 jobs</h2>\n<h2>Run suite: failed</h2>\n<p>1 of 3 jobs failed.</p>\n');
    const log = stdout.join('');
    expect(log).toContain('::add-mask::the-access-key');
    expect(log).toContain('hello demo, key ***');
    expect(log).not.toContain('key the-access-key');
    expect(log).toContain('::warning title=Slow job::Job b was slow');
    expect(log).toContain('::error::1 of 3 jobs failed.');
    expect(process.exitCode).toBe(1);
  });

  it('turns an error thrown by readInputs into a failure, with no request and no output', async () => {
    vi.stubEnv('INPUT_ACCESS-KEY', '');
    const run = vi.fn();
    await runOnGitHub({ title: 'Run suite', readInputs, run });
    expect(run).not.toHaveBeenCalled();
    expect(read('output')).toBe('');
    expect(stdout.join('')).toContain('::error::Input "access-key" is required but was empty');
    expect(read('summary')).toContain('<h2>Run suite: bad input</h2>');
    expect(process.exitCode).toBe(1);
  });

  it('turns an error thrown by run into its kind', async () => {
    await runOnGitHub({
      title: 'Invite',
      readInputs,
      run: async () => {
        throw new ActionError('refused', 'Unknown tester group: qa.');
      },
    });
    expect(read('summary')).toBe(
      '<h2>Invite: refused by Sauce Labs</h2>\n<p>Unknown tester group: qa.</p>\n',
    );
    expect(stdout.join('')).toContain('::error::Unknown tester group: qa.');
  });

  it('leaves a successful step green', async () => {
    await runOnGitHub({
      title: 'x',
      readInputs,
      run: async (inputs) => ({ outputs: { name: inputs.name ?? '' }, summary: '', annotations: [] }),
    });
    expect(process.exitCode).toBeUndefined();
    expect(stdout.join('')).not.toContain('::error');
    expect(read('summary')).toBe('');
  });

  it('aborts the signal with a cancellation on SIGINT, and the step reports it', async () => {
    await runOnGitHub({
      title: 'Wait',
      readInputs,
      run: async (_inputs, deps) => {
        process.emit('SIGINT', 'SIGINT');
        expect(abortReasonOf(deps.signal)).toBe('cancelled');
        throw deps.signal.reason;
      },
    });
    expect(stdout.join('')).toContain('::error::Cancelled: the run was cancelled (SIGINT).');
    expect(process.listenerCount('SIGINT')).toBe(0);
  });

  it("keeps catching the runner's signals until the result is published", async () => {
    const listenersWhilePublishing: number[] = [];
    vi.mocked(process.stdout.write).mockImplementation((chunk: string | Uint8Array) => {
      if (String(chunk).startsWith('::error::'))
        listenersWhilePublishing.push(process.listenerCount('SIGTERM'));
      stdout.push(String(chunk));
      return true;
    });
    await runOnGitHub({
      title: 'Wait',
      readInputs,
      run: async (_inputs, deps) => {
        process.emit('SIGINT', 'SIGINT');
        throw deps.signal.reason;
      },
    });
    // A second signal (the runner sends SIGTERM after SIGINT) finds a listener, not the default
    // action that would end the process before the failure is written.
    expect(listenersWhilePublishing).toEqual([1]);
    expect(process.listenerCount('SIGTERM')).toBe(0);
  });

  it('runs the post step with the state the main step saved, and only when there is work', async () => {
    const post: PostDefinition<Inputs> = {
      title: 'Cleanup',
      hasLeftRunning: (state) => state.get('jobs') !== '',
      readInputs,
      run: async (_inputs, deps) => ({
        outputs: {},
        summary: `<p>stopped ${deps.state.get('jobs')}</p>\n`,
        annotations: [],
      }),
    };
    const main: ActionDefinition<Inputs> = {
      title: 'Main',
      readInputs,
      run: async (_inputs, deps) => {
        deps.state.save('jobs', 'j1');
        return { outputs: {}, summary: '', annotations: [] };
      },
    };
    await runOnGitHub(main);
    expect(read('state')).toMatch(/^jobs<<(ghadelimiter_[-0-9a-f]+)\nj1\n\1\n$/);

    await runOnGitHubPost(post);
    expect(stdout.join('')).toContain('Nothing to clean up.');
    expect(read('summary')).toBe('');

    vi.stubEnv('STATE_jobs', 'j1');
    await runOnGitHubPost(post);
    expect(read('summary')).toBe('<p>stopped j1</p>\n');
  });
});

describe('runOnGitHub: the pull-request comment', () => {
  const TOKEN = 'ghs_hostTestToken77';
  let github: GitHubApiStandIn;

  beforeEach(async () => {
    github = await startGitHubApi({ token: TOKEN, repository: 'octo/app' });
    vi.stubEnv('GITHUB_API_URL', github.url);
    vi.stubEnv('GITHUB_REPOSITORY', 'octo/app');
    vi.stubEnv('GITHUB_EVENT_NAME', 'pull_request');
    vi.stubEnv('GITHUB_WORKFLOW', 'CI');
    vi.stubEnv('GITHUB_JOB', 'e2e');
    vi.stubEnv('INPUT_GITHUB-TOKEN', TOKEN);
    const event = path.join(runner.dir, 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 4 } }));
    vi.stubEnv('GITHUB_EVENT_PATH', event);
    return () => github.close();
  });

  interface CommentInputs extends Inputs {
    githubToken?: string;
  }
  const commenting: ActionDefinition<CommentInputs> = {
    title: 'Run suite',
    readInputs: (reader) => {
      const token = reader.secret('github-token');
      return { ...readInputs(reader), ...(token !== undefined ? { githubToken: token } : {}) };
    },
    run: async () => ({
      outputs: { total: 3 },
      summary: '<h2>3 jobs</h2>\n',
      annotations: [],
      failure: { kind: 'tests-failed', message: '1 of 3 jobs failed.' },
      comment: { action: 'run-suite-and-wait', identity: { suite: 'Smoke' }, body: '1 of 3 jobs failed' },
    }),
  };

  it('writes it after the summary and the failure, which is the step’s first error', async () => {
    await runOnGitHub(commenting);
    expect(github.commentsOf(4)).toHaveLength(1);
    expect(github.commentsOf(4)[0]!.body).toContain('1 of 3 jobs failed');
    const log = stdout.join('');
    const created = log.indexOf('Created the comment on pull request #4');
    expect(created).toBeGreaterThan(-1);
    expect(log.indexOf('::error::1 of 3 jobs failed.')).toBeGreaterThan(-1);
    expect(log.indexOf('::error::1 of 3 jobs failed.')).toBeLessThan(created);
    expect(log).toContain(`::add-mask::${TOKEN}`);
    expect(log.replace(/::add-mask::.*\n/g, '')).not.toContain(TOKEN);
    expect(process.exitCode).toBe(1);
  });

  it('warns when GitHub cannot be reached, and the failure is still published', async () => {
    vi.stubEnv('GITHUB_API_URL', 'http://127.0.0.1:9');
    await runOnGitHub(commenting);
    const log = stdout.join('');
    expect(log).toMatch(/::warning::Could not write the pull-request comment: Could not reach GitHub/);
    expect(log).toContain("The step's result is unchanged.");
    expect(log).toContain('::error::1 of 3 jobs failed.');
    expect(process.exitCode).toBe(1);
  });

  it('warns, and writes nothing, when `github-token` is empty', async () => {
    vi.stubEnv('INPUT_GITHUB-TOKEN', '');
    await runOnGitHub(commenting);
    expect(github.requests).toEqual([]);
    expect(stdout.join('')).toContain(
      '::warning::pr-comment: no pull-request comment written: `github-token` is empty',
    );
  });

  it('writes nothing once the run was cancelled, and says so', async () => {
    await runOnGitHub({
      ...commenting,
      run: async (inputs, deps) => {
        process.emit('SIGINT', 'SIGINT');
        return {
          ...(await commenting.run(inputs, deps)),
          failure: { kind: 'cancelled', message: 'Cancelled.' },
        };
      },
    });
    expect(github.requests).toEqual([]);
    expect(stdout.join('')).toContain(
      'pr-comment: the run was cancelled, so the pull-request comment was not written.',
    );
  });

  it('writes nothing for an event that is not a pull request', async () => {
    writeFileSync(process.env.GITHUB_EVENT_PATH!, JSON.stringify({ schedule: '0 3 * * *' }));
    vi.stubEnv('GITHUB_EVENT_NAME', 'schedule');
    await runOnGitHub(commenting);
    expect(github.requests).toEqual([]);
    expect(stdout.join('')).toContain(
      "pr-comment: no pull-request comment written: this run's event (schedule) is not for a pull request, and `pull-request` is empty.",
    );
  });
});

describe("runOnGitHub: GitHub's limits", () => {
  /** Lines of a summary over 2 MiB in all; the host keeps whole lines within 1 MiB. */
  const bigSummary = Array.from({ length: 20_000 }, (_, n) => `<p>Job ${n}: ${'é'.repeat(40)}</p>\n`).join(
    '',
  );
  const failedJobs = Array.from({ length: 30 }, (_, n) => ({
    level: 'error' as const,
    message: `Job ${n} failed.`,
    group: { one: 'failed job', other: 'failed jobs' },
  }));
  const action: ActionDefinition<Inputs> = {
    title: 'Run suite',
    readInputs,
    run: async (_, deps) => {
      for (let n = 0; n < 12; n++) deps.logger.warning(`Slow answer ${n}.`);
      return {
        outputs: { total: 2_000, 'job-ids': Array.from({ length: 2_000 }, (_, n) => `id${n}`) },
        summary: bigSummary,
        annotations: failedJobs,
        failure: { kind: 'tests-failed', message: '30 of 2000 jobs failed.' },
      };
    },
  };

  it('writes a summary of at most 1 MiB, whole lines, the failure at its end', async () => {
    await runOnGitHub(action);
    const summary = read('summary');
    expect(Buffer.byteLength(summary, 'utf8')).toBeLessThanOrEqual(1024 * 1024);
    expect(summary).toContain('<p>Job 0: ');
    expect(
      summary
        .split('\n')
        .filter((line) => line.startsWith('<p>Job '))
        .every((line) => line.endsWith('</p>')),
    ).toBe(true);
    expect(summary).toMatch(
      /<p>Job \d+: é+<\/p>\n<p>The rest of this summary is left out [^\n]*<\/p>\n<h2>Run suite: failed<\/h2>\n<p>30 of 2000 jobs failed\.<\/p>\n$/,
    );
  });

  it('makes the failure the first of at most 10 errors, keeps warnings within 10, and counts the rest in notices', async () => {
    await runOnGitHub(action);
    const commands = stdout.join('').split('\n');
    const of = (level: string) => commands.filter((line) => line.startsWith(`::${level}`));
    expect(of('error')).toHaveLength(10);
    expect(of('error')[0]).toBe('::error::30 of 2000 jobs failed.');
    expect(of('error')[1]).toBe('::error::Job 0 failed.');
    expect(of('warning').length).toBeLessThanOrEqual(10);
    expect(of('notice')).toEqual([
      '::notice::21 more failed jobs: see the summary.',
      '::notice::4 more warnings: see the log.',
    ]);
    // What was left out is in the log, as plain lines.
    expect(commands).toContain('error: Job 29 failed.');
    expect(commands).toContain('Warning: Slow answer 11.');
  });

  it('bounds a list output and says so in the log', async () => {
    await runOnGitHub(action);
    expect(read('output')).toContain(`${Array.from({ length: 100 }, (_, n) => `id${n}`).join(',')}\n`);
    expect(read('output')).not.toContain('id100');
    expect(stdout.join('')).toContain('The output job-ids holds the first 100 of 2000 items');
  });
});
