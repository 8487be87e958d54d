/** `build-id: latest` with `tags`: the newest build of the project carrying them is invited. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createClient, InputError, InputReader, inputSource } from '@sauce-actions/action-kit';
import { testStepDeps } from '@sauce-actions/action-kit/testing';
import type { MobileConnection } from '@sauce-actions/action-kit';
import { startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInputs } from '../src/inputs.ts';
import { runInvite } from './run-invite.ts';

const read = (values: Record<string, string>) =>
  readInputs(
    new InputReader(
      inputSource(
        { 'api-key': 'k', email: 'me@example.com', groups: 'qa', 'project-id': '3', ...values },
        { env: {} },
      ),
    ),
  );

describe('invite-testers `build-id` and `tags`', () => {
  it('reads `latest` with its tags', () => {
    expect(read({ 'build-id': 'latest', tags: 'pr-42\nmain' })).toMatchObject({
      buildId: 'latest',
      tags: ['pr-42', 'main'],
    });
    expect(read({ 'build-id': 'latest' })).toMatchObject({ buildId: 'latest', tags: [] });
  });

  it('refuses `tags` with a build id, before anything is sent', () => {
    expect(() => read({ 'build-id': '77', tags: 'pr-42' })).toThrow(InputError);
    expect(() => read({ 'build-id': '77', tags: 'pr-42' })).toThrow(
      'Input "tags" is set, but `build-id` names build 77. Allowed: `tags` together with `build-id: latest`',
    );
  });

  it('refuses `Latest` and other words, naming `latest`', () => {
    expect(() => read({ 'build-id': 'Latest' })).toThrow(/or `latest` with `tags`/);
  });
});

describe('invite-testers `build-id: latest` against the emulator', () => {
  let emulator: RunningEmulator;
  let dir: string;
  const uploaded: Record<string, string> = {};
  let projectId = '';
  const connection = (url: string): MobileConnection => ({
    service: 'mobile',
    region: 'us-east-1',
    apiUrl: url,
    apiKey: 'demo-api-key',
    email: 'demo@example.com',
  });

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    dir = await mkdtemp(path.join(os.tmpdir(), 'invite-latest-'));
    const file = path.join(dir, 'app.apk');
    await createSampleApk(file, {
      packageId: 'com.example.latest',
      name: 'Latest',
      version: '1.0',
      versionCode: 1,
    });
    const client = createClient(connection(emulator.url), testStepDeps().logger);
    try {
      for (const [name, tags] of [
        ['main-1', ['main']],
        ['pr-1', ['pr-42']],
        ['pr-2', ['pr-42']],
        ['main-2', ['main']],
      ] as const) {
        const answer = await client.mobile.upload(file, { tags });
        uploaded[name] = String(answer.build_id);
        projectId = String(answer.project_id);
      }
    } finally {
      await client.close();
    }
  });

  afterAll(async () => {
    await emulator?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const invite = (values: Record<string, string>) =>
    runInvite(emulator.url, { 'project-id': projectId, groups: 'qa', ...values });

  it.each([
    ['pr-42', 'pr-2'],
    ['main', 'main-2'],
    ['pr-42, main', undefined],
  ])('with tags %s invites the newest build carrying them', async (tags, expected) => {
    const { result, deps } = await invite({ 'build-id': 'latest', tags });
    if (expected === undefined) {
      expect(result.failure?.kind).toBe('refused');
      expect(result.failure?.message).toContain(`No build of project ${projectId} is tagged pr-42, main`);
      return;
    }
    expect(result.failure).toBeUndefined();
    expect(result.outputs['build-id']).toBe(uploaded[expected]);
    expect(result.outputs['invited-groups']).toEqual(['qa']);
    expect(result.summary).toContain(`Invited testers to build ${uploaded[expected]}`);
    expect(deps.logger.lines().join('\n')).toContain(
      `build-id: latest is build ${uploaded[expected]} of project`,
    );
    const testers = (await (
      await fetch(`${emulator.url}/api/1/testers?buildId=${uploaded[expected]}`, {
        headers: {
          authorization: `Basic ${Buffer.from('demo@example.com:demo-api-key').toString('base64')}`,
        },
      })
    ).json()) as { testers: { email: string; isInvitedToBuild: boolean }[] };
    expect(testers.testers.filter((t) => t.isInvitedToBuild).map((t) => t.email)).toEqual([
      'alice@example.com',
      'bob@example.com',
    ]);
  });

  it('adds no tester when no build carries the tags', async () => {
    const { result } = await invite({
      'build-id': 'latest',
      tags: 'pr-99',
      testers: 'new@example.com',
      'tester-group': 'late',
    });
    expect(result.failure?.message).toMatch(/No build of project \d+ is tagged pr-99, so no one was invited/);
    expect(result.outputs['added-testers']).toEqual([]);
  });

  it('without tags invites the newest build of the project', async () => {
    const { result } = await invite({ 'build-id': 'latest' });
    expect(result.outputs['build-id']).toBe(uploaded['main-2']);
  });
});
