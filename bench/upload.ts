/**
 * Upload of a large package: rate and memory of the API client's multipart upload (form-data
 * streaming from disk), of the same upload with undici's own FormData over a file-backed Blob
 * (`fs.openAsBlob`, sent with undici's `fetch`) and of the `upload-build` bundle run as the runner
 * does; against reading the file from disk and a plain POST of the raw file to a minimal
 * `node:http` sink.
 *
 * Every client runs in a process of its own (a worker: this script again, with `--worker`), so
 * that its peak resident memory is its own; each kind of client has an emulator of its own (its
 * command line, in another process), and the sink runs in this one. The multipart clients are
 * measured both against the sink (the client alone) and against the emulator (which also parses
 * the multipart body, writes the file to disk and reads the package). Each round runs every
 * client once, in turn.
 *
 * Usage: npm run bench:upload [-- --size-mb 200 --rounds 5]
 */
import { createReadStream, openAsBlob } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  median,
  mib,
  MIB,
  loadAverage,
  ratio,
  ROOT,
  serveRuns,
  startEmulatorProcess,
  startWorker,
  type ListeningProcess,
  type Worker,
} from './support/processes.ts';

const API_KEY = 'demo-api-key';
const EMAIL = 'demo@example.com';
const WORKER_TIMEOUT_MS = 180_000;
const METHODS = ['read', 'raw', 'form-data', 'undici'] as const;
type Method = (typeof METHODS)[number];

const { values } = parseArgs({
  options: {
    'size-mb': { type: 'string', default: '200' },
    rounds: { type: 'string', default: '5' },
    worker: { type: 'string' },
    file: { type: 'string' },
    url: { type: 'string' },
  },
});
const runs = Number(values.rounds);
if (!Number.isInteger(runs) || runs < 1 || runs > 20) throw new Error('--rounds must be 1 to 20');

if (values.worker !== undefined) {
  if (!(METHODS as readonly string[]).includes(values.worker))
    throw new Error(`unknown worker ${values.worker}`);
  await worker(values.worker as Method, values.file!, values.url ?? '');
} else await main();

interface Contender {
  what: string;
  target: string;
  /** One run; resolves with its time in milliseconds. */
  run(): Promise<number>;
  /** The client's resident memory once ready and at its peak. */
  finish(): Promise<{ idleRss: number; peakRss: number }>;
  ms: number[];
  emulator?: ListeningProcess | undefined;
  memory?: {
    idleRss: number;
    peakRss: number;
    emulatorIdleRss?: number | undefined;
    emulatorPeakRss?: number | undefined;
  };
}

// ---------------------------------------------------------------------------------------------
// Workers: one kind of client in a process of its own, one run at each request of the benchmark.

async function worker(method: Method, file: string, url: string): Promise<void> {
  serveRuns(await prepare(method, file, url));
}

/** Loads what the method needs (only that) and returns one run of it. */
async function prepare(method: Method, file: string, url: string): Promise<() => Promise<void>> {
  const size = (await stat(file)).size;
  switch (method) {
    case 'read':
      return async () => {
        let read = 0;
        await pipeline(
          createReadStream(file),
          new Writable({
            write(chunk: Buffer, _encoding, callback) {
              read += chunk.length;
              callback();
            },
          }),
        );
        if (read !== size) throw new Error(`read ${read} of ${size} bytes`);
      };
    case 'raw':
      return async () => {
        const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
          const request = http.request(url, {
            method: 'POST',
            headers: { 'content-type': 'application/octet-stream', 'content-length': size },
          });
          request.once('response', resolve).once('error', reject);
          pipeline(createReadStream(file), request).catch(reject);
        });
        answer.resume();
        if (answer.statusCode !== 200) throw new Error(`raw POST answered ${answer.statusCode}`);
      };
    case 'form-data': {
      const { SauceClient } = await import('@sauce-actions/api');
      const client = new SauceClient({ email: EMAIL, apiKey: API_KEY, apiUrl: url, retry: { retries: 0 } });
      return async () => {
        const result = await client.mobile.upload(file);
        if (result.status !== 'ok') throw new Error(`upload answered ${JSON.stringify(result)}`);
      };
    }
    case 'undici': {
      // undici's fetch: its `request` (8.12) never sends a FormData body, not even one of text fields.
      const { FormData, fetch } = await import('undici');
      return async () => {
        const form = new FormData();
        form.append('api_key', API_KEY);
        form.append('file', await openAsBlob(file), path.basename(file));
        const answer = await fetch(new URL('/api/upload/', url), { method: 'POST', body: form });
        const body = (await answer.json()) as { status?: string };
        if (answer.status !== 200 || body.status !== 'ok')
          throw new Error(`upload answered ${answer.status} ${JSON.stringify(body)}`);
      };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The benchmark: every contender runs once a round, in turn, so that all share the machine's ups
// and downs; rates are the median of the rounds.

async function main(): Promise<void> {
  const sizeMb = Number(values['size-mb']);
  if (!(sizeMb > 0 && sizeMb <= 2048)) throw new Error('--size-mb must be more than 0 and at most 2048');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-upload-'));
  const sink = await startSink();
  const contenders: Contender[] = [];
  const workers: Worker[] = [];
  const emulators: ListeningProcess[] = [];
  try {
    const workspace = path.join(dir, 'workspace');
    await mkdir(workspace);
    const file = path.join(workspace, 'app-release.apk');
    const { createSampleApk } = await import('@sauce-actions/emulator/samples');
    await createSampleApk(file, {
      packageId: 'com.example.large',
      name: 'Large',
      version: '1.0',
      versionCode: 1,
      padding: sizeMb * MIB,
    });
    const size = (await stat(file)).size;
    console.log(
      `sample APK of ${mib(size)}, ${runs} rounds, Node ${process.version}, ${os.cpus().length} cores, load average ${loadAverage()}\n`,
    );

    const add = async (what: string, method: Method, target: string, emulator?: ListeningProcess) => {
      const url = emulator?.url ?? (method === 'read' ? '' : sink.url);
      const child = await startWorker(
        [import.meta.filename, '--worker', method, '--file', file, '--url', url],
        WORKER_TIMEOUT_MS,
      );
      workers.push(child);
      contenders.push({ what, target, run: child.run, finish: child.finish, ms: [], emulator });
    };
    // A fresh emulator for each kind of client, so that its peak memory is that client's.
    const newEmulator = async () => {
      const emulator = await startEmulatorProcess();
      emulators.push(emulator);
      return emulator;
    };
    await add('disk read (reference)', 'read', 'nothing');
    await add('raw file POST (reference)', 'raw', 'node:http sink');
    await add(label('form-data'), 'form-data', 'node:http sink');
    await add(label('undici'), 'undici', 'node:http sink');
    await add(label('form-data'), 'form-data', 'emulator', await newEmulator());
    await add(label('undici'), 'undici', 'emulator', await newEmulator());
    contenders.push(await bundleContender(workspace, await newEmulator()));
    const idleEmulatorRss = new Map(emulators.map((e) => [e, e.memory()?.rss]));

    const framing = new Map<string, string>();
    for (let round = 1; round <= runs; round++) {
      const rates: string[] = [];
      for (const contender of contenders) {
        const ms = await contender.run();
        contender.ms.push(ms);
        rates.push((size / MIB / (ms / 1000)).toFixed(0));
        if (contender.target === 'node:http sink' && !framing.has(contender.what)) {
          const sent = sink.last!;
          framing.set(
            contender.what,
            `${contender.what}: ${sent.bytes - size} bytes besides the file, ` +
              (sent.contentLength ? 'with a Content-Length' : `no Content-Length (${sent.encoding})`),
          );
        }
      }
      console.log(`round ${round}, MiB/s in the order of the table: ${rates.join(', ')}`);
    }
    for (const contender of contenders) {
      const client = await contender.finish();
      const emulator = contender.emulator;
      contender.memory = {
        ...client,
        ...(emulator
          ? { emulatorIdleRss: idleEmulatorRss.get(emulator), emulatorPeakRss: emulator.memory()?.peak }
          : {}),
      };
    }

    console.log(`\n${[...framing.values()].join('\n')}`);
    console.log(
      '\nMiB/s: the median of the rounds (MiB = 1,048,576 bytes); memory: resident (RSS), "idle" once loaded and ready to upload\n',
    );
    console.log(
      '| client | to | MiB/s | slowest to fastest | vs disk read | vs raw POST | client idle RSS | client peak RSS | growth | emulator idle RSS | emulator peak RSS |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|');
    const [read, raw] = contenders as [Contender, Contender];
    for (const row of contenders) {
      const value = rate(size, row);
      const memory = row.memory!;
      console.log(
        `| ${row.what} | ${row.target} | ${value.toFixed(0)} | ${spread(size, row)} | ${ratio(value, rate(size, read))} | ${ratio(value, rate(size, raw))} | ${mib(memory.idleRss)} | ${mib(memory.peakRss)} | ${mib(memory.peakRss - memory.idleRss)} | ${mib(memory.emulatorIdleRss)} | ${mib(memory.emulatorPeakRss)} |`,
      );
    }
    console.log(`\n${conclusion(contenders, size)}`);
    console.log(`\nload average at the end ${loadAverage()}`);
  } finally {
    for (const child of workers) child.kill();
    await Promise.all(emulators.map((emulator) => emulator.stop()));
    await sink.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function label(method: 'form-data' | 'undici'): string {
  return method === 'form-data' ? 'API client (form-data)' : 'undici FormData + openAsBlob';
}

function rate(size: number, row: Pick<Contender, 'ms'>): number {
  return size / MIB / (median(row.ms) / 1000);
}

/** The slowest and fastest runs. */
function spread(size: number, row: Pick<Contender, 'ms'>): string {
  const rates = row.ms.map((ms) => size / MIB / (ms / 1000));
  return `${Math.min(...rates).toFixed(0)} to ${Math.max(...rates).toFixed(0)}`;
}

/**
 * The bundle through the harness, in a child process preloaded with a module that prints its
 * peak memory as it exits. Its idle memory is a run that fails at once on a file that is not
 * there: the bundle loaded and its inputs read, nothing uploaded. Its time includes starting Node
 * and loading the bundle (about a tenth of a second).
 */
async function bundleContender(workspace: string, emulator: ListeningProcess): Promise<Contender> {
  const { runStep } = await import('@sauce-actions/action-harness');
  const preload = pathToFileURL(path.join(import.meta.dirname, 'support', 'max-rss.ts')).href;
  const step = async (file: string) => {
    const result = await runStep({
      actionDir: path.join(ROOT, 'actions', 'upload-build'),
      inputs: { file, 'api-key': API_KEY, 'api-url': emulator.url },
      env: { NODE_OPTIONS: `--import=${preload}` },
      workspace,
      timeoutMs: WORKER_TIMEOUT_MS,
    });
    await result.cleanup();
    const peak = /max-rss-bytes (\d+)/.exec(result.stderr)?.[1];
    if (!peak) throw new Error(`the step printed no peak memory:\n${result.stdout}${result.stderr}`);
    return { result, peak: Number(peak) };
  };
  const idle = await step('not-there-*.apk');
  if (idle.result.success) throw new Error('the step with no file succeeded');
  let peakRss = 0;
  return {
    what: 'upload-build bundle (harness)',
    target: 'emulator',
    ms: [],
    emulator,
    run: async () => {
      const start = performance.now();
      const { result, peak } = await step('*.apk');
      const ms = performance.now() - start;
      if (!result.success || !result.outputs['build-id'])
        throw new Error(`upload-build failed:\n${result.log}`);
      peakRss = Math.max(peakRss, peak);
      return ms;
    },
    finish: async () => ({ idleRss: idle.peak, peakRss }),
  };
}

/** Compares the two multipart clients on rate (median) and memory growth, on both targets. */
function conclusion(rows: Contender[], size: number): string {
  const find = (what: string, target: string) => rows.find((r) => r.what === what && r.target === target)!;
  const growth = (row: Contender) => (row.memory!.peakRss - row.memory!.idleRss) / MIB;
  const [a, b] = [label('form-data'), label('undici')];
  const verdicts: Verdict[] = [];
  const lines: string[] = [];
  for (const target of ['node:http sink', 'emulator']) {
    const [rowA, rowB] = [find(a, target), find(b, target)];
    const speed = compare(rate(size, rowA), rate(size, rowB), 'MiB/s', true);
    const memory = compare(growth(rowA), growth(rowB), 'MiB of growth', false);
    verdicts.push(speed, memory);
    lines.push(`  to the ${target}: rate ${speed.text}; memory ${memory.text}`);
  }
  const wins = (winner: Verdict['winner']) => verdicts.filter((v) => v.winner === winner).length;
  const [formData, undici] = [wins('form-data'), wins('undici FormData')];
  const overall =
    formData > undici
      ? 'form-data (the API client) measures better'
      : undici > formData
        ? 'undici FormData measures better'
        : 'neither measures better overall';
  return `form-data (the API client) against undici FormData + openAsBlob:\n${lines.join('\n')}\n${overall} (${formData} of ${verdicts.length} comparisons to form-data, ${undici} to undici FormData, the rest on par)`;
}

interface Verdict {
  winner: 'form-data' | 'undici FormData' | 'neither';
  text: string;
}

/** Which is better, or "on par" within 10 % (and within 8 MiB for memory). */
function compare(formData: number, undici: number, unit: string, higherIsBetter: boolean): Verdict {
  const figures = `${formData.toFixed(0)} against ${undici.toFixed(0)} ${unit}`;
  const difference = Math.abs(formData - undici);
  if (difference / Math.max(formData, undici, 1e-9) < 0.1 || (!higherIsBetter && difference < 8))
    return { winner: 'neither', text: `on par (${figures})` };
  const winner = (higherIsBetter ? formData > undici : formData < undici) ? 'form-data' : 'undici FormData';
  return { winner, text: `${winner} better (${figures})` };
}

// ---------------------------------------------------------------------------------------------
// The sink: reads each request to its end and answers as the upload interface would.

interface Sink {
  url: string;
  last?: { bytes: number; contentLength: boolean; encoding: string };
  close(): Promise<void>;
}

async function startSink(): Promise<Sink> {
  const sink: Sink = { url: '', close: async () => {} };
  const server = http.createServer((request, response) => {
    let bytes = 0;
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      sink.last = {
        bytes,
        contentLength: request.headers['content-length'] !== undefined,
        encoding: request.headers['transfer-encoding'] ?? 'none',
      };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: 'ok', file_size: bytes }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  sink.url = `http://127.0.0.1:${port}`;
  sink.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return sink;
}
