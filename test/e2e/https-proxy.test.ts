/**
 * Every action's bundle and the command line, as a self-hosted runner behind a proxy runs them:
 * the emulator serves https with a certificate made here (trusted through NODE_EXTRA_CA_CERTS),
 * and `HTTPS_PROXY` names a real CONNECT proxy, with and without credentials in its address;
 * `NO_PROXY` sends the requests around it. The proxy counts the tunnels it was asked for. A proxy
 * that wants credentials and gets none, or wrong ones, is named with its variable, and the
 * request is not sent again.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runStep, type StepResult } from '@sauce-actions/action-harness';
import { SauceClient } from '@sauce-actions/api';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
// The sample writers are not among the emulator's package exports.
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { createProxy, type ProxyServer } from 'proxy';
import { generate } from 'selfsigned';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from './support/cli.ts';
import { errorsOf, MOBILE, ROOT, SAUCE, type ActionName } from './support/lab.ts';

const MOBILE_CLIENT = { apiKey: MOBILE['api-key'], email: MOBILE.email };
const PROXY_USER = 'runner';
const PROXY_PASSWORD = 'proxy-secret-pw';

/** The cheapest operation of each action that talks to the service. */
const STEPS: Record<ActionName, { inputs: Record<string, string>; outputs: Record<string, RegExp> }> = {
  'manage-tunnel': {
    inputs: { ...SAUCE, operation: 'list' },
    outputs: { tunnels: /demo-tunnel/ },
  },
  'invite-testers': {
    // The build is uploaded before the steps run (project and build 1 of the mobile store).
    inputs: { ...MOBILE, 'project-id': '1', 'build-id': '1', groups: 'qa' },
    outputs: { 'invited-groups': /^qa$/ },
  },
  'upload-build': {
    inputs: { 'api-key': MOBILE['api-key'], file: 'app.apk' },
    outputs: { 'build-id': /^\d+$/, 'app-version': /^1\.0\.0$/ },
  },
  'run-suite-and-wait': {
    inputs: { ...SAUCE, suite: 'Smoke', 'poll-interval': '1s', 'fail-on-failure': 'false' },
    outputs: { total: /^3$/ },
  },
  'run-js-tests': {
    inputs: {
      ...SAUCE,
      url: 'https://example.com/tests.html',
      framework: 'custom',
      platforms: 'Linux / firefox / 126',
      'poll-interval': '1s',
    },
    outputs: { passed: /^1$/ },
  },
};
const ACTIONS = Object.keys(STEPS) as ActionName[];

let workspace: string;
let caFile: string;
let emulator: RunningEmulator;
let proxy: ProxyServer;
let proxyPort: number;
/** Whether the proxy asks for `PROXY_USER`'s credentials (407 without them). */
let proxyWantsCredentials = false;
/** The CONNECT requests the proxy received since the last `tunnels()`, with what they carried. */
let connects: { target: string; authorization: string | undefined }[] = [];
const steps: StepResult[] = [];

beforeAll(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'e2e-https-proxy-'));
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  caFile = path.join(workspace, 'emulator-ca.pem');
  await writeFile(caFile, pems.cert);
  emulator = await startEmulator({
    port: 0,
    jobDurationMs: 300,
    tls: { key: pems.private, cert: pems.cert },
  });
  await createSampleApk(path.join(workspace, 'app.apk'), {
    packageId: 'com.example.proxied',
    name: 'Proxied Shop',
    version: '1.0.0',
    versionCode: 1,
  });
  // The build invite-testers invites to, uploaded directly (this process trusts the certificate here).
  const dispatcher = new Agent({ connect: { ca: pems.cert } });
  const client = new SauceClient({ apiUrl: emulator.url, ...MOBILE_CLIENT, dispatcher });
  const uploaded = await client.mobile.upload(path.join(workspace, 'app.apk'));
  expect([uploaded.project_id, uploaded.build_id].map(String)).toEqual(['1', '1']);
  await client.close();
  await dispatcher.close();

  proxy = createProxy(createServer());
  const expected = `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64')}`;
  proxy.authenticate = (request: IncomingMessage) =>
    !proxyWantsCredentials || request.headers['proxy-authorization'] === expected;
  proxy.on('connect', (request: IncomingMessage) => {
    connects.push({ target: request.url ?? '', authorization: request.headers['proxy-authorization'] });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyPort = (proxy.address() as AddressInfo).port;
});

afterAll(async () => {
  await Promise.all(steps.splice(0).map((step) => step.cleanup()));
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  await emulator?.close();
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

/** The tunnels asked for since the last call, and forgets them. */
function tunnels(): typeof connects {
  const seen = connects;
  connects = [];
  return seen;
}

function proxyUrl(credentials?: string): string {
  return `http://${credentials ? `${credentials}@` : ''}127.0.0.1:${proxyPort}`;
}

function emulatorHost(): string {
  return new URL(emulator.url).host;
}

async function step(action: ActionName, env: Record<string, string>): Promise<StepResult> {
  const result = await runStep({
    actionDir: path.join(ROOT, 'actions', action),
    inputs: { 'api-url': emulator.url, ...STEPS[action].inputs },
    env: { NODE_EXTRA_CA_CERTS: caFile, ...env },
    workspace,
  });
  steps.push(result);
  expect(result.unmaskedLog, 'the proxy password leaked').not.toContain(PROXY_PASSWORD);
  return result;
}

function cli(env: Record<string, string>): Promise<CliRun> {
  return runCli(
    ['manage-tunnel', '--operation', 'list', '--api-url', emulator.url, '--username', SAUCE.username],
    { cwd: workspace, env: { SAUCE_ACCESS_KEY: SAUCE['access-key'], NODE_EXTRA_CA_CERTS: caFile, ...env } },
  );
}

/** How a step is sent: through the proxy, with or without credentials, or around it. */
const MODES = [
  {
    mode: 'through the proxy',
    credentials: false,
    env: () => ({ HTTPS_PROXY: proxyUrl() }),
    tunnelled: true,
  },
  {
    mode: 'through the proxy with credentials',
    credentials: true,
    env: () => ({ HTTPS_PROXY: proxyUrl(`${PROXY_USER}:${PROXY_PASSWORD}`) }),
    tunnelled: true,
  },
  {
    mode: 'around the proxy (NO_PROXY)',
    credentials: true,
    env: () => ({ HTTPS_PROXY: proxyUrl(), NO_PROXY: 'localhost,127.0.0.1' }),
    tunnelled: false,
  },
];

describe.each(MODES)('https requests $mode', ({ credentials, env, tunnelled }) => {
  it.each(ACTIONS)('%s does its work', async (action) => {
    proxyWantsCredentials = credentials;
    tunnels();
    const result = await step(action, env());
    expect(result.exitCode, result.log).toBe(0);
    for (const [name, pattern] of Object.entries(STEPS[action].outputs)) {
      expect(result.outputs[name], name).toMatch(pattern);
    }
    const seen = tunnels();
    if (!tunnelled) {
      expect(seen).toEqual([]);
      return;
    }
    expect(seen.length).toBeGreaterThan(0);
    for (const tunnel of seen) {
      expect(tunnel.target).toBe(emulatorHost());
      if (credentials) expect(tunnel.authorization).toMatch(/^Basic /);
      else expect(tunnel.authorization).toBeUndefined();
    }
  });

  it('the command line does its work', async () => {
    proxyWantsCredentials = credentials;
    tunnels();
    const run = await cli(env());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('demo-tunnel');
    expect(run.stderr).not.toContain(PROXY_PASSWORD);
    const seen = tunnels();
    expect(seen.map((tunnel) => tunnel.target)).toEqual(tunnelled ? [emulatorHost()] : []);
  });
});

describe('a proxy that wants credentials', () => {
  it.each([
    ['upload-build', 'none', undefined],
    ['upload-build', 'wrong ones', `${PROXY_USER}:wrong-password`],
    ['run-suite-and-wait', 'none', undefined],
    ['manage-tunnel', 'wrong ones', `${PROXY_USER}:wrong-password`],
  ] as const)('fails %s given %s: names the proxy and HTTPS_PROXY, once', async (action, _given, given) => {
    proxyWantsCredentials = true;
    tunnels();
    const result = await step(action, { HTTPS_PROXY: proxyUrl(given) });
    expect(result.exitCode).toBe(1);
    const failure = errorsOf(result)[0] ?? '';
    expect(failure).toContain(`the proxy http://127.0.0.1:${proxyPort} (from HTTPS_PROXY)`);
    expect(failure).toContain('407 Proxy Authentication Required');
    expect(failure).toContain(
      given ? 'did not accept the user name and password' : 'carries no user name and password',
    );
    expect(failure).not.toMatch(/may have|stored|status\.saucelabs\.com|Cancelled/);
    expect(result.summary).toContain('network trouble');
    // One request, refused once: never sent again, and nothing reached the service.
    expect(tunnels()).toHaveLength(1);
  });

  it('the command line names the proxy too, with exit code 1', async () => {
    proxyWantsCredentials = true;
    tunnels();
    const run = await cli({ HTTPS_PROXY: proxyUrl() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the proxy http://127.0.0.1:${proxyPort} (from HTTPS_PROXY)`);
    expect(tunnels()).toHaveLength(1);
  });
});
