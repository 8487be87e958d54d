/**
 * An action whose steps run its TypeScript sources instead of the bundle: a copy of its
 * `action.yml` in a folder of its own, with `main` and `post` pointing at the given entry. Node
 * runs the sources directly, so a test sees a change without a rebuild, as the runner would run it.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The folder of the copy (the caller removes it); `entry` is the path of the sources' main module. */
export async function sourceAction(actionDir: string, entry: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `${path.basename(actionDir)}-source-`));
  const relative = path.relative(dir, entry).split(path.sep).join('/');
  const metadata = await readFile(path.join(actionDir, 'action.yml'), 'utf8');
  await writeFile(
    path.join(dir, 'action.yml'),
    metadata
      .replace(/^ {2}main: .*$/m, `  main: ${relative}`)
      .replace(/^ {2}post: .*$/m, `  post: ${relative}`),
  );
  return dir;
}
