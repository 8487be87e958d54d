/**
 * `npm run local-action -- <action> <.env file>`: runs one action's TypeScript sources with
 * `@github/local-action`, the main step and then, for an action with a post step, the post step in
 * the same process with the state the main step saved. The tool reads the inputs (`INPUT_<NAME>`)
 * and the rest of the environment from the `.env` file, stands in for `@actions/core` and prints
 * the log and the outputs; the step logs its summary (or adds it to the file the `.env` names in
 * `GITHUB_STEP_SUMMARY`). This script finds the action's entries, from any folder of the checkout.
 *
 * Usage: node scripts/local-action.ts <action> <.env file>
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '..');
const ACTIONS_DIR = path.join(ROOT, 'actions');
/** Each action's entries for the tool, relative to its folder: each exports `run()`. */
const MAIN_ENTRY = 'src/local-action.ts';
const POST_ENTRY = 'src/local-action-post.ts';
const TOOL = path.join(ROOT, 'node_modules', '@github', 'local-action', 'bin', 'local-action.js');

const USAGE = 'Usage: npm run local-action -- <action> <.env file>';

async function main(args: string[]): Promise<number> {
  const [name, envArg] = args;
  const actions = await actionNames();
  if (name === undefined || envArg === undefined || args.length > 2) {
    return usageError(`${USAGE}\nActions: ${actions.join(', ')}.`);
  }
  const actionName = name.replace(/^actions[\\/]/, '').replace(/[\\/]$/, '');
  if (!actions.includes(actionName)) {
    return usageError(`No action named "${name}". Actions: ${actions.join(', ')}.\n${USAGE}`);
  }
  // `npm run` starts scripts in the repository's root: the file is relative to where it was typed,
  // or, as CONTRIBUTING.md writes the examples, to the root.
  const typedIn = process.env.INIT_CWD ?? process.cwd();
  const envFile = [path.resolve(typedIn, envArg), path.resolve(ROOT, envArg)].find((file) =>
    existsSync(file),
  );
  if (envFile === undefined) {
    return usageError(`No such .env file: ${envArg} (in ${typedIn} or in ${ROOT})\n${USAGE}`);
  }

  const actionDir = path.join(ACTIONS_DIR, actionName);
  const metadata = parse(await readFile(path.join(actionDir, 'action.yml'), 'utf8')) as {
    runs?: { post?: string };
  };
  const work = await mkdtemp(path.join(os.tmpdir(), 'local-action-'));
  try {
    return await runTool([
      'run',
      path.relative(ROOT, actionDir),
      MAIN_ENTRY,
      await spaceFreePath(envFile, work),
      // Absolute: the tool reads `--post` before the action's path, so it would resolve it from the root.
      ...(metadata.runs?.post ? ['--post', path.join(actionDir, POST_ENTRY)] : []),
    ]);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The actions that have an entry for the tool. */
async function actionNames(): Promise<string[]> {
  const entries = await readdir(ACTIONS_DIR, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory() && existsSync(path.join(ACTIONS_DIR, entry.name, MAIN_ENTRY)))
    .map((entry) => entry.name)
    .sort();
}

/**
 * The tool's own command, `local-action run <action path> <entrypoint> <.env file> [--post
 * <entrypoint>]`, with this Node first on `PATH`: the tool starts `tsx` through `npm exec`, which
 * runs the first `node` it finds.
 */
function runTool(args: string[]): Promise<number> {
  const child = spawn(process.execPath, [TOOL, ...args], {
    cwd: ROOT,
    stdio: 'inherit',
    env: {
      ...process.env,
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
    },
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** The tool joins its arguments into a shell command unquoted: a path with spaces is copied first. */
async function spaceFreePath(file: string, work: string): Promise<string> {
  const relative = path.relative(ROOT, file);
  if (!/\s/.test(relative)) return relative;
  const copy = path.join(work, 'step.env');
  await copyFile(file, copy);
  return copy;
}

function usageError(message: string): number {
  console.error(message);
  return 2;
}

process.exitCode = await main(process.argv.slice(2));
