/**
 * Folders of files, links and folders written from a table and read back as one, for the tests
 * of the rsync stand-in: modes, link targets, texts, and whether each kept the fixture's time.
 */
import {
  chmod,
  lstat,
  lutimes,
  mkdir,
  readdir,
  readFile,
  readlink,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';

/** The time every fixture entry is given, so that a kept time shows in the tree as `@kept`. */
export const FIXTURE_TIME = new Date('2001-02-03T04:05:06Z');

/** A file's text (mode 644), or an entry of another kind. */
export type Entry = string | { text: string; mode: number } | { folder: number } | { link: string };
export type Tree = Record<string, Entry>;

export async function build(root: string, tree: Tree): Promise<void> {
  await mkdir(root, { recursive: true });
  const folders: string[] = [root];
  for (const [name, entry] of Object.entries(tree)) {
    const file = path.join(root, name);
    await mkdir(path.dirname(file), { recursive: true });
    for (let parent = path.dirname(file); parent.length > root.length; parent = path.dirname(parent)) {
      folders.push(parent);
    }
    if (typeof entry === 'string') {
      await writeFile(file, entry, { mode: 0o644 });
      await utimes(file, FIXTURE_TIME, FIXTURE_TIME);
    } else if ('text' in entry) {
      await writeFile(file, entry.text);
      await chmod(file, entry.mode);
      await utimes(file, FIXTURE_TIME, FIXTURE_TIME);
    } else if ('link' in entry) {
      await symlink(entry.link, file);
      await lutimes(file, FIXTURE_TIME, FIXTURE_TIME);
    } else {
      await mkdir(file, { recursive: true });
      await chmod(file, entry.folder);
      folders.push(file);
    }
  }
  // Deepest first: a folder's time is set once nothing more is written in it.
  for (const folder of [...new Set(folders)].sort((a, b) => b.length - a.length)) {
    await utimes(folder, FIXTURE_TIME, FIXTURE_TIME);
  }
}

/**
 * A folder's tree, one line an entry: `name/ mode`, `name mode "text"` or `name -> target`, each
 * with `@kept` when it has the fixture's time. The root's own time is left out: rsync sets it or
 * not depending on the form.
 */
export async function treeOf(root: string): Promise<string[]> {
  const lines: string[] = [];
  // Walked here rather than by readdir's recursion, which follows links to folders.
  const names = ['.'];
  for (let index = 0; index < names.length; index++) {
    const name = names[index] as string;
    const file = path.join(root, name);
    const stats = await lstat(file);
    const kept = name !== '.' && Math.floor(stats.mtimeMs / 1000) === FIXTURE_TIME.getTime() / 1000;
    const mode = (stats.mode & 0o7777).toString(8);
    let line: string;
    if (stats.isSymbolicLink()) line = `${name} -> ${await readlink(file)}`;
    else if (stats.isDirectory()) {
      line = `${name}/ ${mode}`;
      for (const child of await readdir(file)) names.push(name === '.' ? child : `${name}/${child}`);
    } else line = `${name} ${mode} ${JSON.stringify(await readFile(file, 'utf8'))}`;
    lines.push(kept ? `${line} @kept` : line);
  }
  return lines.sort();
}
