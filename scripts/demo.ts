/**
 * `npm run demo`: the pipelines a workflow would run, offline. It starts the emulator on a free
 * port, writes a sample APK, then runs the committed bundles exactly as the runner does:
 * upload-build and invite-testers (passing the first step's outputs to the second), one upload
 * meant to fail (a key of another data center) to show its message, manage-tunnel waiting for the
 * seed's tunnel, run-suite-and-wait on the `Smoke` suite on that tunnel (its `Checkout fails` case
 * fails, as designed), run-js-tests on two platforms, and last the command line (`dist/cli.js`)
 * uploading the APK as another CI system would run it.
 * Exits 0 when every step behaved as designed. The step summaries are kept for reading.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runStep, type StepResult } from '@sauce-actions/action-harness';
import { startEmulator } from '@sauce-actions/emulator';
import { createSampleApk } from '@sauce-actions/emulator/samples';

const ROOT = path.resolve(import.meta.dirname, '..');
/** The command line's bundle: the committed one, or another build's (SAUCE_ACTIONS_DIST=DIR). */
const CLI = path.join(
  process.env.SAUCE_ACTIONS_DIST ? path.resolve(process.env.SAUCE_ACTIONS_DIST) : path.join(ROOT, 'dist'),
  'cli.js',
);
const API_KEY = 'demo-api-key';
const EMAIL = 'demo@example.com';
// Automation and AI authoring credentials, from the environment as a workflow's `env:` gives them.
const SAUCE_ENV = { SAUCE_USERNAME: 'demo', SAUCE_ACCESS_KEY: 'demo-access-key' };

interface Outcome {
  title: string;
  ok: boolean;
  /** The step summary's file. */
  summary: string;
  note: string;
}

const demoDir = await mkdtemp(path.join(os.tmpdir(), 'sauce-actions-demo-'));
const workspace = path.join(demoDir, 'workspace');
await mkdir(workspace, { recursive: true });
const emulator = await startEmulator({ port: 0, jobDurationMs: 2000 });
const outcomes: Outcome[] = [];
console.log(`Emulator listening on ${emulator.url}\n`);

try {
  const apk = path.join(workspace, 'app-release.apk');
  await createSampleApk(apk, {
    packageId: 'com.example.shop',
    name: 'Demo Shop',
    version: '2.3.0',
    versionCode: 230,
  });
  console.log(`Wrote a sample APK: ${apk}\n`);

  const upload = await step('1. upload-build', 'upload-build', {
    file: '*.apk',
    'api-key': API_KEY,
    groups: 'qa',
    tags: 'demo, nightly',
    'release-notes': 'Faster checkout and a new basket page.',
    metadata: 'commit=0123abc\nbranch=main',
  });
  const uploaded =
    upload.exitCode === 0 && upload.outputs['build-id'] !== '' && upload.outputs['app-version'] === '2.3.0';
  outcomes.push({
    title: 'upload-build',
    ok: uploaded,
    summary: upload.files.summary,
    note: `build ${upload.outputs['build-id'] ?? '?'}`,
  });

  if (uploaded) {
    const invite = await step(
      '2. invite-testers, with the outputs of step 1',
      'invite-testers',
      {
        'project-id': upload.outputs['project-id'] ?? '',
        'build-id': upload.outputs['build-id'] ?? '',
        email: EMAIL,
        groups: 'qa',
        testers: 'dave@example.com\nerin@example.com',
        'tester-group': 'demo-testers',
        comment: 'Please try the new basket page',
      },
      // The key from the environment, as a workflow's `env:` would give it.
      { SAUCE_APPDIST_API_KEY: API_KEY },
    );
    outcomes.push({
      title: 'invite-testers',
      ok: invite.exitCode === 0 && invite.outputs['invited-groups'] === 'qa,demo-testers',
      summary: invite.files.summary,
      note: `invited ${invite.outputs['invited-groups'] || 'none'}`,
    });
  }

  const wrongKey = await step(
    '3. upload-build with a key of another data center (meant to fail)',
    'upload-build',
    {
      file: 'app-release.apk',
      'api-key': 'key-from-eu-central-1',
    },
  );
  const error = wrongKey.annotations.find((a) => a.level === 'error')?.message ?? '';
  outcomes.push({
    title: 'upload-build, wrong key',
    ok: wrongKey.exitCode === 1 && error.includes('(code 5)'),
    summary: wrongKey.files.summary,
    note: 'failed with exit code 1, as designed',
  });

  const tunnel = await step(
    '4. manage-tunnel: wait until the tunnel demo-tunnel is running',
    'manage-tunnel',
    { operation: 'wait', 'tunnel-name': 'demo-tunnel', 'stop-on-exit': 'false', timeout: '30s' },
    SAUCE_ENV,
  );
  outcomes.push({
    title: 'manage-tunnel wait',
    ok: tunnel.exitCode === 0 && (tunnel.outputs['tunnel-id'] ?? '') !== '',
    summary: tunnel.files.summary,
    note: `tunnel ${tunnel.outputs['tunnel-id'] || '?'}`,
  });

  const suite = await step(
    '5. run-suite-and-wait: the Smoke suite through demo-tunnel (its case "Checkout fails" fails, as designed)',
    'run-suite-and-wait',
    {
      suite: 'Smoke',
      'tunnel-name': 'demo-tunnel',
      'poll-interval': '1s',
      timeout: '2m',
      'junit-file': 'reports/smoke.xml',
    },
    SAUCE_ENV,
  );
  const failedCase = suite.annotations.find(
    (a) => a.level === 'error' && a.message.includes('Checkout fails'),
  );
  outcomes.push({
    title: 'run-suite-and-wait Smoke',
    ok:
      suite.exitCode === 1 &&
      suite.outputs.total === '3' &&
      suite.outputs.passed === '2' &&
      suite.outputs.failed === '1' &&
      failedCase !== undefined,
    summary: suite.files.summary,
    note: `${suite.outputs.passed ?? '?'} of ${suite.outputs.total ?? '?'} jobs passed; "Checkout fails" failed as designed`,
  });

  const js = await step(
    '6. run-js-tests: a QUnit page on two platforms',
    'run-js-tests',
    {
      url: 'https://example.com/tests/qunit.html',
      framework: 'qunit',
      platforms: 'Windows 11 / chrome / latest\nmacOS 14 / safari / 17',
      build: 'demo-js',
      'poll-interval': '1s',
      timeout: '2m',
    },
    SAUCE_ENV,
  );
  outcomes.push({
    title: 'run-js-tests',
    ok: js.exitCode === 0 && js.outputs.total === '2' && js.outputs.passed === '2',
    summary: js.files.summary,
    note: `${js.outputs.passed ?? '?'} of ${js.outputs.total ?? '?'} platforms passed`,
  });

  // The same upload from the command line, as GitLab CI, Jenkins or CircleCI would run it.
  const cliSummary = path.join(demoDir, 'cli-upload-build.md');
  const cli = await command(
    '7. the command line: sauce-actions upload-build --json',
    ['upload-build', '--file', 'app-release.apk', '--email', EMAIL, '--api-url', emulator.url, '--json'],
    ['--summary', cliSummary],
    { SAUCE_APPDIST_API_KEY: API_KEY },
  );
  const cliOutputs = cli.code === 0 ? (JSON.parse(cli.stdout) as Record<string, unknown>) : {};
  outcomes.push({
    title: 'sauce-actions upload-build',
    ok: cli.code === 0 && typeof cliOutputs['build-id'] === 'string' && cliOutputs['app-version'] === '2.3.0',
    summary: cliSummary,
    note: `build ${String(cliOutputs['build-id'] ?? '?')}, outputs as JSON`,
  });
} finally {
  await emulator.close();
}

console.log('Digest');
for (const { title, ok, summary, note } of outcomes) {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${title}: ${note}`);
  console.log(`       summary: ${summary}`);
}
const allOk = outcomes.length === 7 && outcomes.every((o) => o.ok);
console.log(`\n${allOk ? 'The pipeline behaved as designed.' : 'The pipeline did NOT behave as designed.'}`);
console.log(`Workspace and runner files are kept in ${demoDir}`);
process.exitCode = allOk ? 0 : 1;

async function step(
  title: string,
  action: string,
  inputs: Record<string, string>,
  env: Record<string, string> = {},
): Promise<StepResult> {
  console.log(`== ${title}`);
  const result = await runStep({
    actionDir: path.join(ROOT, 'actions', action),
    inputs: { 'api-url': emulator.url, ...inputs },
    env,
    workspace,
    tempDir: demoDir,
    timeoutMs: 60_000,
  });
  // What the runner's log shows by default: masked, without debug lines.
  for (const line of result.log.split('\n')) {
    if (line.trim() !== '' && !line.startsWith('::debug::')) console.log(`   | ${line}`);
  }
  console.log(`   exit code ${result.exitCode}`);
  for (const [name, value] of Object.entries(result.outputs)) console.log(`   output ${name} = ${value}`);
  console.log('');
  return result;
}

/** Runs the built command line in the workspace and shows what it printed on each stream. */
async function command(
  title: string,
  args: readonly string[],
  extra: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string }> {
  console.log(`== ${title}`);
  console.log(`   $ sauce-actions ${args.join(' ')}`);
  const child = spawn(process.execPath, [CLI, ...args, ...extra], {
    cwd: workspace,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  for (const line of stderr.split('\n')) if (line.trim() !== '') console.log(`   2> ${line}`);
  for (const line of stdout.split('\n')) if (line.trim() !== '') console.log(`   1> ${line}`);
  console.log(`   exit code ${code}\n`);
  return { code, stdout };
}
