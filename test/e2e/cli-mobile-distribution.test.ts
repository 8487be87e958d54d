/**
 * Mobile distribution through the built `cli.js` against an emulator started here: upload-build's
 * file checked before any request, an upload whose outputs invite-testers takes, a refused key;
 * no secret ever printed.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { beforeAll, describe, expect, it } from 'vitest';
import { leaked, MOBILE_ENV, outputLines, useCliTerminal } from './support/cli.ts';

const terminal = useCliTerminal();
const { cli, workspace } = terminal;

describe('mobile distribution', () => {
  let apk: string;
  beforeAll(async () => {
    await workspace();
    apk = path.join(terminal.dir, 'app.apk');
    await createSampleApk(apk, {
      packageId: 'com.example.cli',
      name: 'CLI Shop',
      version: '4.5.6',
      versionCode: 456,
    });
  });

  it.runIf(process.platform !== 'win32').each([
    ['.\\app.apk', '\\ is not a folder separator on Linux; write "./app.apk"'],
    ['C:\\x\\app.apk', 'a drive letter (C:) is a Windows path, and this runner is Linux'],
    ['~/app.apk', '`~` is not expanded, as the runner passes inputs as written'],
  ])(
    'upload-build --file %s: exit 2 before any request, saying what is wrong with the form',
    async (file, hint) => {
      await terminal.lab.clearJournal();
      const run = await cli(['upload-build', '--file', file, '--api-url', terminal.lab.url], MOBILE_ENV);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^error: Input "file" names .*, which does not exist: /m);
      expect(run.stderr).toContain(hint.replace('Linux', process.platform === 'darwin' ? 'macOS' : 'Linux'));
      expect(await terminal.lab.journal()).toEqual([]);
    },
  );

  it('upload-build with the key from the environment prints build-id=…, exit 0; invite-testers takes its outputs', async () => {
    const upload = await cli(
      [
        'upload-build',
        '--file',
        'app.apk',
        `--api-url=${terminal.lab.url}`,
        '--email',
        'demo@example.com',
        '--tags',
        'cli',
        '--tags',
        'nightly',
        '--metadata',
        'commit=abc123',
        '--metadata',
        'branch=main',
        '--summary',
        'upload.md',
      ],
      MOBILE_ENV,
    );
    expect(upload.code, upload.stderr).toBe(0);
    const outputs = outputLines(upload.stdout);
    expect(outputs['build-id']).toMatch(/^\d+$/);
    expect(outputs['app-version']).toBe('4.5.6');
    expect(upload.stderr).toContain('Uploaded CLI Shop 4.5.6');
    const stored = terminal.lab.emulator.context.mobile.data.builds.find(
      (b) => String(b.id) === outputs['build-id'],
    );
    // Repeated list flags arrive as one value per line.
    expect(stored?.tags).toEqual(['cli', 'nightly']);
    expect(stored?.metadata).toEqual({ commit: 'abc123', branch: 'main' });
    const summary = await readFile(path.join(terminal.dir, 'upload.md'), 'utf8');
    expect(summary).toContain('CLI Shop');

    const invite = await cli([
      'invite-testers',
      '--project-id',
      outputs['project-id'] as string,
      '--build-id',
      outputs['build-id'] as string,
      '--email',
      'demo@example.com',
      '--api-key',
      'demo-api-key',
      '--groups',
      'qa',
      '--testers',
      'dave@example.com',
      '--testers',
      'erin@example.com',
      '--tester-group',
      'cli-testers',
      '--api-url',
      terminal.lab.url,
    ]);
    expect(invite.code, invite.stderr).toBe(0);
    expect(outputLines(invite.stdout)['invited-groups']).toBe('qa,cli-testers');
    expect(outputLines(invite.stdout)['added-testers']).toBe('dave@example.com,erin@example.com');
    expect(leaked(upload.stdout, upload.stderr, summary, invite.stdout, invite.stderr)).toEqual([]);
  });

  it('promote-build --json: the build enters qa, then is held there, and --dry-run sends no write', async () => {
    const upload = await cli(
      [
        'upload-build',
        '--file',
        'app.apk',
        '--api-url',
        terminal.lab.url,
        '--email',
        'demo@example.com',
        '--tags',
        'rollout',
      ],
      MOBILE_ENV,
    );
    expect(upload.code, upload.stderr).toBe(0);
    const { 'project-id': projectId = '' } = outputLines(upload.stdout);
    const promote = (...more: string[]) =>
      cli(
        [
          'promote-build',
          '--project-id',
          projectId,
          '--build-id',
          'latest',
          '--tags',
          'rollout',
          '--rings',
          'qa,beta',
          '--soak',
          '1h',
          '--email',
          'demo@example.com',
          '--api-url',
          terminal.lab.url,
          '--json',
          ...more,
        ],
        MOBILE_ENV,
      );
    const decisions: Record<string, unknown>[] = [];
    for (const more of [[], [], ['--dry-run', 'true']]) {
      await terminal.lab.clearJournal();
      const run = await promote(...more);
      expect(run.code, run.stderr).toBe(0);
      decisions.push(JSON.parse(run.stdout) as Record<string, unknown>);
      if (more.length > 0) {
        expect((await terminal.lab.journal()).filter((entry) => entry.method !== 'GET')).toEqual([]);
      }
      expect(leaked(run.stdout, run.stderr)).toEqual([]);
    }
    expect(decisions.map(({ decision, ring }) => ({ decision, ring }))).toEqual([
      { decision: 'promoted', ring: 'qa' },
      { decision: 'held', ring: 'qa' },
      { decision: 'held', ring: 'qa' },
    ]);
    expect(decisions[1]?.reasons).toMatch(/^soak: in qa for 0s of 1h, until /);
    expect(decisions[0]?.['build-id']).toMatch(/^\d+$/);
  });

  it('promote-build with an empty --rings: exit 2 before any request, naming the input', async () => {
    await terminal.lab.clearJournal();
    const run = await cli(
      [
        'promote-build',
        '--project-id',
        '1',
        '--build-id',
        '1',
        '--rings',
        ' ',
        '--email',
        'demo@example.com',
        '--api-url',
        terminal.lab.url,
      ],
      MOBILE_ENV,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: Input "rings" is required but was empty/m);
    expect(await terminal.lab.journal()).toEqual([]);
  });

  it('a key the service refuses: exit 1, the reason on standard error, no secret printed', async () => {
    const run = await cli(['upload-build', '--file', 'app.apk', '--api-url', terminal.lab.url, '--verbose'], {
      SAUCE_APPDIST_API_KEY: 'key-from-eu-central-1',
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: .*\(code 5\)/m);
    expect(run.stderr).toContain('debug: ');
    expect(run.stderr).not.toContain('key-from-eu-central-1');
  });
});
