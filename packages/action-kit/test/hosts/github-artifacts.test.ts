/**
 * The runner's artifact service through `@actions/artifact`, against a stand-in that keeps
 * GitHub's rules: what the step can act on (no service, a name the run has) is an answer.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startArtifactService, type ArtifactServiceStandIn } from '@sauce-actions/action-harness';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { githubArtifacts } from '../../src/hosts/github-artifacts.ts';

let service: ArtifactServiceStandIn;
let dir: string;
let file: string;

beforeAll(async () => {
  service = await startArtifactService();
  dir = await mkdtemp(path.join(os.tmpdir(), 'github-artifacts-'));
  file = path.join(dir, 'sauce.log');
  await writeFile(file, 'log\n');
});
afterAll(async () => {
  await service.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** The step's environment as the runner gives it, which the artifact client reads from the process. */
function stepEnv(variables: Record<string, string | undefined>): NodeJS.ProcessEnv {
  for (const [name, value] of Object.entries(variables)) vi.stubEnv(name, value);
  // The client's own log lines go to standard output as workflow commands.
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  return process.env;
}

describe('githubArtifacts', () => {
  it('uploads, then answers name-taken when the run has the name, as the service refuses it with 409', async () => {
    const env = stepEnv({
      ...service.jobEnv('leg-1'),
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_WORKSPACE: dir,
    });
    const artifacts = githubArtifacts(env);
    const first = await artifacts.upload('sauce-connect-log-e2e', [file], dir, { retentionDays: 3 });
    expect(first).toMatchObject({ outcome: 'uploaded', id: 1 });
    expect(await artifacts.upload('sauce-connect-log-e2e', [file], dir)).toEqual({ outcome: 'name-taken' });
    expect(service.calls.map((call) => [call.method, call.status])).toEqual([
      ['CreateArtifact', 200],
      ['FinalizeArtifact', 200],
      ['CreateArtifact', 409],
    ]);
    expect(service.artifacts().map((artifact) => artifact.name)).toEqual(['sauce-connect-log-e2e']);
  });

  it.each([
    {
      where: 'on GitHub Enterprise Server, without asking',
      env: { GITHUB_SERVER_URL: 'https://github.example.com' },
      reason: /^this is GitHub Enterprise Server \(github\.example\.com\)/,
    },
    {
      where: 'without the runtime token',
      env: { GITHUB_SERVER_URL: 'https://github.com', ACTIONS_RUNTIME_TOKEN: undefined },
      reason: /ACTIONS_RUNTIME_TOKEN or ACTIONS_RESULTS_URL is not set/,
    },
    {
      where: 'without the results address',
      env: { GITHUB_SERVER_URL: 'https://github.com', ACTIONS_RESULTS_URL: undefined },
      reason: /ACTIONS_RUNTIME_TOKEN or ACTIONS_RESULTS_URL is not set/,
    },
  ])('answers unavailable $where', async (row) => {
    const calls = service.calls.length;
    const env = stepEnv({ ...service.jobEnv('leg-2'), ...row.env });
    const answer = await githubArtifacts(env).upload('a', [file], dir);
    expect(answer).toEqual({ outcome: 'unavailable', reason: expect.stringMatching(row.reason) });
    expect(service.calls.length).toBe(calls);
  });

  it('throws what it cannot act on: a token of another run', async () => {
    const env = stepEnv({
      ...service.jobEnv('leg-3'),
      ACTIONS_RUNTIME_TOKEN: 'not-a-token',
      GITHUB_SERVER_URL: 'https://github.com',
    });
    await expect(githubArtifacts(env).upload('b', [file], dir)).rejects.toThrow();
  });
});
