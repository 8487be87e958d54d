/**
 * manage-tunnel through the built `cli.js` against an emulator started here, with a stand-in
 * Sauce Connect: wait and list, a start held in the foreground until SIGTERM, a start left running
 * and stopped later, and the download into the tool cache, verified, then found there.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishBuild, sha256, tarGz } from '../../actions/manage-tunnel/test/archives.ts';
import { writeFakeSauceConnect } from '../../actions/manage-tunnel/test/fake-sc.ts';
import { outputLines, SAUCE_ENV, useCliTerminal } from './support/cli.ts';

const terminal = useCliTerminal();
const { cli, workspace } = terminal;

describe('manage-tunnel', () => {
  let sc: string;
  const pids: number[] = [];
  beforeAll(async () => {
    await workspace();
    sc = await writeFakeSauceConnect(terminal.dir);
  });
  afterAll(() => {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  });

  const fakeEnv = (): Record<string, string> => ({ ...SAUCE_ENV, FAKE_SC_EMULATOR: terminal.lab.url });

  it('wait for demo-tunnel, then list it', async () => {
    const wait = await cli(
      [
        'manage-tunnel',
        '--tunnel-name',
        'demo-tunnel',
        '--stop-on-exit',
        'false',
        '--api-url',
        terminal.lab.url,
      ],
      SAUCE_ENV,
    );
    expect(wait.code, wait.stderr).toBe(0);
    const id = outputLines(wait.stdout)['tunnel-id'];
    expect(id).toMatch(/^[0-9a-f]+$/);
    const list = await cli(
      [
        'manage-tunnel',
        '--operation',
        'list',
        '--tunnel-name',
        'demo-tunnel',
        '--api-url',
        terminal.lab.url,
        '--json',
      ],
      SAUCE_ENV,
    );
    expect(list.code, list.stderr).toBe(0);
    const listed = JSON.parse(JSON.parse(list.stdout).tunnels as string) as { id: string }[];
    expect(listed.map((t) => t.id)).toEqual([id]);
  });

  it('start stays in the foreground with Sauce Connect; SIGTERM stops it and its tunnel, exit 0', async () => {
    const run = await cli(
      [
        'manage-tunnel',
        '--operation',
        'start',
        '--tunnel-name',
        'cli-held',
        '--sc-path',
        sc,
        '--status-address',
        'localhost:8241',
        '--api-url',
        terminal.lab.url,
      ],
      fakeEnv(),
      { signalWhen: { text: 'Running until SIGINT or SIGTERM', signal: 'SIGTERM' } },
    );
    expect(run.code, run.stderr).toBe(0);
    const id = outputLines(run.stdout)['tunnel-id'];
    expect(run.stderr).toContain('Sauce Connect stopped.');
    const pid = Number(/Started Sauce Connect \(pid (\d+)\)/.exec(run.stderr)?.[1]);
    pids.push(pid);
    expect(isAlive(pid)).toBe(false);
    expect(terminal.lab.emulator.context.automation.data.tunnels[id as string]?.status).toBe('terminated');
  });

  it('start --stop-on-exit false ends and leaves Sauce Connect running; stop --tunnel-name deletes the tunnel later', async () => {
    const run = await cli(
      [
        'manage-tunnel',
        '--operation',
        'start',
        '--tunnel-name',
        'cli-left',
        '--sc-path',
        sc,
        '--status-address',
        'localhost:8242',
        '--stop-on-exit',
        'false',
        '--api-url',
        terminal.lab.url,
      ],
      fakeEnv(),
    );
    expect(run.code, run.stderr).toBe(0);
    const pid = Number(/Started Sauce Connect \(pid (\d+)\)/.exec(run.stderr)?.[1]);
    pids.push(pid);
    expect(isAlive(pid)).toBe(true);
    const stop = await cli(
      ['manage-tunnel', '--operation', 'stop', '--tunnel-name', 'cli-left', '--api-url', terminal.lab.url],
      SAUCE_ENV,
    );
    expect(stop.code, stop.stderr).toBe(0);
    const id = outputLines(run.stdout)['tunnel-id'];
    expect(outputLines(stop.stdout)['tunnel-id']).toBe(id);
    expect(terminal.lab.emulator.context.automation.data.tunnels[id as string]?.status).toBe('terminated');
  });

  it('start downloads the listed Sauce Connect once into its tool cache, verified, then finds it there', async () => {
    // The stand-in in a folder, as older archives wrap it, published in the emulator's listing.
    const archive = tarGz([{ name: 'sauce-connect/sc', body: await readFile(sc), mode: 0o755 }]);
    await publishBuild(terminal.lab.url, '9.9.9', archive);
    const flags = [
      'manage-tunnel',
      '--operation',
      'start',
      '--sc-version',
      '9.9.9',
      '--api-url',
      terminal.lab.url,
    ];
    const env = { ...fakeEnv(), SAUCE_ACTIONS_TOOL_CACHE: path.join(terminal.dir, 'tools') };
    const signalWhen = { text: 'Running until SIGINT or SIGTERM', signal: 'SIGINT' as const };
    const first = await cli(
      [...flags, '--tunnel-name', 'cli-dl-1', '--status-address', 'localhost:8243'],
      env,
      { signalWhen },
    );
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('Downloading Sauce Connect 9.9.9 from');
    expect(first.stderr).toContain(
      `expecting sha256 ${sha256(archive)} from the Sauce Labs download listing`,
    );
    const second = await cli(
      [...flags, '--tunnel-name', 'cli-dl-2', '--status-address', 'localhost:8244'],
      env,
      { signalWhen },
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(
      `Sauce Connect 9.9.9 found in the tool cache (sha256 ${sha256(archive)}).`,
    );
    expect(second.stderr).toContain('Sauce Connect stopped.');
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
