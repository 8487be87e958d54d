/**
 * The command line's tool cache: a folder per tool and version under the user's cache (or
 * `SAUCE_ACTIONS_TOOL_CACHE`), kept across runs like the runner's. The runner's tool-cache
 * package is not used: it needs the runner's variables and writes its debug lines to standard
 * output, where the command line's outputs go.
 *
 * A relative `SAUCE_ACTIONS_TOOL_CACHE` starts from the working folder, as a CI system's cache
 * paths do (GitLab's `cache: paths`): the same words name the same folder, whatever the system
 * calls the project's folder. The paths handed out are absolute, as those of the runner's are.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { downloadFile } from '@sauce-actions/api';
import type { ToolCache } from '../deps.ts';

type Environment = Readonly<Record<string, string | undefined>>;

function cacheRoot(env: Environment, workingDir: string): string {
  if (env.SAUCE_ACTIONS_TOOL_CACHE) return path.resolve(workingDir, env.SAUCE_ACTIONS_TOOL_CACHE);
  // The XDG base directory specification: a relative XDG_CACHE_HOME is invalid and ignored.
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache');
  return path.join(base, 'sauce-actions', 'tools');
}

export function localToolCache(env: Environment, tempDir: string, workingDir: string): ToolCache {
  const root = cacheRoot(env, workingDir);
  const folder = (tool: string, version: string): string => path.join(root, tool, version, process.arch);
  // A folder is complete only once its marker is written: a copy cut short is never found.
  const marker = (dir: string): string => `${dir}.complete`;
  return {
    async find(tool, version) {
      const dir = folder(tool, version);
      return existsSync(marker(dir)) ? dir : '';
    },
    async downloadTool(url, signal) {
      // Through the proxy the environment names, as the runner's tool cache downloads.
      const name = `sauce-actions-download-${randomUUID()}`;
      try {
        return (await downloadFile(url, tempDir, name, signal ? { signal } : {})).path;
      } catch (error) {
        // The step's cancel or deadline, as itself: the host words it as such.
        throw signal?.aborted ? (signal.reason as Error) : error;
      }
    },
    async extractTar(file) {
      const dir = await mkdtemp(path.join(tempDir, 'sauce-actions-extract-'));
      await exec('tar', ['-xzf', file, '-C', dir]);
      return dir;
    },
    async extractZip(file) {
      const dir = await mkdtemp(path.join(tempDir, 'sauce-actions-extract-'));
      // bsdtar (macOS, Windows) reads zip archives; GNU tar does not.
      if (process.platform === 'linux') await exec('unzip', ['-q', file, '-d', dir]);
      else await exec('tar', ['-xf', file, '-C', dir]);
      return dir;
    },
    async cacheDir(sourceDir, tool, version) {
      const dir = folder(tool, version);
      await rm(marker(dir), { force: true });
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      await cp(sourceDir, dir, { recursive: true });
      await writeFile(marker(dir), '');
      return dir;
    },
  };
}

function exec(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}: ${stderr.trim()}`)),
    );
  });
}
