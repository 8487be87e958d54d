/**
 * Programs run as a user runs them, and Node.js versions other than the project's: Node 22 from
 * the npm registry (the `node` package brings the real binary), and a Node older than 22 for the
 * refusal: the first one on `PATH`, else Node 20 from the registry.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

export interface ProgramRun {
  code: number | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

/** Runs a program to its end (killed after `timeoutMs`), with `env` as its whole environment. */
export function runProgram(
  file: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<ProgramRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd,
        env: options.env,
        timeout: options.timeoutMs ?? 120_000,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr, elapsedMs: performance.now() - started });
      },
    );
  });
}

/** The version of the Node.js at `node`, such as `20.20.2`, or undefined when it does not run. */
export async function nodeVersion(node: string, cwd: string): Promise<string | undefined> {
  const run = await runProgram(node, ['-p', 'process.versions.node'], { cwd, env: {}, timeoutMs: 30_000 });
  return run.code === 0 ? run.stdout.trim() : undefined;
}

/**
 * Installs `node@<major>` from the npm registry into `prefix` with `npm` (found on `path`), and
 * answers the folder of its `node` binary.
 */
export async function installNode(major: number, prefix: string, path_: string): Promise<string> {
  const npm = onPath('npm', path_);
  if (npm === undefined) throw new Error('npm is not on PATH');
  await mkdir(prefix, { recursive: true });
  const run = await runProgram(
    npm,
    ['install', '--prefix', prefix, '--no-audit', '--no-fund', `node@${major}`],
    {
      cwd: prefix,
      // The user's environment, as npm needs it to reach the registry (its certificates, proxy, .npmrc).
      env: { ...definedOnly(process.env), PATH: path_, npm_config_cache: path.join(prefix, '.npm') },
      timeoutMs: 300_000,
    },
  );
  const bin = path.join(prefix, 'node_modules', 'node', 'bin');
  if (run.code !== 0 || !existsSync(path.join(bin, 'node'))) {
    throw new Error(`npm install node@${major} failed (exit ${run.code}): ${run.stderr}`);
  }
  return bin;
}

/** The first `name` on `path_`, skipping folders that `skip` matches. */
export function onPath(name: string, path_: string, skip?: RegExp): string | undefined {
  for (const folder of path_.split(path.delimiter)) {
    if (folder === '' || skip?.test(folder)) continue;
    const file = path.join(folder, name);
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** The variables of an environment that are set, as a child process takes them. */
export function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
