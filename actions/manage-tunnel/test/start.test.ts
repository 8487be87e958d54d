/**
 * `start` on the bundle with a stand-in Sauce Connect: a good start whose process outlives the
 * main step until the post step stops it, retries, a start that never becomes ready, the log of a
 * failed start uploaded per matrix leg, and bad inputs. Every test checks that no stand-in is left
 * running.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startArtifactService, type StepResult } from '@sauce-actions/action-harness';
import { describe, expect, it } from 'vitest';
import { isRunning } from '../src/process.ts';
import {
  ACCESS_KEY,
  ACTION_DIR,
  actionVariant,
  allTunnels,
  errors,
  postAlone,
  runAction,
  tunnelById,
  USERNAME,
  useStandInSauceConnect,
} from './helpers.ts';

const setup = useStandInSauceConnect('manage-tunnel-start-');
const { fakeEnv, launches, steps } = setup;

async function step(
  inputs: Record<string, string>,
  env: Record<string, string> = {},
  actionDir = ACTION_DIR,
): Promise<StepResult> {
  const result = await runAction(
    setup.emulator.url,
    { operation: 'start', 'status-address': setup.statusAddress, 'poll-interval': '1s', ...inputs },
    { env: fakeEnv(env) },
    actionDir,
  );
  steps.push(result);
  return result;
}

describe('start', () => {
  it('starts Sauce Connect, which outlives the main step until the post step stops it', async () => {
    // The harness runs the post step right after the main step; these copies run them apart.
    const mainOnly = await actionVariant(setup.dir, 'main-only', (yml) => yml.replace(/^\s+post: .*$/m, ''));
    const result = await step(
      { 'tunnel-name': 'ci-start', 'sc-path': setup.sc, 'sc-args': '--verbose "--metadata" build=42' },
      {},
      mainOnly,
    );

    expect(errors(result)).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.post).toBeUndefined();
    const tunnelId = result.outputs['tunnel-id'] as string;
    expect(await tunnelById(setup.emulator.url, tunnelId)).toMatchObject({
      tunnel_identifier: 'ci-start',
      status: 'running',
    });
    const state = JSON.parse(result.state.cleanup as string);
    expect(state.tunnels).toEqual([{ id: tunnelId, name: 'ci-start', origin: 'started' }]);
    expect(state.process.executable).toBe(setup.sc);
    expect(isRunning(state.process.pid)).toBe(true);
    expect(await launches()).toEqual([state.process.pid]);

    const logFile = result.outputs['log-file'] as string;
    expect(state.process.logFile).toBe(logFile);
    const log = await readFile(logFile, 'utf8');
    expect(log).toContain(
      JSON.stringify([
        'run',
        '--username',
        USERNAME,
        '--region',
        'us-west',
        '--tunnel-name',
        'ci-start',
        '--api-address',
        setup.statusAddress,
        '--verbose',
        '--metadata',
        'build=42',
      ]),
    );
    expect(log).toContain('access key from the environment: yes');
    expect(log).toContain('inputs in the environment: 0');
    expect(log).not.toContain(ACCESS_KEY);
    expect(result.unmaskedLog).not.toContain(ACCESS_KEY);
    expect(result.summary).toContain('ci-start');

    const postOnly = await actionVariant(setup.dir, 'post-only', postAlone);
    const post = await runAction(
      setup.emulator.url,
      { operation: 'start', 'tunnel-name': 'ci-start', 'sc-path': setup.sc },
      { env: { ...fakeEnv(), STATE_cleanup: result.state.cleanup as string } },
      postOnly,
    );
    steps.push(post);
    expect(errors(post)).toBe('');
    expect(post.log).toContain(`Stopping Sauce Connect (pid ${state.process.pid}) with SIGINT`);
    expect(isRunning(state.process.pid)).toBe(false);
    expect(await readFile(logFile, 'utf8')).toContain('SIGINT, shutting down');
    expect((await tunnelById(setup.emulator.url, tunnelId))?.status).toBe('terminated');
    expect(post.log).toContain(`Tunnel ${tunnelId} ("ci-start") is already shut down`);
  });

  it('retries a start that fails twice, then stops the tunnel in the post step', async () => {
    const result = await step(
      { 'tunnel-name': 'flaky', 'sc-path': setup.sc, 'start-retries': '2' },
      { FAKE_SC_FAILURES: '2', FAKE_SC_COUNTER: path.join(setup.dir, 'count') },
    );

    expect(errors(result)).toBe('');
    expect(result.exitCode).toBe(0);
    expect(await launches()).toHaveLength(3);
    const warnings = result.annotations.filter((a) => a.level === 'warning').map((a) => a.message);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('start 1 of 3 failed: Sauce Connect exited (code 1) before it was ready');
    const log = await readFile(result.outputs['log-file'] as string, 'utf8');
    expect(log).toContain('start 3 of 3');
    expect(log.match(/could not reach the tunnel service/g)).toHaveLength(2);
    expect(result.summary).toContain('Starts needed');

    const tunnelId = result.outputs['tunnel-id'] as string;
    expect(result.post?.exitCode).toBe(0);
    expect((await tunnelById(setup.emulator.url, tunnelId))?.status).toBe('terminated');
  });

  it('fails a start that never becomes ready at the timeout, keeping the log and its path', async () => {
    const started = Date.now();
    const result = await step(
      { 'tunnel-name': 'stuck', 'sc-path': setup.sc, 'start-retries': '0', timeout: '2s' },
      { FAKE_SC_MODE: 'never-ready' },
    );

    expect(result.exitCode).toBe(1);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(errors(result)).toContain(
      `did not answer ready at http://${setup.statusAddress}/readyz within 2s`,
    );
    const logFile = result.outputs['log-file'] as string;
    expect(logFile).not.toBe('');
    expect(existsSync(logFile)).toBe(true);
    expect(await readFile(logFile, 'utf8')).toContain('status server on');
    expect(errors(result)).toContain(logFile);
    expect(result.summary).toContain('<h2>Manage tunnel: service trouble</h2>');
    expect(result.summary).toContain(logFile);
    // Outside a runner there is no artifact service: the upload is tried and only warns.
    expect(
      result.annotations.some(
        (a) => a.level === 'warning' && a.message.includes('Could not upload the Sauce Connect log'),
      ),
    ).toBe(true);
    const [pid] = await launches();
    expect(isRunning(pid as number)).toBe(false);
    expect(result.post?.log).toContain('Nothing to clean up');
    expect((await allTunnels(setup.emulator.url)).map((t) => t.tunnel_identifier)).toEqual(['demo-tunnel']);
  });

  it('uploads the log of a failed start as an artifact of its own per matrix leg, kept `retention-days`', async () => {
    const service = await startArtifactService();
    try {
      const failing = { FAKE_SC_FAILURES: '9', FAKE_SC_COUNTER: path.join(setup.dir, 'count') };
      const legs: StepResult[] = [];
      // Two legs of a matrix: the same job id and tunnel name, each a job of its own.
      for (const leg of ['leg-1', 'leg-2']) {
        legs.push(
          await step(
            { 'tunnel-name': 'shared', 'sc-path': setup.sc, 'start-retries': '0', 'retention-days': '3' },
            { ...failing, ...service.jobEnv(leg) },
          ),
        );
      }
      expect(legs.map((leg) => leg.exitCode)).toEqual([1, 1]);
      const artifacts = service.artifacts();
      expect(artifacts.map((artifact) => artifact.name)).toEqual([
        'sauce-connect-log-build-shared-attempt-1',
        expect.stringMatching(/^sauce-connect-log-build-shared-attempt-1-[0-9a-f]{6}$/),
      ]);
      for (const [index, artifact] of artifacts.entries()) {
        expect(artifact.job).toBe(`leg-${index + 1}`);
        expect(await service.entries(artifact)).toEqual([path.basename(legs[index]!.outputs['log-file']!)]);
        const expires = Date.parse(artifact.expiresAt ?? '');
        expect(Math.abs(expires - Date.now() - 3 * 86_400_000)).toBeLessThan(10 * 60_000);
      }
      // A name taken by the other leg is no reason for a warning.
      for (const leg of legs) {
        expect(leg.annotations.filter((a) => a.level === 'warning' && /artifact/.test(a.message))).toEqual(
          [],
        );
      }
    } finally {
      await service.close();
    }
  });

  it('needs a tunnel name, a valid status address and version', async () => {
    const noName = await step({ 'sc-path': setup.sc });
    expect(errors(noName)).toContain('Input "tunnel-name" is required by `operation: start`');
    const badAddress = await step({ 'tunnel-name': 'x', 'sc-path': setup.sc, 'status-address': 'localhost' });
    expect(errors(badAddress)).toContain('Input "status-address" has "localhost", which is not host:port');
    const badVersion = await step({ 'tunnel-name': 'x', 'sc-version': 'latest' });
    expect(errors(badVersion)).toContain('Input "sc-version" has "latest"');
    expect(await launches()).toEqual([]);
  });
});
