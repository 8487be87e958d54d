/**
 * End to end: the job assets of run-suite-and-wait (`download-assets`) as workflow artifacts, on
 * the bundle run as the runner runs it, against the emulator and a stand-in for the runner's
 * artifact service that keeps GitHub's rules (a name is unique within the run: a second upload
 * under it is refused with 409). Three shards of one workflow run, as a matrix runs them, upload
 * three artifacts and lose no job's assets; where there is no artifact service, the files stay in
 * the folder the `assets-dir` output names, with a warning that says why.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  runStep,
  startArtifactService,
  type ArtifactServiceStandIn,
  type StepOptions,
  type StepResult,
} from '@sauce-actions/action-harness';
import { defaultSeed, startEmulator, type RunningEmulator, type Seed } from '@sauce-actions/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputLines, runCli } from './support/cli.ts';
import { ROOT, SAUCE } from './support/lab.ts';

const SUITE = '5d1e0c3b-7a42-4e8f-9c6d-2b1a0f9e8d77';
/** `Case 1` … `Case 9`: by id, shard `i/3` runs cases i, i+3 and i+6, so each shard has two that fail. */
const CASES = Array.from({ length: 9 }, (_, n) => `cccccccccccccccccccccc0${n + 1}`);
const FAILING = new Set(CASES.slice(0, 6));

let emulator: RunningEmulator;
const services: ArtifactServiceStandIn[] = [];
const steps: StepResult[] = [];
const dirs: string[] = [];

function seed(): Seed {
  const base = defaultSeed();
  const target = { capabilities: { browserName: 'chrome', browserVersion: 'latest', platformName: 'Linux' } };
  return {
    ...base,
    authoring: {
      ...base.authoring,
      testSuites: [...(base.authoring.testSuites ?? []), { id: SUITE, name: 'Nine' }],
      testCases: [
        ...(base.authoring.testCases ?? []),
        ...CASES.map((id, n) => ({
          id,
          name: `Case ${n + 1}`,
          testSuiteId: SUITE,
          runSettings: { primaryTarget: target },
          ...(FAILING.has(id) ? { expectedOutcome: 'fail' as const } : {}),
        })),
      ],
    },
  };
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, jobDurationMs: 300, seed: seed() });
});
afterAll(async () => {
  await Promise.all(steps.map((step) => step.cleanup()));
  await Promise.all(services.map((service) => service.close()));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  await emulator?.close();
});

async function artifactService(): Promise<ArtifactServiceStandIn> {
  const service = await startArtifactService();
  services.push(service);
  return service;
}

/** One step of run-suite-and-wait with `download-assets: failed`, in run 4100, attempt 1, job `e2e`. */
async function suiteStep(
  inputs: Record<string, string>,
  options: Pick<StepOptions, 'env' | 'context' | 'id'> = {},
): Promise<StepResult> {
  const result = await runStep({
    actionDir: path.join(ROOT, 'actions', 'run-suite-and-wait'),
    inputs: {
      'api-url': emulator.url,
      ...SAUCE,
      suite: SUITE,
      'poll-interval': '1s',
      'download-assets': 'failed',
      ...inputs,
    },
    ...options,
    context: { runId: '4100', runNumber: '41', runAttempt: '1', job: 'e2e', ...options.context },
  });
  steps.push(result);
  return result;
}

/** The ids of the jobs that failed in a step, from its results file. */
async function failedJobIds(step: StepResult): Promise<string[]> {
  const results = JSON.parse(await readFile(step.outputs['results-file'] ?? '', 'utf8')) as {
    jobs: { id: string; status: string }[];
  };
  return results.jobs.filter((job) => job.status === 'failed' || job.status === 'error').map((job) => job.id);
}

/** The files under a folder, as `<job id>/<file>`, sorted. */
async function filesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** Every asset file the emulator keeps of the jobs, as `<job id>/<file>`, sorted: what must not be lost. */
async function emulatorAssets(jobIds: readonly string[]): Promise<string[]> {
  const auth = `Basic ${Buffer.from('demo:demo-access-key').toString('base64')}`;
  const files = await Promise.all(
    jobIds.map(async (id) => {
      const response = await fetch(`${emulator.url}/rest/v1/demo/jobs/${id}/assets`, {
        headers: { authorization: auth },
      });
      expect(response.status).toBe(200);
      const list = (await response.json()) as Record<string, string | string[] | null>;
      const names = new Set(Object.values(list).flatMap((value) => value ?? []));
      return [...names].map((name) => `${id}/${name}`);
    }),
  );
  return files.flat().sort();
}

function warnings(step: StepResult): string[] {
  return step.annotations.filter((a) => a.level === 'warning').map((a) => a.message);
}

describe('run-suite-and-wait bundle: job assets as artifacts', () => {
  it('three shards of one run, side by side as a matrix runs them, upload three artifacts with three names and lose no failed job', async () => {
    const service = await artifactService();
    const shards = await Promise.all(
      [1, 2, 3].map((index) =>
        // Each leg of a matrix is a job of its own, with the same job id and step id.
        suiteStep({ shard: `${index}/3` }, { env: service.jobEnv(`leg-${index}`) }),
      ),
    );

    for (const step of shards) {
      expect(step.outputs, step.log).toMatchObject({ total: '3', failed: '2' });
      // Failed jobs fail the step; the artifact is no reason for a warning.
      expect(warnings(step).filter((message) => /artifact/i.test(message))).toEqual([]);
    }
    const artifacts = service.artifacts();
    expect(service.calls.filter((call) => call.status !== 200)).toEqual([]);
    expect(artifacts.map((artifact) => artifact.name).sort()).toEqual([
      'sauce-job-assets-e2e-1-of-3-attempt-1',
      'sauce-job-assets-e2e-2-of-3-attempt-1',
      'sauce-job-assets-e2e-3-of-3-attempt-1',
    ]);

    // Each shard's artifact holds the assets of its own failed jobs, all of them, and nothing else.
    const failed = await Promise.all(shards.map(failedJobIds));
    expect(failed.flat()).toHaveLength(6);
    for (const [index, step] of shards.entries()) {
      const artifact = artifacts.find((a) => a.name === `sauce-job-assets-e2e-${index + 1}-of-3-attempt-1`);
      expect(artifact?.job).toBe(`leg-${index + 1}`);
      const entries = await service.entries(artifact!);
      expect([...new Set(entries.map((entry) => entry.split('/')[0]))].sort()).toEqual(
        [...failed[index]!].sort(),
      );
      // Every asset the emulator keeps of the shard's failed jobs, file for file.
      const kept = await emulatorAssets(failed[index]!);
      expect(kept.length).toBeGreaterThan(failed[index]!.length);
      expect(entries).toEqual(kept);
      // What was uploaded is what the step kept, in the folder its output names.
      const dir = step.outputs['assets-dir'] ?? '';
      expect(dir.startsWith(step.runnerTemp + path.sep)).toBe(true);
      expect(await filesIn(dir)).toEqual(entries);
      // Retention left to the repository's default.
      expect(artifact?.expiresAt).toBeUndefined();
    }
  });

  it('keeps the name free for the next upload: a second step of the job uploads under a name of its own, and `retention-days` sets the expiry', async () => {
    const service = await artifactService();
    const env = service.jobEnv('only-job');
    const first = await suiteStep({ shard: '1/3', 'retention-days': '5' }, { env });
    // The same job, shard and attempt again: another step without an id, as a job may have two.
    const second = await suiteStep({ shard: '1/3' }, { env, id: '__run_2' });

    const names = service.artifacts().map((artifact) => artifact.name);
    expect(names[0]).toBe('sauce-job-assets-e2e-1-of-3-attempt-1');
    expect(names[1]).toMatch(/^sauce-job-assets-e2e-1-of-3-attempt-1-[0-9a-f]{6}$/);
    // The service refused the taken name once; the step took another and said so, without a warning.
    expect(service.calls.map((call) => call.status)).toEqual([200, 200, 409, 200, 200]);
    expect(second.log).toContain('sauce-job-assets-e2e-1-of-3-attempt-1" is taken');
    expect(warnings(second).filter((message) => /artifact/i.test(message))).toEqual([]);
    for (const [step, artifact] of [first, second].map((s, i) => [s, service.artifacts()[i]!] as const)) {
      const entries = await service.entries(artifact);
      expect([...new Set(entries.map((entry) => entry.split('/')[0]))].sort()).toEqual(
        (await failedJobIds(step)).sort(),
      );
    }
    // Five days from the upload, at the time of day it was made.
    const expires = Date.parse(service.artifacts()[0]?.expiresAt ?? '');
    expect(Math.abs(expires - Date.now() - 5 * 86_400_000)).toBeLessThan(10 * 60_000);
    expect(service.artifacts()[1]?.expiresAt).toBeUndefined();
  });

  it('gives attempt 2 of a shard (re-run failed jobs) a name of its own beside attempt 1, in the same run', async () => {
    const service = await artifactService();
    const attempts: StepResult[] = [];
    for (const runAttempt of ['1', '2']) {
      // A re-run is a new job of the same run: it runs again only the cases that failed.
      attempts.push(
        await suiteStep(
          { shard: '2/3' },
          { env: service.jobEnv(`attempt-${runAttempt}`), context: { runAttempt } },
        ),
      );
    }
    expect(attempts.map((step) => step.outputs.failed)).toEqual(['2', '2']);
    expect(service.calls.filter((call) => call.status !== 200)).toEqual([]);
    expect(
      service
        .artifacts()
        .map((artifact) => artifact.name)
        .sort(),
    ).toEqual(['sauce-job-assets-e2e-2-of-3-attempt-1', 'sauce-job-assets-e2e-2-of-3-attempt-2']);
    for (const [index, step] of attempts.entries()) {
      const artifact = service.artifacts().find((a) => a.name.endsWith(`attempt-${index + 1}`));
      expect(await service.entries(artifact!)).toEqual(await emulatorAssets(await failedJobIds(step)));
    }
  });

  it.each([
    {
      where: 'on GitHub Enterprise Server',
      context: { serverUrl: 'https://github.example.com' },
      withService: true,
      why: /GitHub Enterprise Server \(github\.example\.com\)/,
    },
    {
      where: 'when the runner gives the step no artifact service',
      context: {},
      withService: false,
      why: /ACTIONS_RUNTIME_TOKEN/,
    },
  ])('keeps the files in the folder `assets-dir` names $where, with a warning that says why', async (row) => {
    const service = await artifactService();
    const step = await suiteStep(
      { shard: '2/3' },
      { context: row.context, ...(row.withService ? { env: service.jobEnv() } : {}) },
    );
    expect(step.outputs.failed, step.log).toBe('2');
    expect(service.calls).toEqual([]);
    const dir = step.outputs['assets-dir'] ?? '';
    expect(dir).not.toBe('');
    const files = await filesIn(dir);
    expect([...new Set(files.map((file) => file.split('/')[0]))].sort()).toEqual(
      (await failedJobIds(step)).sort(),
    );
    const warning = warnings(step).filter((message) => /artifact/i.test(message));
    expect(warning).toHaveLength(1);
    expect(warning[0]).toMatch(row.why);
    expect(warning[0]).toContain(`Could not upload ${files.length} asset file(s) of 2 job(s)`);
    expect(warning[0]).toContain(`The files are kept in ${dir} (output \`assets-dir\`)`);
    // The step's own failure is the failed jobs', not the artifact.
    expect(step.annotations.filter((a) => a.level === 'error' && /artifact/i.test(a.message))).toEqual([]);
  });

  it('the command line keeps the files in its output folder, which `assets-dir` names, with a warning', async () => {
    const cwd = await mkdtemp(path.join(os.tmpdir(), 'assets-cli-'));
    dirs.push(cwd);
    const run = await runCli(
      [
        'run-suite-and-wait',
        '--api-url',
        emulator.url,
        '--suite',
        SUITE,
        '--shard',
        '3/3',
        '--download-assets',
        'failed',
        '--retention-days',
        '5',
        '--poll-interval',
        '1s',
      ],
      { cwd, env: { SAUCE_USERNAME: 'demo', SAUCE_ACCESS_KEY: 'demo-access-key' } },
    );
    // Two of the shard's jobs fail: the work failed, the assets did not.
    expect(run.code, run.stderr).toBe(1);
    const outputs = outputLines(run.stdout);
    const dir = outputs['assets-dir'] ?? '';
    expect(dir.startsWith(path.join(cwd, 'sauce-actions-output') + path.sep)).toBe(true);
    const results = JSON.parse(await readFile(outputs['results-file'] ?? '', 'utf8')) as {
      jobs: { id: string; status: string }[];
    };
    const failed = results.jobs.filter((job) => job.status === 'failed').map((job) => job.id);
    expect(failed).toHaveLength(2);
    expect(await filesIn(dir)).toEqual(await emulatorAssets(failed));
    expect(run.stderr).toMatch(
      /Could not upload \d+ asset file\(s\) of 2 job\(s\) as an artifact: the command line uploads no artifact/,
    );
    expect(run.stderr).toContain(`The files are kept in ${dir} (output \`assets-dir\`)`);
  });
});
