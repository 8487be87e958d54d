/**
 * Compares esbuild (what `npm run build` uses) with ncc (the original design's bundler) on one
 * action: bundle size and start-up time of `node dist/index.js` with no inputs (the step fails at
 * once on the missing key, so the time is loading the bundle and reading the inputs).
 *
 * Usage: npm run bench:bundlers [-- --action upload-build --runs 20]
 * ncc (and the TypeScript 5 it needs) is fetched when the benchmark runs; neither is a dependency
 * of the project.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildActions, ROOT } from '../scripts/build-actions.ts';

const NCC = '@vercel/ncc@0.38.4';
const TYPESCRIPT_5 = 'typescript@5.9.3';

const { values } = parseArgs({
  options: { action: { type: 'string', default: 'upload-build' }, runs: { type: 'string', default: '20' } },
});
const action = values.action;
const runs = Number(values.runs);

const work = await mkdtemp(path.join(os.tmpdir(), 'bench-bundlers-'));
try {
  const results = [
    await measure('esbuild', () =>
      timed(() => buildActions({ outDir: path.join(work, 'esbuild'), names: [action] })),
    ),
    await measure('ncc', async () => {
      const copy = await prepareNccSources();
      return timed(async () => buildWithNcc(copy, path.join(work, 'ncc')));
    }),
  ];
  console.log(`\naction ${action}, ${runs} start-ups each, Node ${process.version}\n`);
  console.log('| bundler | build time | bundle size | start-up min | start-up median | start-up mean |');
  console.log('|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.name} | ${r.buildMs.toFixed(0)} ms | ${(r.bytes / 1024).toFixed(0)} KiB | ${r.min.toFixed(1)} ms | ${r.median.toFixed(1)} ms | ${r.mean.toFixed(1)} ms |`,
    );
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function measure(name: string, build: () => Promise<number>) {
  const buildMs = await build();
  const dist = path.join(work, name, action, 'dist');
  const entry = path.join(dist, 'index.js');
  const bytes = (await stat(entry)).size;
  const cwd = await mkdtemp(path.join(work, 'cwd-'));
  const times: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const start = performance.now();
    const child = spawnSync(process.execPath, [entry], {
      cwd,
      env: { PATH: process.env.PATH ?? '' },
      encoding: 'utf8',
    });
    const ms = performance.now() - start;
    if (!child.stdout.includes('::error::'))
      throw new Error(`${name}: the bundle did not fail as expected:\n${child.stdout}${child.stderr}`);
    if (i >= 2) times.push(ms); // the first runs warm the file cache
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] as number;
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return { name, buildMs, bytes, min: times[0] as number, median, mean };
}

/**
 * ncc compiles TypeScript with ts-loader, which refuses the project's type-check-only tsconfig
 * (`.ts` imports without emit); it gets a copy of the sources with a tsconfig that can emit.
 */
async function prepareNccSources(): Promise<string> {
  const copy = path.join(work, 'ncc-src');
  for (const dir of [`actions/${action}/src`, 'packages/api/src', 'packages/action-kit/src']) {
    await cp(path.join(ROOT, dir), path.join(copy, dir), { recursive: true });
  }
  for (const pkg of ['api', 'action-kit']) {
    await cp(
      path.join(ROOT, 'packages', pkg, 'package.json'),
      path.join(copy, 'packages', pkg, 'package.json'),
    );
  }
  await writeFile(path.join(copy, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  await writeFile(
    path.join(copy, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2024',
        module: 'esnext',
        moduleResolution: 'bundler',
        allowImportingTsExtensions: true,
        rewriteRelativeImportExtensions: true,
        rootDir: '.',
        types: ['node'],
        skipLibCheck: true,
      },
      include: [`actions/${action}/src`],
    }),
  );
  // node_modules: the project's packages, with the workspace links pointing into the copy.
  const modules = path.join(copy, 'node_modules');
  await mkdir(path.join(modules, '@sauce-actions'), { recursive: true });
  for (const entry of await readdir(path.join(ROOT, 'node_modules'))) {
    if (entry === '@sauce-actions' || entry === 'typescript') continue;
    await symlink(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  for (const pkg of ['api', 'action-kit']) {
    await symlink(path.join(copy, 'packages', pkg), path.join(modules, '@sauce-actions', pkg));
  }
  // ts-loader in ncc 0.38 trips over TypeScript 6's rootDir rule when it transpiles file by file;
  // it gets the TypeScript 5 it was made for.
  const ts5 = path.join(work, 'ts5');
  execFileSync('npm', ['install', '--prefix', ts5, '--no-save', '--no-audit', '--no-fund', TYPESCRIPT_5], {
    stdio: 'ignore',
  });
  await symlink(path.join(ts5, 'node_modules', 'typescript'), path.join(modules, 'typescript'));
  return copy;
}

/** Not minified: ncc's minifier (terser) gives up on this ESM output and writes it unminified anyway. */
function buildWithNcc(copy: string, outRoot: string): void {
  const out = path.join(outRoot, action, 'dist');
  const args = [
    '--yes',
    NCC,
    'build',
    `actions/${action}/src/main.ts`,
    '-o',
    out,
    '--target',
    'es2024',
    '-t',
    '-q',
  ];
  execFileSync('npx', args, {
    cwd: copy,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}
