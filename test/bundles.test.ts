/**
 * The committed bundles are what the sources build to (a fresh build must match `dist/` file for
 * file, byte for byte), and each action's bundle runs as the runner runs it.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runStep } from '@sauce-actions/action-harness';
import { stop as stopEsbuild, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTIONS_DIR,
  actionNames,
  buildActions,
  CLI_NAME,
  DIST_DIR,
  ROOT,
} from '../scripts/build-actions.ts';
import { untilEnded } from './support/test-processes.ts';

const names = await actionNames();
let outDir: string;
let fresh: string[];
let metafile: Metafile;

beforeAll(async () => {
  outDir = await mkdtemp(path.join(os.tmpdir(), 'bundles-'));
  ({ files: fresh, metafile } = await buildActions({ outDir }));
});

/** Packages only some runs need: none may be loaded when an action starts. */
const LOADED_ON_FIRST_USE = [
  'undici',
  'mime-db',
  'yaml',
  'xmlbuilder2',
  '@actions/artifact',
  '@actions/tool-cache',
  '@actions/http-client',
];

/**
 * What the sources read from each module they load on first use (a package, or a module of ours
 * that gathers parts of one), as the bundles give it: a CommonJS package loaded so is only a
 * default export once bundled, an ES module keeps its names.
 */
const READ_ON_FIRST_USE: Record<string, (module: Record<string, unknown>) => unknown[]> = {
  '@actions/artifact': (m) => [m.DefaultArtifactClient],
  '@actions/github': (m) => [m.getOctokit],
  '@actions/tool-cache': (m) => [m.find, m.downloadTool, m.extractTar, m.extractZip, m.cacheDir],
  'packages/action-kit/src/reporting/pull-request-comment.ts': (m) => [
    m.commentFailureText,
    m.commentMarker,
    m.commentText,
    m.pullRequestOf,
    m.writePullRequestComment,
  ],
  'packages/action-kit/src/hosts/github-check-run.ts': (m) => [m.checkRunOnGitHub],
  'packages/action-kit/src/hosts/github-issues.ts': (m) => [m.fileIssuesOnGitHub],
  'packages/action-kit/src/hosts/github-id-token.ts': (m) => [m.requestIdToken],
  'packages/api/src/core/transport/undici-parts.ts': (m) => [m.EnvProxyDispatcher, m.request, m.sendOnce],
  'packages/action-kit/src/reporting/xml-writer.ts': (m) => [m.create],
  'packages/action-kit/src/inputs/quarantine.ts': (m) => [m.parseQuarantine],
  'packages/action-kit/src/inputs/quarantine-match.ts': (m) => [m.quarantineMatcher, m.unmatchedEntries],
  yaml: (m) => {
    const yaml = m.default as Record<string, unknown>;
    return [yaml.parse, yaml.parseDocument, yaml.isScalar, yaml.isSeq, yaml.isMap];
  },
};

/** The source files of every output an entry imports statically, transitively. */
function loadedAtStart(entry: string): string[] {
  return sourcesOf(entry, false);
}

/** The source files an entry imports, transitively; `dynamic` also follows what loads on first use. */
function sourcesOf(entry: string, dynamic: boolean): string[] {
  const seen = new Set<string>();
  const visit = (output: string): void => {
    if (seen.has(output) || !metafile.outputs[output]) return;
    seen.add(output);
    for (const imported of metafile.outputs[output].imports) {
      if (!imported.external && (dynamic || imported.kind !== 'dynamic-import')) visit(imported.path);
    }
  };
  visit(path.relative(ROOT, path.join(DIST_DIR, entry)));
  return [...seen].flatMap((output) => Object.keys(metafile.outputs[output]?.inputs ?? {}));
}

/**
 * The command line's entry, and what it loads to run a subcommand (its run part and the action's
 * definition): entries of ours, not parts of a package.
 */
const COMMAND_LINE_ENTRIES = new RegExp(
  `^(src/${CLI_NAME}\\.ts|packages/action-kit/src/hosts/cli-run\\.ts|actions/[^/]+/src/definition\\.ts)$`,
);

afterAll(async () => {
  // The build leaves esbuild's service process running for the next one: there is none. It is
  // told to stop, not waited for.
  await stopEsbuild();
  await untilEnded(/esbuild --service=/);
  await rm(outDir, { recursive: true, force: true });
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('committed bundles', () => {
  it('are one entry per action and shared chunks', () => {
    expect(names).toEqual(
      expect.arrayContaining(['upload-build', 'invite-testers', 'run-suite-and-wait', 'run-js-tests']),
    );
    for (const name of names) expect(fresh).toContain(`${name}.js`);
    expect(fresh.some((file) => file.startsWith('chunks/'))).toBe(true);
  });

  it('match a fresh build, file for file (run `npm run build` after changing sources)', async () => {
    const committed = await filesUnder(DIST_DIR);
    expect(committed, 'dist/ holds other files than a fresh build').toEqual(fresh);
    const stale: string[] = [];
    for (const file of fresh) {
      const [a, b] = await Promise.all([
        readFile(path.join(DIST_DIR, file), 'utf8'),
        readFile(path.join(outDir, file), 'utf8'),
      ]);
      if (a !== b) stale.push(file);
    }
    expect(stale, 'stale bundle files').toEqual([]);
  });

  it('start the ESM way with require defined, and hold no path of the machine that built them', async () => {
    for (const file of fresh.filter((f) => f.endsWith('.js'))) {
      const text = await readFile(path.join(DIST_DIR, file), 'utf8');
      // The command line starts with the line that lets it run as a program.
      const hashbang = '#!/usr/bin/env node\n';
      if (file === `${CLI_NAME}.js`) expect(text.startsWith(hashbang), file).toBe(true);
      const bundle = file === `${CLI_NAME}.js` ? text.slice(hashbang.length) : text;
      expect(
        bundle.startsWith("import { createRequire as __sauceCreateRequire } from 'node:module';"),
        file,
      ).toBe(true);
      expect(bundle.includes(ROOT), file).toBe(false);
    }
  });

  it.each(names)('%s loads its heavy parts only when first used', (name) => {
    const sources = loadedAtStart(`${name}.js`);
    expect(sources.some((source) => source.startsWith(`actions/${name}/src/`))).toBe(true);
    const heavy = sources.filter((source) =>
      LOADED_ON_FIRST_USE.some((pkg) => source.includes(`node_modules/${pkg}/`)),
    );
    expect(heavy).toEqual([]);
  });

  it('give each part loaded on first use in the shape the sources read it', async () => {
    const lazy = Object.entries(metafile.outputs).flatMap(([output, meta]) => {
      const entry = meta.entryPoint;
      if (
        entry === undefined ||
        /^actions\/[^/]+\/src\/main(-post)?\.ts$/.test(entry) ||
        COMMAND_LINE_ENTRIES.test(entry)
      ) {
        return [];
      }
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(entry)?.[1] ?? entry;
      return [{ pkg, file: path.join(ROOT, output) }];
    });
    expect(lazy.map(({ pkg }) => pkg).sort()).toEqual(Object.keys(READ_ON_FIRST_USE).sort());
    for (const { pkg, file } of lazy) {
      const loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      const read = READ_ON_FIRST_USE[pkg]!(loaded);
      expect(
        read.map((value) => typeof value),
        pkg,
      ).toEqual(read.map(() => 'function'));
    }
  });

  it('the command line loads no action and no heavy part at start, and never the runner toolkit', () => {
    const atStart = loadedAtStart(`${CLI_NAME}.js`);
    expect(atStart).toContain(`src/${CLI_NAME}.ts`);
    // Help and usage mistakes need neither the run's part nor the client.
    expect(atStart).not.toContain('packages/action-kit/src/hosts/cli-run.ts');
    expect(atStart.filter((source) => source.startsWith('packages/api/'))).toEqual([]);
    // Each action's metadata is embedded; its code is not loaded.
    for (const name of names) expect(atStart).toContain(`actions/${name}/action.yml`);
    expect(atStart.filter((source) => source.startsWith('actions/') && source.endsWith('.ts'))).toEqual([]);
    expect(
      atStart.filter((source) => LOADED_ON_FIRST_USE.some((pkg) => source.includes(`node_modules/${pkg}/`))),
    ).toEqual([]);
    const ever = sourcesOf(`${CLI_NAME}.js`, true);
    for (const name of names) expect(ever).toContain(`actions/${name}/src/run.ts`);
    // `@actions/core` writes workflow commands to standard output, where the command line's outputs go.
    expect(
      ever.filter((source) => /node_modules\/@actions\/(core|artifact|tool-cache)\//.test(source)),
    ).toEqual([]);
    expect(ever).not.toContain('packages/action-kit/src/hosts/github-host.ts');
  });

  it.each(names)('%s runs as the runner runs it, and refuses a missing input by name', async (name) => {
    const step = await runStep({ actionDir: path.join(ACTIONS_DIR, name) });
    try {
      expect(step.exitCode).toBe(1);
      expect(step.stdout).toMatch(/::error::Input "[a-z-]+" (is required|has)/);
      expect(step.summary).toContain(': bad input</h2>');
    } finally {
      await step.cleanup();
    }
  });
});
