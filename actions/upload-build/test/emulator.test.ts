/**
 * upload-build against the emulator, as the runner's host runs it: bad input refused with no
 * request sent, and the tester groups looked up before the upload.
 */
import path from 'node:path';
import {
  ActionError,
  createClient,
  InputError,
  InputReader,
  inputSource,
  type ActionResult,
} from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readInputs } from '../src/inputs.ts';
import type { UploadOutputs } from '../src/report.ts';
import { run } from '../src/run.ts';
import { useUploadWorkspace } from './helpers.ts';

const workspace = useUploadWorkspace();

/**
 * The step as the runner's host runs it (inputs read, then the client made, then `run`) against the
 * emulator, whose journal shows every request that reached it.
 */
describe('upload-build against the emulator', () => {
  let emulator: RunningEmulator;

  beforeEach(async () => {
    emulator = await startEmulator({ port: 0 });
    await createSampleApk(path.join(workspace.dir, 'app.apk'), {
      packageId: 'com.example.upload',
      name: 'Upload',
      version: '1.0.0',
      versionCode: 1,
    });
  });

  afterEach(async () => {
    await emulator.close();
  });

  async function hostRun(values: Record<string, string>): Promise<ActionResult<UploadOutputs>> {
    const parsed = readInputs(
      new InputReader(
        inputSource(
          { 'api-url': emulator.url, 'api-key': 'demo-api-key', file: 'app.apk', ...values },
          { env: {}, workspace: workspace.dir },
        ),
      ),
    );
    const client = createClient(parsed.connection, testStepDeps().logger);
    try {
      return await run(parsed, { ...testStepDeps({ workspace: workspace.dir }), client });
    } finally {
      await client.close();
    }
  }

  async function journal(): Promise<{ method: string; path: string }[]> {
    const answer = await fetch(`${emulator.url}/_emulator/requests`);
    return ((await answer.json()) as { requests: { method: string; path: string }[] }).requests;
  }

  it.each([
    { timeout: '2147484' },
    { timeout: '1e400' },
    { email: 'demo' },
    { 'release-notes': 'x', 'release-notes-file': 'notes.md' },
    { file: '' },
  ])('refuses %o with no request sent', async (values) => {
    const error = await hostRun(values).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(await journal()).toEqual([]);
  });

  it('looks the groups up and uploads nothing when one does not exist', async () => {
    const error = await hostRun({ email: 'demo@example.com', groups: 'qa, nope' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActionError);
    expect((error as Error).message).toMatch(/^Unknown tester group: nope \(the account has: qa, beta\)\./);
    const requests = await journal();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/1/testers/groups']);
  });

  it('uploads with groups that exist', async () => {
    const result = await hostRun({ email: 'demo@example.com', groups: 'qa' });
    expect(result.failure).toBeUndefined();
    const requests = (await journal()).map((r) => `${r.method} ${r.path}`);
    expect(requests[0]).toBe('GET /api/1/testers/groups');
    expect(requests.filter((r) => r.startsWith('POST /api/upload'))).toHaveLength(1);
  });
});
