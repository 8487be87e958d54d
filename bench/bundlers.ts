/**
 * The bundles as the runner loads them: one split esbuild build of every action (what
 * `npm run build` writes to dist/), its size in all and per action (what `node dist/<name>.js`
 * loads at start, and what it may load later), and the start-up time of each action against bare
 * `node -e ''`, in turns, in the same run. Started with no inputs, each step fails at once on the
 * first missing input, so the time is loading the bundle, reading the inputs and publishing.
 * The command line (`dist/cli.js`) is timed the same way, for its help and a usage mistake.
 *
 * Usage: npm run bench:bundlers [-- --runs 11]
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Metafile } from 'esbuild';
import { actionNames, buildActions, CLI_NAME, DIST_DIR, ROOT } from '../scripts/build-actions.ts';
import { median } from './support/processes.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '11' } } });
const runs = Number(values.runs);

const work = await mkdtemp(path.join(os.tmpdir(), 'bench-bundlers-'));
try {
  const out = path.join(work, 'dist');
  const started = performance.now();
  const { files, metafile } = await buildActions({ outDir: out });
  const buildMs = performance.now() - started;
  let total = 0;
  for (const file of files) total += (await stat(path.join(out, file))).size;
  const names = await actionNames();
  console.log(
    `\none build of ${names.length} actions: ${files.length} files, ${kib(total)} in all, ${buildMs.toFixed(0)} ms; Node ${process.version}, ${runs} start-ups each, load average ${os.loadavg()[0]?.toFixed(2)}\n`,
  );
  console.log(
    '| action | loaded at start | loaded on first use | start-up median | bare node median | above bare node |',
  );
  console.log('|---|---|---|---|---|---|');
  const cwd = await mkdtemp(path.join(work, 'cwd-'));
  // The command line as another CI system runs it: its help, and a usage mistake (exit 2).
  const rows: { label: string; file: string; args: string[] }[] = [
    ...names.map((name) => ({ label: name, file: `${name}.js`, args: [] })),
    { label: `${CLI_NAME}.js --help`, file: `${CLI_NAME}.js`, args: ['--help'] },
    {
      label: `${CLI_NAME}.js run-suite-and-wait --suit x`,
      file: `${CLI_NAME}.js`,
      args: ['run-suite-and-wait', '--suit', 'x'],
    },
  ];
  for (const { label, file, args } of rows) {
    const loads = loadedBy(metafile, file);
    const { bundle, bare } = startUps([path.join(out, file), ...args], cwd);
    console.log(
      `| ${label} | ${kib(loads.eager)} | ${kib(loads.lazy)} | ${bundle.toFixed(0)} ms | ${bare.toFixed(0)} ms | +${(bundle - bare).toFixed(0)} ms |`,
    );
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

/** Bytes an entry loads when it starts (static imports) and may load later (dynamic imports). */
function loadedBy(metafile: Metafile, entry: string): { eager: number; lazy: number } {
  const key = (file: string) => path.relative(ROOT, path.join(DIST_DIR, file));
  const outputs = metafile.outputs;
  const eager = new Set<string>();
  const lazy = new Set<string>();
  const visit = (file: string, seen: Set<string>): void => {
    if (seen.has(file) || !outputs[file]) return;
    seen.add(file);
    for (const imported of outputs[file].imports) {
      if (imported.external) continue;
      if (imported.kind === 'dynamic-import') visit(imported.path, lazy);
      else visit(imported.path, seen);
    }
  };
  visit(key(entry), eager);
  // What a lazily loaded chunk imports statically is lazy too, unless already loaded at start.
  for (const file of [...lazy]) {
    for (const imported of outputs[file]?.imports ?? []) if (!imported.external) visit(imported.path, lazy);
  }
  const bytes = (set: Set<string>) => [...set].reduce((sum, file) => sum + (outputs[file]?.bytes ?? 0), 0);
  return { eager: bytes(eager), lazy: bytes(new Set([...lazy].filter((file) => !eager.has(file)))) };
}

/** Medians of the bundle's and bare Node's start-up, run in turns; the first pair warms the caches. */
function startUps(command: string[], cwd: string): { bundle: number; bare: number } {
  const time = (args: string[]): number => {
    const start = performance.now();
    const child = spawnSync(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? '' } });
    if (child.status === null) throw new Error(`${args.join(' ')} did not exit`);
    return performance.now() - start;
  };
  const bundle: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const a = time(command);
    const b = time(['-e', '']);
    if (i === 0) continue;
    bundle.push(a);
    bare.push(b);
  }
  return { bundle: median(bundle), bare: median(bare) };
}

function kib(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(2)} MiB`
    : `${(bytes / 1024).toFixed(0)} KiB`;
}
