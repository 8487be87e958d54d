/**
 * Upload of a package by the upload-build bundle, run as the runner runs it, against `curl -F`
 * sending the same file to the same place: what a release engineer would use instead. Both go,
 * in turns, round by round, to a minimal `node:http` sink (the client alone) and to the emulator
 * (which also parses the multipart body, writes the file and reads the package), on a small and
 * a large file. Figures: MiB/s (the median of the rounds), the median of the per-round ratios to
 * curl, the peak resident memory of each client, and the emulator's resident memory when idle
 * and at its peak (a fresh emulator for each size).
 *
 * The bundle's time and peak come from the process itself (`support/exit-figures.js`, preloaded; plain JavaScript, since a TypeScript preload would load Node's type stripping into the process measured):
 * from Node's start to its exit, so the harness's own work around the step is left out; curl's
 * time is from its spawn to its exit, and its peak is read from /proc while it runs.
 *
 * Usage: npm run bench:upload [-- --sizes 10,1024 --rounds 3]
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { runStep } from '@sauce-actions/action-harness';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import {
  loadAverage,
  median,
  mib,
  MIB,
  processMemory,
  ROOT,
  startEmulatorProcess,
  type ListeningProcess,
} from './support/processes.ts';

const API_KEY = 'demo-api-key';
const EMAIL = 'demo@example.com';
const STEP_TIMEOUT_MS = 600_000;

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '10,1024' }, rounds: { type: 'string', default: '3' } },
});
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) throw new Error('--rounds must be 1 to 20');
const sizesMib = values.sizes.split(',').map(Number);
if (sizesMib.some((size) => !(size > 0 && size <= 4096))) throw new Error('--sizes are MiB from 1 to 4096');
const hasCurl = spawnSync('curl', ['--version']).status === 0;

interface Run {
  ms: number;
  peakRss: number;
}

interface Row {
  client: string;
  target: string;
  sizeMib: number;
  runs: Run[];
  /** The per-round ratio of this client's speed to curl's. */
  vsCurl: number[];
  emulator?: { idleRss: number | undefined; peakRss: number | undefined };
}

const work = await mkdtemp(path.join(os.tmpdir(), 'bench-upload-'));
const sink = await startSink();
const rows: Row[] = [];
try {
  console.log(
    `${rounds} rounds a size, Node ${process.version}, ${os.cpus().length} cores, load average ${loadAverage()}` +
      (hasCurl ? '' : '; curl is not on this machine: the bundle is measured alone'),
  );
  for (const sizeMib of sizesMib) {
    const workspace = path.join(work, `workspace-${sizeMib}`);
    await mkdir(workspace);
    const file = path.join(workspace, 'app-release.apk');
    await createSampleApk(file, {
      packageId: 'com.example.large',
      name: 'Large',
      version: '1.0',
      versionCode: 1,
      padding: sizeMib * MIB,
    });
    const size = (await stat(file)).size;
    // The new file's own writes would otherwise slow the first round.
    spawnSync('sync');
    const emulator = await startEmulatorProcess();
    const idleRss = emulator.memory()?.rss;
    try {
      for (const target of [
        { name: 'node:http sink', url: sink.url, after: async () => {} },
        { name: 'emulator', url: emulator.url, after: () => resetEmulator(emulator) },
      ]) {
        const bundle: Row = {
          client: 'upload-build bundle',
          target: target.name,
          sizeMib,
          runs: [],
          vsCurl: [],
        };
        const curl: Row = {
          client: 'curl -F (reference)',
          target: target.name,
          sizeMib,
          runs: [],
          vsCurl: [],
        };
        // One upload left unmeasured: the first into a fresh emulator finds its folders and the
        // disk cold, and would count against whichever client happened to go first.
        if (hasCurl) await runCurl(file, target.url);
        await target.after();
        for (let round = 1; round <= rounds; round++) {
          // Who goes first alternates, so that neither always finds the caches warm.
          const order = round % 2 === 1 ? ['bundle', 'curl'] : ['curl', 'bundle'];
          const times: Record<string, Run> = {};
          for (const which of order) {
            if (which === 'curl' && !hasCurl) continue;
            times[which] =
              which === 'bundle' ? await runBundle(workspace, target.url) : await runCurl(file, target.url);
            await target.after();
          }
          bundle.runs.push(times.bundle!);
          if (times.curl) {
            curl.runs.push(times.curl);
            bundle.vsCurl.push(times.curl.ms / times.bundle!.ms);
            curl.vsCurl.push(1);
          }
          console.log(
            `${mib(size)} to the ${target.name}, round ${round}: bundle ${rate(size, times.bundle!.ms)} MiB/s` +
              (times.curl ? `, curl ${rate(size, times.curl.ms)} MiB/s` : ''),
          );
        }
        if (target.name === 'emulator') {
          bundle.emulator = { idleRss, peakRss: emulator.memory()?.peak };
        }
        rows.push(bundle, ...(hasCurl ? [curl] : []));
      }
    } finally {
      await emulator.stop();
      await rm(workspace, { recursive: true, force: true });
    }
  }

  console.log(
    '\nMiB/s: the median of the rounds (MiB = 1,048,576 bytes); vs curl: the median of the per-round ratios of speed; memory: peak resident (RSS)\n',
  );
  console.log('| client | to | file | MiB/s | vs curl | peak RSS | emulator RSS idle / peak |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const ms = median(row.runs.map((run) => run.ms));
    const peak = Math.max(...row.runs.map((run) => run.peakRss));
    const emulatorRss = row.emulator ? `${mib(row.emulator.idleRss)} / ${mib(row.emulator.peakRss)}` : '';
    console.log(
      `| ${row.client} | ${row.target} | ${row.sizeMib} MiB | ${rate(row.sizeMib * MIB, ms)} | ${row.vsCurl.length ? `${median(row.vsCurl).toFixed(2)}×` : 'n/a'} | ${mib(peak)} | ${emulatorRss} |`,
    );
  }
  const bundlePeaks = sizesMib.map((sizeMib) =>
    Math.max(
      ...rows
        .filter((row) => row.client === 'upload-build bundle' && row.sizeMib === sizeMib)
        .flatMap((row) => row.runs.map((run) => run.peakRss)),
    ),
  );
  if (bundlePeaks.length > 1) {
    console.log(
      `\nthe bundle's peak grows by ${mib(bundlePeaks.at(-1)! - bundlePeaks[0]!)} from ${sizesMib[0]} MiB to ${sizesMib.at(-1)} MiB`,
    );
  }
  console.log(`load average at the end ${loadAverage()}`);
} finally {
  await sink.close();
  await rm(work, { recursive: true, force: true });
}

function rate(bytes: number, ms: number): string {
  return (bytes / MIB / (ms / 1000)).toFixed(0);
}

/** The bundle as the runner runs it, with its own lifetime and peak memory. */
async function runBundle(workspace: string, url: string): Promise<Run> {
  const preload = pathToFileURL(path.join(import.meta.dirname, 'support', 'exit-figures.js')).href;
  const result = await runStep({
    actionDir: path.join(ROOT, 'actions', 'upload-build'),
    inputs: { file: 'app-release.apk', 'api-key': API_KEY, email: EMAIL, 'api-url': url },
    env: { NODE_OPTIONS: `--import=${preload}` },
    workspace,
    timeoutMs: STEP_TIMEOUT_MS,
  });
  await result.cleanup();
  const figures = /exit-figures lifetime-ms ([\d.]+) max-rss-bytes (\d+)/.exec(result.stderr);
  if (!result.success || !figures) throw new Error(`upload-build failed:\n${result.log}\n${result.stderr}`);
  return { ms: Number(figures[1]), peakRss: Number(figures[2]) };
}

/** `curl -F`, from its spawn to its exit, its peak memory read from /proc as it runs. */
function runCurl(file: string, url: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(
      'curl',
      [
        '-sS',
        '--fail',
        '-o',
        '/dev/null',
        '-F',
        `api_key=${API_KEY}`,
        '-F',
        `file=@${file}`,
        `${url}/api/upload/`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let peakRss = 0;
    let stderr = '';
    const poll = setInterval(() => {
      const peak = processMemory(child.pid!)?.peak;
      // Once it has exited, its status no longer says.
      if (peak !== undefined && Number.isFinite(peak)) peakRss = Math.max(peakRss, peak);
    }, 5);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      clearInterval(poll);
      const ms = performance.now() - start;
      if (code !== 0) reject(new Error(`curl exited ${code}: ${stderr}`));
      else resolve({ ms, peakRss });
    });
  });
}

/**
 * Drops the uploads, so that the disk does not fill over the rounds, and waits for the disk to
 * write what the last upload left in memory: otherwise whichever client goes second in a round
 * pays for the first one's writes.
 */
async function resetEmulator(emulator: ListeningProcess): Promise<void> {
  const response = await fetch(`${emulator.url}/_emulator/reset`, { method: 'POST' });
  if (!response.ok) throw new Error(`reset answered ${response.status}`);
  spawnSync('sync');
}

interface Sink {
  url: string;
  close(): Promise<void>;
}

/** Reads each request to its end and answers as the upload interface would, counting the bytes. */
async function startSink(): Promise<Sink> {
  const server = http.createServer((request, response) => {
    let bytes = 0;
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          status: 'ok',
          build_id: 1,
          project_id: 1,
          app_name: 'Large',
          app_version: '1.0',
          file_size: bytes,
          projects: [],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
