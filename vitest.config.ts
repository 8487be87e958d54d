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

const ALL = ['packages/*/test/**/*.test.ts', 'actions/*/test/**/*.test.ts', 'test/**/*.test.ts'];

/**
 * What the quick loop (`npm run test:quick`) leaves out: the files that run the bundles or other
 * processes (the command line, the emulator's command, stand-ins of Sauce Connect, git, esbuild),
 * or wait seconds on jobs, polls, rate limits and cancellations.
 */
const SLOW = [
  'test/e2e/**/*.test.ts',
  'test/bundles.test.ts',
  'test/release.test.ts',
  'packages/action-harness/test/**/*.test.ts',
  'packages/api/test/core/pacing-emulator.test.ts',
  'packages/emulator/test/core/cli.test.ts',
  'packages/emulator/test/mobile/large-upload.test.ts',
  'actions/manage-tunnel/test/{download,operations,post,run,same-name,start,start-through-run}.test.ts',
  'actions/run-js-tests/test/{retries,run-reporting,shards}.test.ts',
  'actions/run-suite-and-wait/test/{assets-tampering,e2e,fail-fast,report-scale,rerun,retries,run-cancel,run-reporting,shards}.test.ts',
  'test/engine-scenarios/{notify,post-step,reporting,retries,starts-cut-short,waits-cut-short}.test.ts',
  // Each promotion lets its claim stand for two seconds.
  'actions/promote-build/test/{idempotent,run}.test.ts',
];

/**
 * Files that run the GitHub host in this process: it keeps maskers, signal handlers and the exit
 * code for the whole process, and the files stub its environment and standard output.
 */
const OWN_WORKER = [
  'packages/action-kit/test/hosts/github-host.test.ts',
  'packages/action-kit/test/reporting/log-text.test.ts',
];

/**
 * The files that take longest (eight seconds and more each, mostly waiting), longest first: they
 * start first, so that none is left running alone at the end. From the durations of a run on a
 * 2-core machine; a file missing here only starts later.
 */
const LONGEST = [
  // Packs the command line, installs Node 22 from the registry, and installs and runs the package.
  'test/e2e/cli-package.test.ts',
  'test/e2e/shared-account.test.ts',
  'test/e2e/job-assets-artifacts.test.ts',
  'packages/api/test/core/pacing-emulator.test.ts',
  'test/e2e/github-limits.test.ts',
  // Four nights, a matrix, and webhooks that fail (one holds its answer to the post's deadline).
  'test/e2e/notify-nights.test.ts',
  // Nights of the suite one after another, compared with their history.
  'test/e2e/history-series.test.ts',
  'test/e2e/history-nights.test.ts',
  'test/e2e/history-quarantine.test.ts',
  'test/e2e/cli-history-gitlab.test.ts',
  'test/e2e/shard-report.test.ts',
  'actions/promote-build/test/idempotent.test.ts',
  'test/e2e/issues-nights.test.ts',
  'test/e2e/report-faults.test.ts',
  'test/e2e/local-action.test.ts',
  'test/e2e/fault-matrix/cancellations.test.ts',
  'test/e2e/pr-comment.test.ts',
  'actions/manage-tunnel/test/download.test.ts',
  'test/e2e/hostile-answers.test.ts',
  'test/e2e/https-proxy.test.ts',
  'actions/manage-tunnel/test/start.test.ts',
  'test/engine-scenarios/waits-cut-short.test.ts',
  'test/engine-scenarios/post-step.test.ts',
  'test/e2e/fault-matrix/retried-reads.test.ts',
  'test/engine-scenarios/starts-cut-short.test.ts',
  'test/e2e/fault-matrix/posts-sent-once.test.ts',
  'test/e2e/answer-shapes.test.ts',
  'test/e2e/fault-matrix/refused-inputs.test.ts',
  'actions/run-suite-and-wait/test/fail-fast.test.ts',
  'actions/run-suite-and-wait/test/e2e.test.ts',
  'test/e2e/workflow-pipeline.test.ts',
];

/**
 * Longest first, across the projects: by the durations of vitest's last run when it has them for
 * every file (`node_modules/.vite`), else, on a fresh clone as in CI, by `LONGEST`, then the rest
 * of the slow project, then the quick one, each in vitest's order (the largest files first).
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const last = (file: TestSpecification) => this.ctx.cache.getTestSpecificationResult(file);
    if (files.every((file) => last(file))) {
      return sorted.sort((a, b) => (last(b)?.duration ?? 0) - (last(a)?.duration ?? 0));
    }
    const rank = (file: TestSpecification): number => {
      const name = path.relative(this.ctx.config.root, file.moduleId).split(path.sep).join('/');
      const index = LONGEST.indexOf(name);
      if (index !== -1) return index;
      return file.project.name === 'slow' ? LONGEST.length : LONGEST.length + 1;
    };
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

/** After each file, the processes its tests started and left running are ended (and fail it). */
const END_PROCESSES = 'test/support/end-processes.ts';

/**
 * A worker runs file after file without starting again (a new one per file costs ~170 ms of CPU,
 * more than most files take); the setup file puts back the state the kit keeps per process.
 */
const SHARED_WORKER = { isolate: false, setupFiles: ['test/support/shared-worker.ts', END_PROCESSES] };

/**
 * The limits of a test and of a hook: safety nets for a test that hangs, far above what the
 * slowest test takes when every core of a 2-core machine is kept busy by other processes (ten
 * times what it takes on an idle one). No test relies on them: a test waits for events, and one
 * that reaches its limit still has what it started ended after its file.
 */
const SAFETY_NET_MS = 300_000;

export default defineConfig({
  test: {
    testTimeout: SAFETY_NET_MS,
    hookTimeout: SAFETY_NET_MS,
    // Marks the run's processes, and fails the run on one still running after it.
    globalSetup: ['test/support/leftover-processes.ts'],
    pool: 'forks',
    maxWorkers: WORKERS,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'quick',
          include: ALL,
          exclude: [...configDefaults.exclude, ...SLOW, ...OWN_WORKER],
          ...SHARED_WORKER,
        },
      },
      {
        extends: true,
        test: { name: 'quick-own-worker', include: OWN_WORKER, setupFiles: [END_PROCESSES] },
      },
      { extends: true, test: { name: 'slow', include: SLOW, ...SHARED_WORKER } },
    ],
  },
});
