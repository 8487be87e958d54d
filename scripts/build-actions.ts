/**
 * Bundles every action in one esbuild build with code splitting: `actions/<name>/src/main.ts`
 * becomes `dist/<name>.js` (and a post step's `main-post.ts`, `dist/<name>-post.js`), and the
 * code actions share (the action kit, the API client, undici, the runner toolkit) is stored once,
 * in `dist/chunks/`. Parts only some runs need (the artifact client, the tool cache, the XML
 * writer, the YAML parser) are chunks loaded on first use. The
 * runner runs the bundles from a checkout without `npm ci`, so every dependency is inside. The
 * output depends only on the sources, so a fresh build can be compared with the committed one.
 * The command line, `src/cli.ts`, is one more entry of the same build, `dist/cli.js`: it shares the
 * chunks, loads each action's definition only for its subcommand, and carries every `action.yml`
 * parsed at build time, so that it runs from the same checkout.
 *
 * Usage: node scripts/build-actions.ts [--out-dir DIR]
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { parse } from 'yaml';
import { actionMetadata } from '../packages/action-kit/src/hosts/action-metadata.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const ACTIONS_DIR = path.join(ROOT, 'actions');
/** Where the bundles live; each action's `runs.main` points here (`../../dist/<name>.js`). */
export const DIST_DIR = path.join(ROOT, 'dist');
/** The command line's entry, built as `dist/cli.js`, the package's `bin`. */
export const CLI_ENTRY = path.join(ROOT, 'src', 'cli.ts');
export const CLI_NAME = 'cli';

/**
 * Bundled CommonJS code calls `require`, which an ES module lacks; the banner defines it through
 * `createRequire` under an alias no bundled module uses, and esbuild's `__require` shim finds it.
 */
const BANNER = [
  "import { createRequire as __sauceCreateRequire } from 'node:module';",
  'const require = __sauceCreateRequire(import.meta.url);',
].join('\n');

/** Marks the folder as ESM for Node wherever the repository is checked out. */
const DIST_PACKAGE_JSON = `${JSON.stringify({ type: 'module' }, null, 2)}\n`;

/**
 * `@actions/http-client` brings its own undici (6), used only for OIDC tokens through a proxy;
 * bundling the client's undici (8) in its place, whose `ProxyAgent` takes the same options,
 * keeps one copy in the bundles.
 */
const oneUndici: Plugin = {
  name: 'one-undici',
  setup(pluginBuild) {
    const undici = createRequire(path.join(ROOT, 'packages', 'api', 'package.json')).resolve('undici');
    pluginBuild.onResolve({ filter: /^undici$/ }, () => ({ path: undici }));
  },
};

/**
 * The runner toolkit's modules do nothing when imported; its packages just do not say so. Marked
 * free of side effects, what the actions do not call (OIDC tokens with their HTTP client and
 * undici, platform details with `exec`) is left out instead of loaded at every start.
 */
const toolkitWithoutSideEffects: Plugin = {
  name: 'toolkit-without-side-effects',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
      if (
        args.pluginData === 'resolved' ||
        !/node_modules[\\/]@actions[\\/](core|http-client|exec|io)[\\/]/.test(args.importer)
      ) {
        return undefined;
      }
      const result = await pluginBuild.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'resolved',
      });
      if (result.errors.length > 0) return undefined;
      return {
        path: result.path,
        external: result.external,
        namespace: result.namespace,
        sideEffects: false,
      };
    });
  },
};

/**
 * An `action.yml` imported by the command line becomes its metadata, parsed here: the bundle needs
 * neither the file nor the YAML parser at run time.
 */
const embeddedActionYml: Plugin = {
  name: 'embedded-action-yml',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]action\.yml$/ }, async (args) => ({
      contents: JSON.stringify(actionMetadata(parse(await readFile(args.path, 'utf8')), args.path)),
      loader: 'json',
    }));
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

export function esbuildOptions(names: readonly string[]): BuildOptions {
  return {
    absWorkingDir: ROOT,
    entryPoints: {
      ...Object.fromEntries(names.map((name) => [name, path.join(ACTIONS_DIR, name, 'src', 'main.ts')])),
      // A post step's own bundle, `dist/<name>-post.js`, for the actions that have one.
      ...Object.fromEntries(
        names
          .filter((name) => existsSync(path.join(ACTIONS_DIR, name, 'src', 'main-post.ts')))
          .map((name) => [`${name}-post`, path.join(ACTIONS_DIR, name, 'src', 'main-post.ts')]),
      ),
      [CLI_NAME]: CLI_ENTRY,
    },
    outdir: DIST_DIR,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
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
    metafile: true,
    plugins: [toolkitWithoutSideEffects, oneUndici, embeddedActionYml],
    // `debug` (under @actions/artifact) loads its optional colour support inside try/catch;
    // leaving it out keeps the bundles the same whatever else happens to be installed.
    external: ['supports-color'],
  };
}

export interface BuiltBundles {
  /** Paths of the files written, relative to the output folder. */
  files: string[];
  metafile: Metafile;
}

/** Builds every action into `outDir` (default `dist/`), replacing what was there. */
export async function buildActions(options: { outDir?: string } = {}): Promise<BuiltBundles> {
  const names = await actionNames();
  // Always built as if into dist/: the paths between chunks and in license notes depend on it,
  // and a build elsewhere must be byte-identical.
  const result = await build({ ...esbuildOptions(names), write: false });
  const outDir = options.outDir ?? DIST_DIR;
  await rm(outDir, { recursive: true, force: true });
  const files: string[] = [];
  for (const output of result.outputFiles ?? []) {
    const relative = path.relative(DIST_DIR, output.path);
    const target = path.join(outDir, relative);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, output.contents);
    // The package's `bin`: runnable as `./dist/cli.js` too.
    if (relative === `${CLI_NAME}.js`) await chmod(target, 0o755);
    files.push(relative);
  }
  await writeFile(path.join(outDir, 'package.json'), DIST_PACKAGE_JSON);
  files.push('package.json');
  return { files: files.sort(), metafile: result.metafile as Metafile };
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { 'out-dir': { type: 'string' } } });
  const outDir = values['out-dir'] !== undefined ? path.resolve(values['out-dir']) : DIST_DIR;
  const { files } = await buildActions({ outDir });
  console.log(`built ${files.length} files in ${path.relative(process.cwd(), outDir) || '.'}`);
}
