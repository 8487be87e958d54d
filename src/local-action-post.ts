/**
 * `--post src/local-action-post.ts` typed in the repository's root. `@github/local-action` says
 * `--post` is relative to the action's folder, but reads it before the action's path, so it looks
 * for it from the folder it was started in: from the root it finds this file, which runs the post
 * entry of the action the tool was given (`TARGET_ACTION_PATH`, which the tool sets). Started in
 * the action's folder, the same argument names that action's own entry.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const POST_ENTRY = path.join('src', 'local-action-post.ts');

export async function run(): Promise<void> {
  const actionDir = process.env.TARGET_ACTION_PATH;
  if (!actionDir) {
    throw new Error(
      `${POST_ENTRY} is the post entry for @github/local-action: npx local-action <action folder> ...`,
    );
  }
  const entry = path.join(actionDir, POST_ENTRY);
  if (entry === import.meta.filename || !existsSync(entry)) {
    throw new Error(
      `The action in ${path.relative(process.cwd(), actionDir) || '.'} has no post step (no ${POST_ENTRY}): leave out --post.`,
    );
  }
  const { run: post } = (await import(pathToFileURL(entry).href)) as { run: () => Promise<void> };
  await post();
}
