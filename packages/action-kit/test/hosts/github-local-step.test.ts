/**
 * The GitHub host's steps for `@github/local-action` (`runMainStep`, `runPostStep`): on a
 * developer's machine the workspace is the repository's root wherever the tool was started, and
 * the summary, which that tool neither asks for nor shows, is in the log.
 */
import { rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runMainStep, runPostStep } from '../../src/hosts/github-host.ts';
import { stubGitHubRunner } from './github-runner.ts';
import {
  readSauceConnection,
  type ActionDefinition,
  type InputReader,
  type PostDefinition,
  type SauceConnection,
} from '../../src/index.ts';

const runner = stubGitHubRunner('local-step-');
const { stdout, read } = runner;

interface Inputs {
  connection: SauceConnection;
  /** Where the inputs' relative paths start. */
  inputsWorkspace: string;
}

const readInputs = (reader: InputReader): Inputs => ({
  connection: readSauceConnection(reader),
  inputsWorkspace: reader.workspace,
});

/** A step that reports the workspaces it was given, and a summary naming them. */
function workspaceStep(seen: string[]): ActionDefinition<Inputs> {
  return {
    title: 'Where',
    readInputs,
    run: async (inputs, deps) => {
      seen.push(inputs.inputsWorkspace, deps.workspace);
      return {
        outputs: {},
        summary: `<h2>Worked in ${deps.workspace}</h2>\n<p>key ${inputs.connection.accessKey}</p>\n`,
        annotations: [],
      };
    },
  };
}

/** The log's `Step summary` groups, their lines without the workflow commands. */
function loggedSummaries(): string[] {
  const log = stdout.join('');
  return [...log.matchAll(/::group::Step summary\n([\s\S]*?)::endgroup::/g)].map(
    (match) => match[1] as string,
  );
}

describe('runMainStep', () => {
  it("works in the repository's root when GITHUB_WORKSPACE is unset, not in the folder the tool was started in", async () => {
    vi.stubEnv('GITHUB_WORKSPACE', '');
    const root = path.join(runner.dir, 'repository');
    const seen: string[] = [];
    await runMainStep(workspaceStep(seen), { root });
    expect(seen).toEqual([root, root]);
    expect(process.cwd()).not.toBe(root);
  });

  it('gives each step a temporary folder of its own when RUNNER_TEMP is unset, so two runs keep their files apart', async () => {
    vi.stubEnv('RUNNER_TEMP', '');
    const folders: string[] = [];
    const step: ActionDefinition<Inputs> = {
      title: 'Temp',
      readInputs,
      run: async (_inputs, deps) => {
        folders.push(deps.tempDir);
        return { outputs: {}, summary: '', annotations: [] };
      },
    };
    const root = path.join(runner.dir, 'repository');
    await runMainStep(step, { root });
    await runMainStep(step, { root });
    expect(folders).toHaveLength(2);
    expect(folders[0]).not.toBe(folders[1]);
    for (const folder of folders) {
      expect(path.dirname(folder)).toBe(os.tmpdir());
      expect((await stat(folder)).isDirectory()).toBe(true);
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('resolves a relative GITHUB_WORKSPACE from the root, and keeps an absolute one', async () => {
    const root = path.join(runner.dir, 'repository');
    const seen: string[] = [];
    vi.stubEnv('GITHUB_WORKSPACE', 'fixtures');
    await runMainStep(workspaceStep(seen), { root });
    vi.stubEnv('GITHUB_WORKSPACE', runner.dir);
    await runMainStep(workspaceStep(seen), { root });
    expect(seen).toEqual([path.join(root, 'fixtures'), path.join(root, 'fixtures'), runner.dir, runner.dir]);
  });

  it('logs the summary, secrets masked, when GITHUB_STEP_SUMMARY is unset', async () => {
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    vi.stubEnv('GITHUB_WORKSPACE', '');
    const root = path.join(runner.dir, 'repository');
    await runMainStep(workspaceStep([]), { root });
    expect(loggedSummaries()).toEqual([`<h2>Worked in ${root}</h2>\n<p>key ***</p>\n`]);
    expect(stdout.join('')).not.toContain('key the-access-key');
    expect(read('summary')).toBe('');
  });

  it('logs the failure with the summary of a step that failed', async () => {
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    vi.stubEnv('INPUT_ACCESS-KEY', '');
    await runMainStep(workspaceStep([]), { root: runner.dir });
    const [summary] = loggedSummaries();
    expect(summary).toContain('<h2>Where: bad input</h2>');
    expect(summary).toContain('Input &quot;access-key&quot; is required but was empty');
  });

  it('adds the summary, secrets masked, to a GITHUB_STEP_SUMMARY named relative to the root, and logs none', async () => {
    vi.stubEnv('GITHUB_STEP_SUMMARY', 'summary');
    await runMainStep(workspaceStep([]), { root: runner.dir });
    expect(read('summary')).toContain('<h2>Worked in ');
    expect(read('summary')).toContain('<p>key ***</p>');
    expect(loggedSummaries()).toEqual([]);
  });
});

describe('runPostStep', () => {
  it("works in the repository's root, and logs its summary", async () => {
    vi.stubEnv('GITHUB_WORKSPACE', '');
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    vi.stubEnv('STATE_jobs', 'j1');
    const root = path.join(runner.dir, 'repository');
    const seen: string[] = [];
    const post: PostDefinition<Inputs> = {
      ...workspaceStep(seen),
      hasLeftRunning: (state) => state.get('jobs') !== '',
    };
    await runPostStep(post, { root });
    expect(seen).toEqual([root, root]);
    expect(loggedSummaries()).toEqual([`<h2>Worked in ${root}</h2>\n<p>key ***</p>\n`]);
  });
});
