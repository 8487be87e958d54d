/**
 * GitLab's side of the docs' pipelines, offline: gitlab-ci-local (from npm) expands a project's
 * `.gitlab-ci.yml` as GitLab does (includes, `spec:inputs`, `extends`), validates the result against
 * GitLab's own JSON schema, and runs its jobs with its shell executor. The project is the docs'
 * pipeline in a git repository of its own, its placeholders filled in: the template comes from a
 * local http server standing in for the raw files of the repository's tag.
 */
import { execFile, spawn } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { testRunEnv, trackProcess } from '@sauce-actions/action-harness';
import { docPipeline, GITLAB_TEMPLATE, gitlabTemplateText, PLACEHOLDERS } from './doc-pipelines.ts';
import { ROOT } from './workflows.ts';

const GITLAB_CI_LOCAL = path.join(ROOT, 'node_modules', 'gitlab-ci-local', 'dist', 'index.js');
const RSYNC_STAND_IN = path.join(ROOT, 'test', 'support', 'rsync.ts');
const git = promisify(execFile).bind(null, 'git');

/** Commits the folder's files in a repository of its own on `main`, as a checkout has them. */
export async function commitAll(dir: string, message: string): Promise<void> {
  await git(['init', '--quiet', '--initial-branch=main'], { cwd: dir });
  await git(['config', 'user.name', 'Test'], { cwd: dir });
  await git(['config', 'user.email', 'test@example.com'], { cwd: dir });
  await git(['add', '--all'], { cwd: dir });
  await git(['commit', '--quiet', '--message', message], { cwd: dir });
}

export { git };

/** Serves the committed template at `<base>/v1/<its path>`, as the raw files of tag `v1`. */
export async function serveGitlabTemplate(): Promise<{ base: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const served = request.url === `/v1/${GITLAB_TEMPLATE}`;
    response.writeHead(served ? 200 : 404, { 'content-type': 'text/plain' });
    response.end(served ? gitlabTemplateText() : 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface GitlabProjectOptions {
  /** Where the template is served, for the include's address. */
  templateBase: string;
  /** The address the template clones sauce-actions from. */
  repository: string;
  /** The pipeline; default the document's. */
  pipeline?: string;
  /** Other files of the project, executable. */
  scripts?: Record<string, string>;
}

/** A GitLab project in `dir`: the pipeline with its placeholders filled in, committed, with a remote. */
export async function gitlabProject(dir: string, options: GitlabProjectOptions): Promise<void> {
  await mkdir(dir, { recursive: true });
  const pipeline = (options.pipeline ?? docPipeline('.gitlab-ci.yml'))
    .replaceAll(PLACEHOLDERS.templateBase, options.templateBase)
    .replaceAll(PLACEHOLDERS.repository, options.repository);
  await writeFile(path.join(dir, '.gitlab-ci.yml'), pipeline);
  for (const [name, text] of Object.entries(options.scripts ?? {})) {
    await writeFile(path.join(dir, name), text);
    await chmod(path.join(dir, name), 0o755);
  }
  await commitAll(dir, 'App');
  await git(['remote', 'add', 'origin', 'https://gitlab.example.com/shop/app.git'], { cwd: dir });
  await git(['update-ref', 'refs/remotes/origin/main', 'HEAD'], { cwd: dir });
  await git(['symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main'], { cwd: dir });
}

export interface GitlabRun {
  code: number | null;
  /** Standard output and standard error. */
  output: string;
}

/**
 * A folder beside `dir` with `rsync`, which gitlab-ci-local copies the project, artifacts and
 * caches with: the tests' stand-in in Node (support/rsync.ts), so that they need no system package.
 */
async function rsyncStandIn(dir: string): Promise<string> {
  const bin = `${dir}-bin`;
  await mkdir(bin, { recursive: true });
  const quoted = (text: string) => `'${text.replaceAll("'", `'"'"'`)}'`;
  await writeFile(
    path.join(bin, 'rsync'),
    [
      '#!/bin/sh',
      // Node strips the stand-in's types once, not at each of gitlab-ci-local's many copies.
      `NODE_COMPILE_CACHE=${quoted(path.join(bin, 'compile-cache'))} exec ${quoted(process.execPath)} ${quoted(RSYNC_STAND_IN)} "$@"`,
      '',
    ].join('\n'),
  );
  await chmod(path.join(bin, 'rsync'), 0o755);
  return bin;
}

/**
 * gitlab-ci-local in `dir` with `args`, under this Node (it needs 24), with `variables` as the
 * project's CI/CD variables (predefined ones among them without its warning), a home of its own
 * beside `dir`, and the tests' rsync. It runs in a process group of its own: `signal` (the test's,
 * aborted when it times out) ends it and the jobs' processes, so that a test that fails leaves
 * none behind.
 */
export async function gitlabCiLocal(
  dir: string,
  args: readonly string[],
  variables: Record<string, string> = {},
  predefined: readonly string[] = [],
  signal?: AbortSignal,
): Promise<GitlabRun> {
  const bin = await rsyncStandIn(dir);
  const home = `${dir}-home`;
  const all = [GITLAB_CI_LOCAL, ...args, '--no-color', '--home', home];
  if (predefined.length > 0) all.push('--ignore-predefined-vars', predefined.join(','));
  for (const [key, value] of Object.entries(variables)) all.push('--variable', `${key}=${value}`);
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    // A process group of its own, with the jobs it runs: ended whole after a test that failed.
    const child = spawn(process.execPath, all, {
      cwd: dir,
      env: {
        PATH: [bin, path.dirname(process.execPath), process.env.PATH ?? ''].join(path.delimiter),
        HOME: home,
        ...testRunEnv(),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const stop = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group has ended already.
      }
    };
    signal?.addEventListener('abort', stop, { once: true });
    trackProcess(child);
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      signal?.removeEventListener('abort', stop);
      resolve({ code, output });
    });
  });
}
