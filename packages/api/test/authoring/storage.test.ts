import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockClient, type MockSetup } from '../support/mock.ts';
import { apiErrorOf, ARTIFACT_ID, expectAuthenticated, ORIGIN, PREFIX } from './fixtures.ts';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5]);

describe('authoring storage', () => {
  let setup: MockSetup;
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'authoring-storage-'));
  });
  afterEach(async () => {
    await setup.agent.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('streams an artifact to the file the answer names', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'GET', `${PREFIX}/storage/${ARTIFACT_ID}`, {
      body: PNG,
      headers: {
        'content-type': 'application/octet-stream',
        'content-disposition': 'attachment; filename="step-1.png"',
      },
    });
    const result = await setup.client.authoring.storage.download(ARTIFACT_ID, dir);
    expect(result).toEqual({ path: path.join(dir, 'step-1.png'), bytes: PNG.length });
    expect(await readFile(result.path)).toEqual(PNG);
    const [request] = setup.requests;
    expectAuthenticated(request);
    expect(request!.method).toBe('GET');
    expect(request!.path).toBe(`${PREFIX}/storage/${ARTIFACT_ID}`);
  });

  it('keeps a hostile service-given name inside the folder', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'GET', `${PREFIX}/storage/${ARTIFACT_ID}`, {
      body: PNG,
      headers: { 'content-disposition': 'attachment; filename="../../etc/passwd"' },
    });
    const result = await setup.client.authoring.storage.download(ARTIFACT_ID, dir);
    expect(result.path).toBe(path.join(dir, 'passwd'));
    expect(path.dirname(result.path)).toBe(dir);
    expect(await readdir(dir)).toEqual(['passwd']);
    expect(await readFile(result.path)).toEqual(PNG);
  });

  it('names the file after the artifact id when the answer names none, creating the folder', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'GET', `${PREFIX}/storage/${ARTIFACT_ID}`, {
      body: PNG,
      headers: { 'content-type': 'application/octet-stream' },
    });
    const nested = path.join(dir, 'run', 'screens');
    const result = await setup.client.authoring.storage.download(ARTIFACT_ID, nested);
    expect(result).toEqual({ path: path.join(nested, ARTIFACT_ID), bytes: PNG.length });
    expect(await readFile(result.path)).toEqual(PNG);
  });

  it('writes under a given file name, reduced to a base name', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'GET', `${PREFIX}/storage/${ARTIFACT_ID}`, {
      body: PNG,
      headers: { 'content-disposition': 'attachment; filename="ignored.png"' },
    });
    const result = await setup.client.authoring.storage.download(ARTIFACT_ID, dir, {
      fileName: '../shot.png',
    });
    expect(result.path).toBe(path.join(dir, 'shot.png'));
  });

  it('reports a missing artifact from its JSON error and writes nothing', async () => {
    setup = mockClient();
    setup.reply(ORIGIN, 'GET', `${PREFIX}/storage/${ARTIFACT_ID}`, {
      status: 404,
      body: { error: { code: 'NOT_FOUND', detail: 'artifact not found' } },
    });
    const error = await apiErrorOf(setup.client.authoring.storage.download(ARTIFACT_ID, dir));
    expect(error.message).toBe(
      `downloadArtifact: 404 artifact not found (GET ${PREFIX}/storage/${ARTIFACT_ID})`,
    );
    expect(await readdir(dir)).toEqual([]);
  });
});
