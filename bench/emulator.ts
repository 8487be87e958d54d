/**
 * Throughput of the emulator: small authenticated requests of each interface, a fixed number of
 * them over a few connections (autocannon), against a minimal `node:http` server answering the
 * same bytes (the emulator's own answers, captured first); then its upload rate, a package sent
 * with the API client, against reading the file from disk.
 *
 * The emulator (its command line) and the reference server (this script with `--reference`) each
 * run in a process of their own; the load comes from this one.
 *
 * Usage: npm run bench:emulator [-- --requests 30000 --rounds 3 --connections 10 --upload-mb 100]
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { SauceClient } from '@sauce-actions/api';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import {
  loadAverage,
  median,
  mib,
  MIB,
  ratio,
  startEmulatorProcess,
  startListening,
  type ListeningProcess,
} from './support/processes.ts';

const basic = (user: string, secret: string) =>
  `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
const AUTOMATION = basic('demo', 'demo-access-key');
const MOBILE = basic('demo@example.com', 'demo-api-key');
const ENDPOINTS = [
  { name: 'automation jobs', path: '/rest/v1/demo/jobs?limit=10', authorization: AUTOMATION },
  { name: 'AI authoring suites', path: '/v1/ai-authoring/testsuites', authorization: AUTOMATION },
  { name: 'mobile projects', path: '/api/2/projects/', authorization: MOBILE },
];
const WARM_UP_REQUESTS = 2000;
const LOAD_TIMEOUT_MS = 120_000;

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '30000' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    'upload-mb': { type: 'string', default: '100' },
    'upload-runs': { type: 'string', default: '3' },
    reference: { type: 'string' },
  },
});

if (values.reference !== undefined) await serveReference(values.reference);
else await main();

async function main(): Promise<void> {
  const requests = bounded('requests', 1, 1_000_000);
  const rounds = bounded('rounds', 1, 10);
  const connections = bounded('connections', 1, 100);
  const uploadMb = bounded('upload-mb', 1, 2048);
  const uploadRuns = bounded('upload-runs', 1, 10);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-emulator-'));
  let emulator: ListeningProcess | undefined;
  let reference: ListeningProcess | undefined;
  try {
    emulator = await startEmulatorProcess();
    // The reference answers each path with the emulator's own answer: the same bytes, no work.
    const bodies: Record<string, string> = {};
    for (const endpoint of ENDPOINTS) {
      const answer = await fetch(emulator.url + endpoint.path, {
        headers: { authorization: endpoint.authorization },
      });
      if (answer.status !== 200) throw new Error(`${endpoint.path} answered ${answer.status}`);
      bodies[endpoint.path] = await answer.text();
    }
    const bodiesFile = path.join(dir, 'bodies.json');
    await writeFile(bodiesFile, JSON.stringify(bodies));
    reference = await startListening(
      [import.meta.filename, '--reference', bodiesFile],
      /reference listening on (http:\/\/\S+)/,
    );

    console.log(
      `${requests} requests a round, ${rounds} rounds, ${connections} connections, after ${WARM_UP_REQUESTS} to warm up; Node ${process.version}, ${os.cpus().length} cores, load average ${loadAverage()}\n`,
    );
    console.log(
      '| request | answer | emulator req/s | reference req/s | ratio | emulator p50 / p99 latency | reference p50 / p99 latency | load generator CPU (emulator / reference) |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const endpoint of ENDPOINTS) {
      const target = { path: endpoint.path, authorization: endpoint.authorization, connections };
      // Both warmed up, then rounds taking turns, so that both share the machine's ups and downs.
      const servers = [emulator, reference];
      for (const server of servers) await load({ ...target, url: server.url, amount: WARM_UP_REQUESTS });
      const results: LoadResult[][] = servers.map(() => []);
      for (let round = 0; round < rounds; round++)
        for (const [index, server] of servers.entries())
          results[index]!.push(await load({ ...target, url: server.url, amount: requests }));
      const figures = results.map((runs) => ({
        perSecond: median(runs.map((r) => r.perSecond)),
        p50: median(runs.map((r) => r.p50)),
        p99: median(runs.map((r) => r.p99)),
        cpu: median(runs.map((r) => r.cpu)),
      }));
      const [onEmulator, onReference] = figures as [(typeof figures)[0], (typeof figures)[0]];
      console.log(
        `| GET ${endpoint.path} (${endpoint.name}) | ${bodies[endpoint.path]!.length} B | ${onEmulator.perSecond.toFixed(0)} | ${onReference.perSecond.toFixed(0)} | ${ratio(onEmulator.perSecond, onReference.perSecond)} | ${onEmulator.p50} / ${onEmulator.p99} ms | ${onReference.p50} / ${onReference.p99} ms | ${percent(onEmulator.cpu)} / ${percent(onReference.cpu)} |`,
      );
    }
    const memory = emulator.memory();
    console.log(`\nemulator resident memory after the load: ${mib(memory?.rss)}, peak ${mib(memory?.peak)}`);

    await measureUpload(emulator, dir, uploadMb, uploadRuns);
    console.log(`\nload average at the end ${loadAverage()}`);
  } finally {
    await reference?.stop();
    await emulator?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function percent(share: number): string {
  return `${(share * 100).toFixed(0)} %`;
}

function bounded(name: keyof typeof values, min: number, max: number): number {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`--${name} must be a whole number from ${min} to ${max}`);
  return value;
}

interface Load {
  url: string;
  path: string;
  authorization: string;
  connections: number;
  amount: number;
}

/** A fixed number of GETs; fails on any error or answer other than 2xx, and stops after a time limit. */
interface LoadResult {
  perSecond: number;
  p50: number;
  p99: number;
  cpu: number;
}

function load(options: Load): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const cpuAtStart = process.cpuUsage();
    const instance = autocannon(
      {
        url: options.url + options.path,
        headers: { authorization: options.authorization },
        connections: options.connections,
        amount: options.amount,
        timeout: 10,
        // autocannon notices the last answer at its next sample: sampling often keeps the time exact.
        sampleInt: 10,
      },
      (error: Error | null, result: autocannon.Result) => {
        clearTimeout(timer);
        const seconds = (performance.now() - start) / 1000;
        const { user, system } = process.cpuUsage(cpuAtStart);
        if (error) return reject(error);
        const failed = result.errors + result.timeouts + result.non2xx;
        if (failed > 0 || result.requests.total < options.amount)
          return reject(
            new Error(
              `${options.path}: ${result.requests.total} of ${options.amount} requests, ${result.non2xx} not 2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
            ),
          );
        resolve({
          perSecond: result.requests.total / seconds,
          p50: result.latency.p50,
          p99: result.latency.p99,
          // The load generator's share of one core: near 1, it, not the server, may be the limit.
          cpu: (user + system) / 1e6 / seconds,
        });
      },
    );
    const timer = setTimeout(() => instance.stop(), LOAD_TIMEOUT_MS);
  });
}

/** A package sent with the API client, a few times, against reading it from disk. */
async function measureUpload(
  emulator: ListeningProcess,
  dir: string,
  sizeMb: number,
  runs: number,
): Promise<void> {
  const file = path.join(dir, 'app-release.apk');
  await createSampleApk(file, {
    packageId: 'com.example.large',
    name: 'Large',
    version: '1.0',
    versionCode: 1,
    padding: sizeMb * MIB,
  });
  const size = (await stat(file)).size;
  const client = new SauceClient({
    email: 'demo@example.com',
    apiKey: 'demo-api-key',
    apiUrl: emulator.url,
    retry: { retries: 0 },
  });
  const read = () => pipeline(createReadStream(file), new Writable({ write: (_c, _e, done) => done() }));
  const upload = async () => {
    const result = await client.mobile.upload(file);
    if (result.file_size !== size)
      throw new Error(`the emulator stored ${result.file_size} of ${size} bytes`);
  };
  // Reading and uploading take turns, so that both share the machine's ups and downs.
  const ms: [number[], number[]] = [[], []];
  try {
    for (let i = 0; i < runs; i++) {
      for (const [index, fn] of [read, upload].entries()) {
        const start = performance.now();
        await fn();
        ms[index]!.push(performance.now() - start);
      }
    }
    const [readRate, uploadRate] = ms.map((times) => size / MIB / (median(times) / 1000)) as [number, number];
    const memory = emulator.memory();
    console.log(
      `\nupload of a ${mib(size)} APK with the API client, median of ${runs}: ${uploadRate.toFixed(0)} MiB/s, ` +
        `${ratio(uploadRate, readRate)} of reading it from disk (${readRate.toFixed(0)} MiB/s); emulator peak memory ${mib(memory?.peak)}`,
    );
  } finally {
    await client.close();
  }
}

/** The reference: a `node:http` server answering each known path with its bytes, and 401 without credentials. */
async function serveReference(bodiesFile: string): Promise<void> {
  const bodies = new Map(
    Object.entries(JSON.parse(await readFile(bodiesFile, 'utf8')) as Record<string, string>).map(
      ([key, body]) => [key, Buffer.from(body)] as const,
    ),
  );
  const server = http.createServer((request, response) => {
    const body = bodies.get(request.url ?? '');
    const status = !request.headers.authorization ? 401 : body ? 200 : 404;
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(status === 200 ? body : '{"message":"no"}');
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    console.log(`reference listening on http://127.0.0.1:${port}`);
  });
  const close = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
}
