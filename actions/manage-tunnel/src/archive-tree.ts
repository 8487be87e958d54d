/**
 * What an unpacked archive may hold before it is cached or run: folders, files, and links that
 * stay inside it. The extractors refuse `../` names and strip absolute ones (GNU tar, bsdtar,
 * UnZip, .NET), and refuse to write through a link the archive made; but each leaves the link
 * itself in place, pointing wherever the archive said, even the `sc` that would then be run.
 */
import { lstat, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';

/** Why the tree is refused, or undefined when everything in it stays inside. */
export async function outsideEntry(root: string): Promise<string | undefined> {
  const walk = async (dir: string): Promise<string | undefined> => {
    for (const name of await readdir(dir)) {
      const full = path.join(dir, name);
      const shown = JSON.stringify(path.relative(root, full).split(path.sep).join('/'));
      const stats = await lstat(full);
      if (stats.isSymbolicLink()) {
        const target = await readlink(full);
        // An absolute target points outside once the tree is copied into the cache, even when it
        // names a path inside the temporary folder now.
        if (path.isAbsolute(target) || !isInside(root, path.resolve(dir, target))) {
          return `${shown} is a link to ${target}, outside the archive`;
        }
      } else if (stats.isDirectory()) {
        const found = await walk(full);
        if (found) return found;
      } else if (!stats.isFile()) {
        return `${shown} is neither a file, a folder nor a link`;
      }
    }
    return undefined;
  };
  return walk(root);
}

function isInside(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  return (
    relative !== '' &&
    !relative.startsWith(`..${path.sep}`) &&
    relative !== '..' &&
    !path.isAbsolute(relative)
  );
}
