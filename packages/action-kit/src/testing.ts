/**
 * Deps for tests of an action's `run`: a recording logger, a fresh signal, state in memory, and no
 * artifact service or tool cache unless a test gives its own. Not part of any bundle.
 */
import os from 'node:os';
import { memoryState, systemClock, type StepDeps, type ToolCache } from './deps.ts';
import { RequestPacer, REQUESTS_PER_SECOND } from './step/request-pacer.ts';
import { noIdToken } from './inputs/id-token.ts';
import { noGitHistory } from './step/git-history.ts';
import { recordingLogger, type RecordingLogger } from './step/logger.ts';

export interface TestStepDeps extends StepDeps {
  logger: RecordingLogger;
  state: ReturnType<typeof memoryState>;
}

const noToolCache: ToolCache = {
  find: async () => '',
  downloadTool: async (url) => {
    throw new Error(`no tool cache in this test (download of ${url})`);
  },
  extractTar: async () => {
    throw new Error('no tool cache in this test');
  },
  extractZip: async () => {
    throw new Error('no tool cache in this test');
  },
  cacheDir: async () => {
    throw new Error('no tool cache in this test');
  },
};

export function testStepDeps(overrides: Partial<StepDeps> = {}): TestStepDeps {
  return {
    logger: recordingLogger(),
    signal: new AbortController().signal,
    clock: systemClock,
    // The hosts' pace, on the clock a test gives.
    pacer: new RequestPacer(
      REQUESTS_PER_SECOND,
      () => (overrides.clock ?? systemClock).monotonic(),
      (ms, signal) => (overrides.clock ?? systemClock).sleep(ms, signal),
    ),
    workspace: process.cwd(),
    tempDir: os.tmpdir(),
    state: memoryState(),
    workflow: {},
    artifacts: {
      upload: async () => ({ outcome: 'unavailable', reason: 'this test has no artifact service' }),
    },
    tools: noToolCache,
    env: process.env,
    // No CI system, no repository, no ID token, unless a test gives its own.
    ci: {},
    git: noGitHistory,
    idToken: noIdToken,
    ...overrides,
  } as TestStepDeps;
}
