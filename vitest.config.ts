import os from 'node:os';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The tests mostly wait (emulator jobs, polls, rate limits, the bundles' processes) rather than
 * compute, so one worker per core, vitest's default, leaves the cores idle: three a core keep
 * them busy.
 */
const WORKERS = Math.max(4, os.availableParallelism() * 3);

/**
 * The files that take longest (ten seconds and more each, mostly waiting: rate limits, jobs, the
 * bundles' processes), longest first: they start first, so that none is left running alone at the
 * end. vitest orders files by the durations of its last run when it has them
 * (`node_modules/.vite`), but on a fresh clone, as in CI, it knows none and would start the
 * largest files first, whatever they wait for.
 */
const LONGEST = [
  'test/e2e/shared-account.test.ts',
  'test/e2e/fault-matrix.test.ts',
  'packages/api/test/core/pacing-emulator.test.ts',
  'actions/run-suite-and-wait/test/matrix.test.ts',
  'actions/manage-tunnel/test/start.test.ts',
  'test/e2e/cli.test.ts',
  'test/e2e/pr-comment.test.ts',
  'actions/run-js-tests/test/run.test.ts',
  'actions/run-suite-and-wait/test/run.test.ts',
  'test/e2e/hostile-answers.test.ts',
  'test/e2e/https-proxy.test.ts',
  'actions/manage-tunnel/test/download.test.ts',
  'actions/run-js-tests/test/post.test.ts',
  'actions/run-js-tests/test/e2e.test.ts',
  'actions/run-suite-and-wait/test/e2e.test.ts',
  'test/e2e/answer-shapes.test.ts',
  'test/e2e/workflow-pipeline.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    if (files.every((file) => this.ctx.cache.getTestSpecificationResult(file))) return sorted;
    const rank = (file: TestSpecification): number => {
      const name = path.relative(this.ctx.config.root, file.moduleId).split(path.sep).join('/');
      const index = LONGEST.indexOf(name);
      return index === -1 ? LONGEST.length : index;
    };
    // A stable sort: the other files keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * Files that run the GitHub host in this process: it keeps maskers, signal handlers and the exit
 * code for the whole process, and the files stub its environment and standard output.
 */
const OWN_WORKER = [
  'packages/action-kit/test/github-host.test.ts',
  'packages/action-kit/test/log-text.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    maxWorkers: WORKERS,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'tests',
          include: ['packages/*/test/**/*.test.ts', 'actions/*/test/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...OWN_WORKER],
          // A worker runs file after file without starting again (a new one costs ~170 ms of CPU
          // per file); the setup file puts back the state the kit keeps per process.
          isolate: false,
          setupFiles: ['test/support/shared-worker.ts'],
        },
      },
      { extends: true, test: { name: 'own-worker', include: OWN_WORKER } },
    ],
  },
});
