/**
 * What the tests of promote-build share: an emulator whose clock a test moves forward (its
 * answers are dated by it, as the service's are), with the tester groups qa, beta and public and
 * a feedback of the first build; one uploaded build; and a step of promote-build run from its
 * inputs, with the requests it sent from the emulator's journal.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  createClient,
  InputReader,
  inputSource,
  wholeText,
  type ActionResult,
} from '@sauce-actions/action-kit';
import { testStepDeps, type TestStepDeps } from '@sauce-actions/action-kit/testing';
import { defaultSeed, startEmulator, type RunningEmulator } from '@sauce-actions/emulator';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { afterAll, beforeAll, expect } from 'vitest';
import { journal, type JournalEntry } from '../../../test/support/emulators.ts';
import { readInputs } from '../src/inputs.ts';
import type { PromoteOutputs } from '../src/report.ts';
import { run } from '../src/run.ts';

export const HOUR = 3_600_000;

export interface PromoteStep {
  result: ActionResult<PromoteOutputs>;
  summary: string;
  deps: TestStepDeps;
  /** The requests the step sent, from the emulator's journal. */
  requests: JournalEntry[];
}

export interface PromoteLab {
  emulator: () => RunningEmulator;
  /** Moves the emulator's clock forward. */
  advance(ms: number): void;
  /** The emulator's time now. */
  now(): number;
  /** Uploads a build (to `groups`), and answers its id and its project's. */
  upload(groups?: string[], tags?: string[]): Promise<{ projectId: string; buildId: string }>;
  /** Sets a build's counters (`PATCH /_emulator/builds/:id`). */
  counters(
    buildId: string,
    counters: { sessions?: number; crashes?: number; feedbacks?: number },
  ): Promise<void>;
  step(values: Record<string, string>, signal?: AbortSignal): Promise<PromoteStep>;
}

/** A request that changes the service: anything but a read. */
export const isWrite = (entry: JournalEntry): boolean =>
  entry.method !== 'GET' && !entry.path.startsWith('/_emulator');

/** A request as `METHOD path`, its project and build ids as `N`. */
export const route = (entry: JournalEntry): string =>
  `${entry.method} ${entry.path.replace(/(projects|builds)\/\d+/g, '$1/N')}`;

/** The invitations among requests, by build. */
export const invitesOf = (requests: readonly JournalEntry[], buildId: string): JournalEntry[] =>
  requests.filter(
    (entry) => entry.method === 'POST' && new RegExp(`/builds/${buildId}/invites/?$`).test(entry.path),
  );

export function promoteLab(): PromoteLab {
  let emulator: RunningEmulator | undefined;
  let offsetMs = 0;
  let folder = '';
  let uploads = 0;
  beforeAll(async () => {
    const seed = defaultSeed();
    seed.mobile.groups = [{ name: 'qa' }, { name: 'beta' }, { name: 'public' }];
    seed.mobile.testers = [
      { email: 'alice@example.com', groups: ['qa'] },
      { email: 'bob@example.com', groups: ['beta'] },
      { email: 'carol@example.com', groups: ['public'] },
    ];
    emulator = await startEmulator({ port: 0, seed, clock: () => Date.now() + offsetMs });
    folder = await mkdtemp(path.join(os.tmpdir(), 'promote-build-'));
  });
  afterAll(async () => {
    await emulator?.close();
    await rm(folder, { recursive: true, force: true });
  });
  const connection = { 'api-key': 'demo-api-key', email: 'demo@example.com' };
  return {
    emulator: () => emulator!,
    advance: (ms) => {
      offsetMs += ms;
    },
    now: () => Date.now() + offsetMs,
    upload: async (groups = [], tags = []) => {
      uploads += 1;
      const file = path.join(folder, `app-${uploads}.apk`);
      await createSampleApk(file, {
        packageId: 'com.example.rollout',
        name: 'Rollout',
        version: `1.${uploads}`,
        versionCode: uploads,
      });
      const deps = testStepDeps();
      const client = createClient(
        {
          service: 'mobile',
          region: 'us-east-1',
          apiUrl: emulator!.url,
          apiKey: connection['api-key'],
          email: connection.email,
        },
        deps.logger,
      );
      try {
        const answer = await client.mobile.upload(file, { groups, tags });
        return { projectId: String(answer.project_id), buildId: String(answer.build_id) };
      } finally {
        await client.close();
      }
    },
    counters: async (buildId, counters) => {
      const answer = await fetch(`${emulator!.url}/_emulator/builds/${buildId}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(counters),
      });
      expect(answer.status).toBe(200);
    },
    step: async (values, signal) => {
      const inputs = readInputs(
        new InputReader(inputSource({ 'api-url': emulator!.url, ...connection, ...values }, { env: {} })),
      );
      const deps = testStepDeps({
        ci: { runUrl: 'https://github.com/acme/app/actions/runs/77' },
        workflow: { runNumber: '77' },
        ...(signal !== undefined ? { signal } : {}),
      });
      const client = createClient(inputs.connection, deps.logger);
      const before = (await journal(emulator!)).length;
      try {
        const result = await run(inputs, { ...deps, client });
        const requests = (await journal(emulator!)).slice(before);
        return { result, summary: wholeText(result.summary), deps, requests };
      } finally {
        await client.close();
      }
    },
  };
}
