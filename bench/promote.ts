/**
 * What a staged rollout costs the account, in requests and time: a build through `qa`, `beta`
 * and `public` with an hourly promote-build step (the emulator's clock moved an hour a step, the
 * build's sessions growing), against the script a release engineer writes instead, which reads
 * the build and the feedbacks and, when the gate passes, sets the build's groups and invites the
 * ring, with no record, no claim and no check of what another run did.
 *
 * Usage: npm run bench:promote -- [--hours 72] [--other-builds 200] [--json]
 *
 * `--other-builds` are builds of the same project uploaded before: `build-id: latest` lists them
 * all in one request, and nothing else grows with them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createClient, InputReader, inputSource } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import { defaultSeed, startEmulator } from '@sauce-actions/emulator';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { readInputs } from '../actions/promote-build/src/inputs.ts';
import { run } from '../actions/promote-build/src/run.ts';
import { loadAverage, markdownTable } from './support/processes.ts';

const { values } = parseArgs({
  options: {
    hours: { type: 'string', default: '72' },
    'other-builds': { type: 'string', default: '200' },
    json: { type: 'boolean', default: false },
  },
});
const hours = Number(values.hours);
const otherBuilds = Number(values['other-builds']);
if (!Number.isInteger(hours) || hours < 1)
  throw new Error(`--hours must be a whole number from 1, got "${values.hours}"`);
if (!Number.isInteger(otherBuilds) || otherBuilds < 0) {
  throw new Error(`--other-builds must be a whole number from 0, got "${values['other-builds']}"`);
}

const HOUR = 3_600_000;
const RINGS = ['qa', 'beta', 'public'];
const GATE = { soakHours: 24, minSessions: 20, maxCrashes: 0 };
const AUTH = { 'api-key': 'demo-api-key', email: 'demo@example.com' };
const loadAtStart = loadAverage();

let offsetMs = 0;
const seed = defaultSeed();
seed.mobile.groups = RINGS.map((name) => ({ name }));
seed.mobile.testers = RINGS.map((group, at) => ({ email: `tester${at}@example.com`, groups: [group] }));
const emulator = await startEmulator({ port: 0, seed, clock: () => Date.now() + offsetMs });
const folder = await mkdtemp(path.join(os.tmpdir(), 'bench-promote-'));
const basic = `Basic ${Buffer.from(`${AUTH.email}:${AUTH['api-key']}`).toString('base64')}`;

/** The requests the emulator journaled since `from`, by write or read. */
async function journal(): Promise<{ method: string; path: string }[]> {
  const answer = await fetch(`${emulator.url}/_emulator/requests`);
  return ((await answer.json()) as { requests: { method: string; path: string }[] }).requests.filter(
    (entry) => !entry.path.startsWith('/_emulator'),
  );
}

async function upload(version: number, tags: string[]): Promise<{ projectId: string; buildId: string }> {
  const file = path.join(folder, `app-${version}.apk`);
  await createSampleApk(file, {
    packageId: 'com.example.bench',
    name: 'Bench',
    version: `1.${version}`,
    versionCode: version,
  });
  const client = createClient(
    {
      service: 'mobile',
      region: 'us-east-1',
      apiUrl: emulator.url,
      apiKey: AUTH['api-key'],
      email: AUTH.email,
    },
    testStepDeps().logger,
  );
  try {
    const answer = await client.mobile.upload(file, { tags });
    return { projectId: String(answer.project_id), buildId: String(answer.build_id) };
  } finally {
    await client.close();
  }
}

async function setSessions(buildId: string, sessions: number): Promise<void> {
  await fetch(`${emulator.url}/_emulator/builds/${buildId}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sessions }),
  });
}

/** One hourly step of promote-build; its decision and its time. */
async function promoteStep(projectId: string): Promise<{ decision: string; ms: number }> {
  const inputs = readInputs(
    new InputReader(
      inputSource(
        {
          ...AUTH,
          'api-url': emulator.url,
          'project-id': projectId,
          'build-id': 'latest',
          tags: 'release',
          rings: RINGS.join(','),
          soak: `${GATE.soakHours}h`,
          'min-sessions': String(GATE.minSessions),
          'max-crashes': String(GATE.maxCrashes),
        },
        { env: {} },
      ),
    ),
  );
  const deps = testStepDeps();
  const client = createClient(inputs.connection, deps.logger);
  const started = performance.now();
  try {
    const result = await run(inputs, { ...deps, client });
    if (result.failure) throw new Error(result.failure.message);
    return { decision: result.outputs.decision, ms: performance.now() - started };
  } finally {
    await client.close();
  }
}

/** The script instead: the build and the feedbacks read; on a pass, its groups set and the ring invited. */
async function scriptStep(
  projectId: string,
  buildId: string,
  state: { ring: number; sinceMs: number; sessionsAt: number },
): Promise<{ decision: string; ms: number }> {
  const started = performance.now();
  const call = async (method: string, route: string, form?: Record<string, string>) => {
    const answer = await fetch(`${emulator.url}${route}`, {
      method,
      headers: {
        authorization: basic,
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    return (await answer.json()) as Record<string, unknown>;
  };
  const { build } = (await call('GET', `/api/1/projects/${projectId}/builds/${buildId}`)) as {
    build: { sessions: number; crashes: number };
  };
  await call('GET', '/api/1/feedbacks/');
  const nowMs = Date.now() + offsetMs;
  const next = state.ring + 1;
  const soaked = state.ring < 0 || nowMs - state.sinceMs >= GATE.soakHours * HOUR;
  const passes =
    state.ring < 0 ||
    (build.sessions - state.sessionsAt >= GATE.minSessions && build.crashes <= GATE.maxCrashes);
  if (next >= RINGS.length || !soaked || !passes)
    return { decision: next >= RINGS.length ? 'done' : 'held', ms: performance.now() - started };
  await call('PATCH', `/api/1/projects/${projectId}/builds/${buildId}/`, {
    groups: RINGS.slice(0, next + 1).join(','),
  });
  await call('POST', `/api/1/projects/${projectId}/builds/${buildId}/invites/`, { groups: RINGS[next]! });
  Object.assign(state, { ring: next, sinceMs: nowMs, sessionsAt: build.sessions });
  return { decision: 'promoted', ms: performance.now() - started };
}

interface Tally {
  steps: number;
  reads: number;
  writes: number;
  promoted: number;
  /** Requests of each kind of step, from the first of its kind. */
  perDecision: Record<string, number>;
  stepMs: Record<string, number[]>;
}

async function rollout(
  label: string,
  step: (hour: number) => Promise<{ decision: string; ms: number }>,
  buildId: string,
): Promise<Tally> {
  const tally: Tally = { steps: 0, reads: 0, writes: 0, promoted: 0, perDecision: {}, stepMs: {} };
  offsetMs = 0;
  for (let hour = 0; hour < hours; hour += 1) {
    await setSessions(buildId, hour * 2);
    const before = (await journal()).length;
    const { decision, ms } = await step(hour);
    const requests = (await journal()).slice(before);
    tally.steps += 1;
    tally.reads += requests.filter((entry) => entry.method === 'GET').length;
    tally.writes += requests.filter((entry) => entry.method !== 'GET').length;
    if (decision === 'promoted') tally.promoted += 1;
    tally.perDecision[decision] ??= requests.length;
    (tally.stepMs[decision] ??= []).push(ms);
    offsetMs += HOUR;
  }
  console.error(`${label}: ${tally.steps} steps, ${tally.promoted} promotions`);
  return tally;
}

const median = (list: readonly number[] = []): number => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[Math.floor(sorted.length / 2)] ?? 0);
};

try {
  for (let at = 0; at < otherBuilds; at += 1) await upload(1000 + at, ['old']);
  const ours = await upload(1, ['release']);
  const action = await rollout('promote-build', () => promoteStep(ours.projectId), ours.buildId);
  const theirs = await upload(2, ['script']);
  const state = { ring: -1, sinceMs: 0, sessionsAt: 0 };
  const script = await rollout(
    'script',
    () => scriptStep(theirs.projectId, theirs.buildId, state),
    theirs.buildId,
  );
  const rows = (['held', 'promoted', 'done'] as const).map((decision) => [
    decision,
    String(action.perDecision[decision] ?? 0),
    String(script.perDecision[decision] ?? 0),
    `${median(action.stepMs[decision]).toFixed(0)} ms`,
    `${median(script.stepMs[decision]).toFixed(0)} ms`,
  ]);
  const totals = [
    'all steps',
    `${action.reads + action.writes} (${action.writes} writes)`,
    `${script.reads + script.writes} (${script.writes} writes)`,
    '',
    '',
  ];
  const figures = {
    hours,
    otherBuilds,
    load: { start: loadAtStart, end: loadAverage() },
    promoteBuild: action,
    script,
    ratio: (action.reads + action.writes) / (script.reads + script.writes),
  };
  if (values.json) console.log(JSON.stringify(figures, null, 2));
  else {
    console.log(
      markdownTable(
        ['step', 'promote-build requests', 'script requests', 'promote-build median', 'script median'],
        [...rows, totals],
      ),
    );
    console.log(
      `\n${hours} hourly steps, ${otherBuilds} other builds in the project; requests ${figures.ratio.toFixed(2)}× the script's; load ${loadAtStart} → ${figures.load.end}`,
    );
  }
} finally {
  await emulator.close();
  await rm(folder, { recursive: true, force: true });
}
