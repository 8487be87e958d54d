/**
 * Bundles every `actions/<name>/src/main.ts` into `actions/<name>/dist/index.js`: one ESM file for
 * node24 with every dependency inside, since the runner runs it from a checkout without `npm ci`.
 * The output depends only on the sources, so a fresh build can be compared with the committed one.
 *
 * Usage: node scripts/build-actions.ts [--out-dir DIR] [action names...]
 */
import { readdir, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { build, type BuildOptions, type Plugin } from 'esbuild';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const ACTIONS_DIR = path.join(ROOT, 'actions');

/**
 * Bundled CommonJS code calls `require`, which an ES module lacks; the banner defines it through
 * `createRequire` under an alias no bundled module uses, and esbuild's `__require` shim finds it.
 */
const BANNER = [
  "import { createRequire as __sauceCreateRequire } from 'node:module';",
  'const require = __sauceCreateRequire(import.meta.url);',
].join('\n');

/** Marks the folder as ESM for Node wherever the action is checked out. */
const DIST_PACKAGE_JSON = `${JSON.stringify({ type: 'module' }, null, 2)}\n`;

/**
 * `@actions/http-client` brings its own undici (6), used only for OIDC tokens through a proxy;
 * bundling the client's undici (8) in its place, whose `ProxyAgent` takes the same options,
 * keeps one copy in the bundle and takes about 430 KB off each action.
 */
const oneUndici: Plugin = {
  name: 'one-undici',
  setup(pluginBuild) {
    const undici = createRequire(path.join(ROOT, 'packages', 'api', 'package.json')).resolve('undici');
    pluginBuild.onResolve({ filter: /^undici$/ }, () => ({ path: undici }));
  },
};

export async function actionNames(): Promise<string[]> {
  const entries = await readdir(ACTIONS_DIR, { withFileTypes: true });
  return entries
    .filter(
      (entry) => entry.isDirectory() && existsSync(path.join(ACTIONS_DIR, entry.name, 'src', 'main.ts')),
    )
    .map((entry) => entry.name)
    .sort();
}

export function esbuildOptions(name: string, outfile: string): BuildOptions {
  return {
    absWorkingDir: ROOT,
    entryPoints: [path.join(ACTIONS_DIR, name, 'src', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    banner: { js: BANNER },
    minify: true,
    // Keeps class names (ApiError, InputError) readable in stack traces of failed steps.
    keepNames: true,
    legalComments: 'eof',
    sourcemap: false,
    charset: 'utf8',
    logLevel: 'warning',
    plugins: [oneUndici],
    // `debug` (under @actions/artifact) loads its optional colour support inside try/catch;
    // leaving it out keeps the bundles the same whatever else happens to be installed.
    external: ['supports-color'],
  };
}

/** Builds the named actions (default all) into `outDir/<name>/dist`, or into each action's own folder. */
export async function buildActions(
  options: { outDir?: string; names?: readonly string[] } = {},
): Promise<string[]> {
  const names = options.names && options.names.length > 0 ? [...options.names] : await actionNames();
  const written: string[] = [];
  for (const name of names) {
    // Always built as if into the action's own folder: paths in the output (license notes) and
    // the minifier's names depend on it, and a build elsewhere must be byte-identical.
    const result = await build({
      ...esbuildOptions(name, path.join(ACTIONS_DIR, name, 'dist', 'index.js')),
      write: false,
    });
    const [output] = result.outputFiles ?? [];
    if (!output || result.outputFiles?.length !== 1) throw new Error(`${name}: expected one output file`);
    const dist = path.join(options.outDir ?? ACTIONS_DIR, name, 'dist');
    await mkdir(dist, { recursive: true });
    const outfile = path.join(dist, 'index.js');
    await writeFile(outfile, output.contents);
    await writeFile(path.join(dist, 'package.json'), DIST_PACKAGE_JSON);
    written.push(outfile);
  }
  return written;
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    options: { 'out-dir': { type: 'string' } },
    allowPositionals: true,
  });
  const outDir = values['out-dir'] !== undefined ? path.resolve(values['out-dir']) : undefined;
  const written = await buildActions({ ...(outDir !== undefined ? { outDir } : {}), names: positionals });
  for (const file of written) console.log(`built ${path.relative(process.cwd(), file)}`);
}
