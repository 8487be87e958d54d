/**
 * A workflow's `run:` step as the runner's `shell: bash` runs it: `bash --noprofile --norc -eo
 * pipefail <script>`, with fresh file-command files (`GITHUB_ENV`, `GITHUB_OUTPUT`, ...) read
 * back afterwards.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_CONTEXT, parseKeyValueFile, testRunEnv, trackProcess } from '@sauce-actions/action-harness';

export interface BashStepOptions {
  /** The working folder, `GITHUB_WORKSPACE`. */
  workspace: string;
  /** `RUNNER_TEMP`; the step's file-command files are made in it. */
  runnerTemp: string;
  env: Record<string, string>;
  /** A process group of its own, so that what the script leaves in the background can be ended with it. */
  detached?: boolean;
}

export interface BashStepRun {
  code: number | null;
  /** Standard output and standard error, as the log shows them. */
  output: string;
  /** What the step wrote to `GITHUB_ENV` and `GITHUB_OUTPUT`. */
  env: Record<string, string>;
  outputs: Record<string, string>;
  pid: number | undefined;
}

export async function runBashStep(script: string, options: BashStepOptions): Promise<BashStepRun> {
  const commands = await mkdtemp(path.join(options.runnerTemp, 'run-'));
  const files = {
    GITHUB_ENV: 'env',
    GITHUB_OUTPUT: 'output',
    GITHUB_STEP_SUMMARY: 'summary',
    GITHUB_PATH: 'path',
  };
  const fileEnv: Record<string, string> = {};
  for (const [variable, name] of Object.entries(files)) {
    fileEnv[variable] = path.join(commands, name);
    await writeFile(fileEnv[variable], '');
  }
  const scriptFile = path.join(commands, 'script.sh');
  await writeFile(scriptFile, script);
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', scriptFile], {
    cwd: options.workspace,
    env: {
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
      HOME: process.env.HOME ?? os.homedir(),
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: options.workspace,
      GITHUB_SHA: DEFAULT_CONTEXT.sha,
      RUNNER_TEMP: options.runnerTemp,
      ...testRunEnv(),
      ...fileEnv,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  trackProcess(child);
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((done, fail) => {
    child.on('error', fail);
    child.on('exit', (exitCode) => done(exitCode));
  });
  const read = async (variable: string): Promise<Record<string, string>> =>
    parseKeyValueFile(await readFile(fileEnv[variable] as string, 'utf8'));
  return {
    code,
    output,
    env: await read('GITHUB_ENV'),
    outputs: await read('GITHUB_OUTPUT'),
    pid: child.pid,
  };
}
