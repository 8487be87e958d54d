/**
 * Puts the command line's bundle into its package, `packages/cli`, for `npm pack` (its
 * `prepack`), and takes it out again afterwards (`postpack`). The package holds the committed
 * `dist/cli.js` and the chunks it loads, statically or on first use, byte for byte: the very files
 * the tests run, and nothing to install. Chunks only the actions load stay out.
 *
 * Usage: node scripts/pack-cli.ts stage|clean
 */
import { chmod, copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST_DIR = path.join(ROOT, 'dist');
export const CLI_PACKAGE_DIR = path.join(ROOT, 'packages', 'cli');
const PACKAGE_DIST = path.join(CLI_PACKAGE_DIR, 'dist');

/** `from"./chunks/x.js"`, `import"./x.js"`, `import("./x.js")` as esbuild writes them. */
const RELATIVE_IMPORT = /\b(?:from|import)\s*\(?\s*["'](\.\.?\/[^"']+\.js)["']/g;

/** `dist/cli.js` and every bundle file it loads, relative to `dist/`, in a stable order. */
export async function cliBundleFiles(): Promise<string[]> {
  const found = new Set<string>();
  const visit = async (file: string): Promise<void> => {
    if (found.has(file)) return;
    found.add(file);
    const text = await readFile(path.join(DIST_DIR, file), 'utf8').catch((error: unknown) => {
      throw new Error(`dist/${file} is missing (${(error as Error).message}): run npm run build`);
    });
    for (const match of text.matchAll(RELATIVE_IMPORT)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1] as string));
      if (target.startsWith('../')) throw new Error(`dist/${file} loads ${match[1]}, outside dist/`);
      await visit(target);
    }
  };
  await visit('cli.js');
  return [...found].sort();
}

/** Copies the bundle into `packages/cli/dist/`, replacing what was there. */
export async function stageCliPackage(): Promise<string[]> {
  const files = await cliBundleFiles();
  await rm(PACKAGE_DIST, { recursive: true, force: true });
  for (const file of files) {
    const target = path.join(PACKAGE_DIST, file);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(path.join(DIST_DIR, file), target);
  }
  await chmod(path.join(PACKAGE_DIST, 'cli.js'), 0o755);
  return files;
}

if (import.meta.main) {
  const [command] = process.argv.slice(2);
  if (command === 'stage') {
    const files = await stageCliPackage();
    console.error(`packages/cli/dist: ${files.length} files of dist/`);
  } else if (command === 'clean') {
    await rm(PACKAGE_DIST, { recursive: true, force: true });
  } else {
    console.error('usage: node scripts/pack-cli.ts stage|clean');
    process.exitCode = 2;
  }
}
