/**
 * An action whose steps run its TypeScript sources instead of the bundle: a copy of its
 * `action.yml` in a folder of its own, with `main` pointing at the given entry and `post` at the
 * post step's entry beside it (`main-post.ts`), or at the same entry when it has none. Node
 * runs the sources directly, so a test sees a change without a rebuild, as the runner would run it.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The folder of the copy (the caller removes it); `entry` is the path of the sources' main module. */
export async function sourceAction(actionDir: string, entry: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `${path.basename(actionDir)}-source-`));
  const relative = (file: string): string => path.relative(dir, file).split(path.sep).join('/');
  const postEntry = path.join(path.dirname(entry), 'main-post.ts');
  const metadata = await readFile(path.join(actionDir, 'action.yml'), 'utf8');
  await writeFile(
    path.join(dir, 'action.yml'),
    metadata
      .replace(/^ {2}main: .*$/m, `  main: ${relative(entry)}`)
      .replace(/^ {2}post: .*$/m, `  post: ${relative(existsSync(postEntry) ? postEntry : entry)}`),
  );
  return dir;
}
