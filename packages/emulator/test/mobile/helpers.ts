/** Starting an emulator for mobile tests and talking to it over HTTP. */
import { createReadStream, openAsBlob } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, defaultSeed, type Seed } from '../../src/index.ts';
import type { EmulatorOptions, RunningEmulator } from '../../src/index.ts';
import type { MobileSeed } from '../../src/mobile/seed.ts';
import { createSampleApk, createSampleIpa, type SampleIpa } from '../../src/mobile/samples.ts';

export const EMAIL = 'demo@example.com';
export const API_KEY = 'demo-api-key';
export const BASIC = `Basic ${Buffer.from(`${EMAIL}:${API_KEY}`).toString('base64')}`;
export const OIDC = { authorization: 'Bearer demo-oidc-token', 'x-oidc-config-key': 'demo-oidc-config' };

export function basic(email: string, key: string): string {
  return `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;
}

export interface Harness {
  emulator: RunningEmulator;
  url: string;
  dir: string;
  close(): Promise<void>;
}

/**
 * An emulator on a free port whose mobile records are the default seed's with `mobile` over them,
 * started with `options` (a clock, a job duration), and a folder for the test's files.
 */
export async function start(
  mobile?: Partial<MobileSeed>,
  options: Omit<EmulatorOptions, 'seed'> = {},
): Promise<Harness> {
  const base = defaultSeed();
  const seed: Seed = { ...base, mobile: { ...base.mobile, ...mobile } };
  const emulator = await startEmulator({ port: 0, ...options, seed });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mobile-test-'));
  return {
    emulator,
    url: emulator.url,
    dir,
    close: async () => {
      await emulator.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  body: Record<string, unknown> & { status?: string; code?: number; message?: string };
}

export async function call(
  h: Harness,
  method: string,
  urlPath: string,
  options: {
    form?: Record<string, string>;
    json?: unknown;
    auth?: string | null;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth !== null && !headers.authorization) headers.authorization = options.auth ?? BASIC;
  let body: string | undefined;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(`${h.url}${urlPath}`, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Answer['body']) : {} };
}

export async function upload(
  h: Harness,
  file: string | undefined,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
  extraFiles: Record<string, string> = {},
): Promise<Answer> {
  const form = new FormData();
  for (const [name, value] of Object.entries({ api_key: API_KEY, ...fields })) {
    if (value !== '') form.append(name, value);
  }
  if (file) form.append('file', await openAsBlob(file), path.basename(file));
  for (const [name, extra] of Object.entries(extraFiles))
    form.append(name, await openAsBlob(extra), path.basename(extra));
  const response = await fetch(`${h.url}/api/upload/`, { method: 'POST', body: form, headers });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

let counter = 0;

export async function sampleApk(
  h: Harness,
  packageId = 'com.example.demo',
  version = '1.0.0',
  versionCode = 1,
): Promise<string> {
  const file = path.join(h.dir, `sample-${++counter}.apk`);
  await createSampleApk(file, { packageId, name: 'Demo App', version, versionCode });
  return file;
}

export async function sampleIpa(h: Harness, sample: Partial<SampleIpa> = {}): Promise<string> {
  const file = path.join(h.dir, `sample-${++counter}.ipa`);
  await createSampleIpa(file, {
    packageId: 'com.example.demo',
    name: 'Demo App',
    version: '1.0.0',
    versionCode: 1,
    ...sample,
  });
  return file;
}

/** Uploads a sample APK and answers its project and build ids. */
export async function uploadApk(
  h: Harness,
  packageId = 'com.example.demo',
  version = '1.0.0',
  fields: Record<string, string> = {},
): Promise<{ projectId: number; buildId: number }> {
  const answer = await upload(h, await sampleApk(h, packageId, version), fields);
  if (answer.body.status !== 'ok') throw new Error(`upload failed: ${JSON.stringify(answer.body)}`);
  return { projectId: answer.body.project_id as number, buildId: answer.body.build_id as number };
}

/**
 * Uploads through node:http with the file piped from disk. The global fetch buffers a FormData
 * body whole, which would hide whether the emulator streams.
 */
export async function streamUpload(
  h: Pick<Harness, 'url'>,
  file: string,
  fields: Record<string, string> = {},
): Promise<Answer> {
  const boundary = `----mobile-test-${Date.now()}`;
  const head = Object.entries({ api_key: API_KEY, ...fields })
    .map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('');
  const preamble = Buffer.from(
    `${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const epilogue = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = preamble.length + (await stat(file)).size + epilogue.length;
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${h.url}/api/upload/`,
      {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': length },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          }),
        );
      },
    );
    request.on('error', reject);
    request.write(preamble);
    const source = createReadStream(file);
    source.on('error', reject);
    source.on('end', () => request.end(epilogue));
    source.pipe(request, { end: false });
  });
}
