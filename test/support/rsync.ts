/**
 * A stand-in for `rsync`, in Node alone, which the tests put first on gitlab-ci-local's `PATH`: it
 * copies the project, artifacts and caches with rsync, a system package that a machine with only
 * Node and npm lacks (npm's rsync packages wrap the system's binary). It does exactly the forms
 * gitlab-ci-local 4 runs, with rsync's meaning (checked against rsync 3.2.7 by rsync.test.ts):
 *
 *   rsync -a --delete-excluded --delete --exclude-from=FILE... --exclude PAT... ./ DEST/
 *   rsync -a [--exclude=PAT] SRC/. DEST
 *   rsync -Ra ./PATH... DEST/.
 *   rsync [--exclude PAT]... -rRa [--exclude PAT]... --files-from=FILE . DEST/.
 *
 * `-a` keeps symbolic links as links, modes and modification times; owners and groups are left
 * as the process makes them (the tests' files are all the user's own), and special files are
 * skipped, said on standard error. A file whose size and modification time match is not copied
 * again (rsync's quick check). Exclude patterns are rsync's: `/` at the start anchors at the
 * transfer's root, `/` at the end matches folders only, a pattern with a `/` or `**` matches the
 * end of the path at a folder's boundary (else the last name), `*`, `?`, `[...]` within a name,
 * `**` across names. Anything else is refused with exit code 1, as rsync refuses what it does not
 * know; a source that is missing is said and the rest copied, exit code 23, as rsync does.
 */
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import {
  chmod,
  copyFile,
  lstat,
  lutimes,
  mkdir,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  rmdir,
  symlink,
  unlink,
  utimes,
} from 'node:fs/promises';
import path from 'node:path';

/** rsync's exit codes: a usage error, an I/O error, and a transfer in which some files failed. */
const EXIT_SYNTAX = 1;
const EXIT_FILE_IO = 11;
const EXIT_PARTIAL = 23;

class UsageError extends Error {}

interface Rule {
  text: string;
  regex: RegExp;
  /** The pattern ended with `/`: it matches folders only. */
  foldersOnly: boolean;
  /** The pattern has a `/` (other than at its end) or `**`: it matches the path, else the last name. */
  wholePath: boolean;
}

export interface RsyncOptions {
  archive: boolean;
  recursive: boolean;
  relative: boolean;
  delete: boolean;
  deleteExcluded: boolean;
  rules: Rule[];
  filesFrom?: string;
  paths: string[];
}

/** One pattern of `--exclude` or a line of `--exclude-from`, as rsync reads it. */
export function excludeRule(text: string): Rule {
  let pattern = text;
  const foldersOnly = pattern.endsWith('/') && pattern.length > 1;
  if (foldersOnly) pattern = pattern.slice(0, -1);
  const anchored = pattern.startsWith('/');
  if (anchored) pattern = pattern.slice(1);
  const wholePath = anchored || pattern.includes('/') || pattern.includes('**');
  // `dir/***` is the folder and everything in it.
  let tail = '';
  if (pattern.endsWith('/***')) {
    pattern = pattern.slice(0, -4);
    tail = '(?:/.*)?';
  }
  const body = globToRegex(pattern) + tail;
  const prefix = !wholePath || anchored ? '' : '(?:.*/)?';
  return { text, regex: new RegExp(`^${prefix}${body}$`, 's'), foldersOnly, wholePath };
}

function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        out += '.*';
        while (glob[i + 1] === '*') i++;
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) out += '\\[';
      else {
        let set = glob.slice(i + 1, end);
        if (set.startsWith('!')) set = `^${set.slice(1)}`;
        out += `[${set.replaceAll('\\', '\\\\')}]`;
        i = end;
      }
    } else if (c === '\\' && i + 1 < glob.length) out += escapeRegex(glob[++i] as string);
    else out += escapeRegex(c);
  }
  return out;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Whether a transfer path (`a/b/c`, relative to the transfer's root) is excluded. */
export function isExcluded(rules: readonly Rule[], name: string, isFolder: boolean): boolean {
  if (name === '.') return false;
  const last = name.slice(name.lastIndexOf('/') + 1);
  return rules.some(
    (rule) => (!rule.foldersOnly || isFolder) && rule.regex.test(rule.wholePath ? name : last),
  );
}

/** Blank lines and lines starting with `#` or `;` are skipped, as rsync skips them. */
function listLines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith(';'));
}

export async function parseArgs(args: readonly string[]): Promise<RsyncOptions> {
  const options: RsyncOptions = {
    archive: false,
    recursive: false,
    relative: false,
    delete: false,
    deleteExcluded: false,
    rules: [],
    paths: [],
  };
  let explicitRecursive = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s) : [arg];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = args[++i];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      return next;
    };
    if (flag === '--delete') options.delete = true;
    else if (flag === '--delete-excluded') options.delete = options.deleteExcluded = true;
    else if (flag === '--exclude') options.rules.push(excludeRule(value()));
    else if (flag === '--exclude-from') {
      const file = value();
      for (const line of listLines(await readFile(file, 'utf8'))) options.rules.push(excludeRule(line));
    } else if (flag === '--files-from') options.filesFrom = value();
    else if (/^-[arR]+$/.test(arg)) {
      for (const letter of arg.slice(1)) {
        if (letter === 'a') options.archive = true;
        else if (letter === 'r') explicitRecursive = true;
        else options.relative = true;
      }
    } else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else options.paths.push(arg);
  }
  if (!options.archive) throw new UsageError('only archive mode (-a) is implemented');
  // `-a` recurses, except with --files-from, where only `-r` does.
  options.recursive = explicitRecursive || options.filesFrom === undefined;
  if (options.filesFrom !== undefined) options.relative = true;
  return options;
}

/** What the transfer starts from: a source path, its name in the destination, and the folders it implies. */
interface TopItem {
  source: string;
  name: string;
  implied: { source: string; name: string }[];
}

function relativeItem(base: string, given: string): TopItem {
  if (path.isAbsolute(given)) throw new UsageError(`absolute path ${given} with -R is not implemented`);
  const parts = given.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) throw new UsageError(`path ${given} goes up with ..`);
  const name = parts.length === 0 ? '.' : parts.join('/');
  // `./a/b` makes `.` one of the folders it implies, whose mode and time the destination takes.
  const implied = given.startsWith('./') && name !== '.' ? [{ source: base, name: '.' }] : [];
  for (let depth = 1; depth < parts.length; depth++) {
    const folder = parts.slice(0, depth).join('/');
    implied.push({ source: path.join(base, folder), name: folder });
  }
  return { source: path.join(base, name), name, implied };
}

async function topItems(options: RsyncOptions, sources: readonly string[]): Promise<TopItem[]> {
  if (options.filesFrom !== undefined) {
    if (sources.length !== 1) throw new UsageError('--files-from takes one source folder');
    const base = path.resolve(sources[0] as string);
    const lines = listLines(await readFile(options.filesFrom, 'utf8'));
    return lines.map((line) => relativeItem(base, line));
  }
  if (options.relative) return sources.map((source) => relativeItem(process.cwd(), source));
  return sources.map((source) => {
    if (!source.endsWith('/') && path.basename(source) !== '.') {
      throw new UsageError(`${source}: without -R only a folder's contents (SRC/ or SRC/.) are implemented`);
    }
    return { source: path.resolve(source), name: '.', implied: [] };
  });
}

class Transfer {
  code = 0;
  /** The folders made or updated, whose mode and time are set last, once nothing is written in them. */
  private readonly folders = new Map<string, Stats>();

  private readonly options: RsyncOptions;
  private readonly dest: string;

  constructor(options: RsyncOptions, dest: string) {
    this.options = options;
    this.dest = dest;
  }

  fail(message: string): void {
    process.stderr.write(`rsync: ${message}\n`);
    this.code = EXIT_PARTIAL;
  }

  destPath(name: string): string {
    return name === '.' ? this.dest : path.join(this.dest, name);
  }

  async item(top: TopItem): Promise<void> {
    const stats = await lstat(top.source).catch(() => undefined);
    if (!stats) {
      this.fail(`[sender] link_stat "${top.source}" failed: No such file or directory (2)`);
      return;
    }
    if (isExcluded(this.options.rules, top.name, stats.isDirectory())) return;
    for (const folder of top.implied) {
      const folderStats = await lstat(folder.source);
      await this.folder(this.destPath(folder.name), folderStats);
    }
    await this.entry(top.source, top.name, stats);
  }

  async entry(source: string, name: string, stats: Stats): Promise<void> {
    const target = this.destPath(name);
    try {
      if (stats.isSymbolicLink()) await this.link(source, target, stats);
      else if (stats.isFile()) await this.file(source, target, stats);
      else if (stats.isDirectory()) {
        await this.folder(target, stats);
        // With --files-from and no -r a listed folder is made, not filled (rsync's --dirs).
        if (this.options.recursive) await this.contents(source, name);
      } else process.stderr.write(`skipping non-regular file "${name}"\n`);
    } catch (error) {
      this.fail(`${name}: ${(error as Error).message}`);
    }
  }

  async contents(source: string, name: string): Promise<void> {
    const kept = new Set<string>();
    for (const child of (await readdir(source)).sort()) {
      const childSource = path.join(source, child);
      // The destination inside the source, unless excluded, is not copied into itself.
      if (childSource === this.dest) continue;
      const childName = name === '.' ? child : `${name}/${child}`;
      const stats = await lstat(childSource);
      if (isExcluded(this.options.rules, childName, stats.isDirectory())) continue;
      kept.add(child);
      await this.entry(childSource, childName, stats);
    }
    if (this.options.delete) await this.deleteExtraneous(name, kept);
  }

  /** --delete: what the destination's folder has and the source's has not; excluded names only with --delete-excluded. */
  async deleteExtraneous(name: string, kept: ReadonlySet<string>): Promise<void> {
    const folder = this.destPath(name);
    for (const child of await readdir(folder)) {
      if (kept.has(child)) continue;
      const childName = name === '.' ? child : `${name}/${child}`;
      const target = path.join(folder, child);
      const isFolder = (await lstat(target)).isDirectory();
      if (!this.options.deleteExcluded && isExcluded(this.options.rules, childName, isFolder)) continue;
      await rm(target, { recursive: true, force: true });
    }
  }

  /** Makes room for a file or link where the destination has something else. */
  async replace(target: string, existing: Stats): Promise<void> {
    if (!existing.isDirectory()) return unlink(target);
    // A folder gives way to a file only when deleting (rsync's --force otherwise), or when empty.
    if (this.options.delete) return rm(target, { recursive: true, force: true });
    return rmdir(target);
  }

  async file(source: string, target: string, stats: Stats): Promise<void> {
    const existing = await lstat(target).catch(() => undefined);
    if (
      existing?.isFile() &&
      existing.size === stats.size &&
      Math.floor(existing.mtimeMs) === Math.floor(stats.mtimeMs)
    ) {
      if ((existing.mode & 0o7777) !== (stats.mode & 0o7777)) await chmod(target, stats.mode & 0o7777);
      return;
    }
    if (existing && !existing.isFile()) await this.replace(target, existing);
    // Written beside and renamed, as rsync does: a read-only file is replaced, never half-written.
    const temporary = path.join(
      path.dirname(target),
      `.${path.basename(target)}.${randomBytes(3).toString('hex')}`,
    );
    try {
      await copyFile(source, temporary);
      await chmod(temporary, stats.mode & 0o7777);
      await utimes(temporary, new Date(), stats.mtimeMs / 1000);
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async link(source: string, target: string, stats: Stats): Promise<void> {
    const to = await readlink(source);
    const existing = await lstat(target).catch(() => undefined);
    if (existing?.isSymbolicLink() && (await readlink(target)) === to) {
      await lutimes(target, new Date(), stats.mtimeMs / 1000);
      return;
    }
    if (existing) await this.replace(target, existing);
    await symlink(to, target);
    await lutimes(target, new Date(), stats.mtimeMs / 1000);
  }

  async folder(target: string, stats: Stats): Promise<void> {
    const existing = await lstat(target).catch(() => undefined);
    if (existing && !existing.isDirectory()) await unlink(target);
    if (!existing?.isDirectory()) await mkdir(target);
    this.folders.set(target, stats);
  }

  async finishFolders(): Promise<void> {
    for (const [target, stats] of this.folders) {
      await chmod(target, stats.mode & 0o7777);
      await utimes(target, new Date(), stats.mtimeMs / 1000);
    }
  }
}

/** rsync with one path: it lists the files; gitlab-ci-local does not read the list. */
async function list(source: string): Promise<void> {
  const entries = await readdir(source, { recursive: true });
  for (const entry of ['.', ...entries.sort()]) process.stdout.write(`${entry}\n`);
}

export async function rsync(args: readonly string[]): Promise<number> {
  const options = await parseArgs(args);
  if (options.paths.length === 0) throw new UsageError('no source or destination given');
  if (options.paths.length === 1) {
    await list(options.paths[0] as string);
    return 0;
  }
  const sources = options.paths.slice(0, -1);
  const dest = path.resolve(options.paths.at(-1) as string);
  const items = await topItems(options, sources);
  try {
    if (!(await lstat(dest).catch(() => undefined))?.isDirectory()) await mkdir(dest);
  } catch (error) {
    process.stderr.write(`rsync: mkdir "${dest}" failed: ${(error as Error).message}\n`);
    return EXIT_FILE_IO;
  }
  const transfer = new Transfer(options, dest);
  for (const item of items) await transfer.item(item);
  await transfer.finishFolders();
  if (transfer.code === EXIT_PARTIAL) {
    process.stderr.write(
      'rsync error: some files/attrs were not transferred (see previous errors) (code 23)\n',
    );
  }
  return transfer.code;
}

if (import.meta.main) {
  rsync(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`rsync: ${(error as Error).message}\n`);
      process.exitCode = error instanceof UsageError ? EXIT_SYNTAX : EXIT_FILE_IO;
    },
  );
}
