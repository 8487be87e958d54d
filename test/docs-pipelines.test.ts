/**
 * The pipelines docs/ci-pipelines.md gives for other CI systems, read from the document, parsed by
 * those systems' own tools so that they cannot drift from what the systems accept: the GitLab
 * pipeline with the template it includes, expanded and checked against GitLab's JSON schema by
 * gitlab-ci-local, and the CircleCI configuration by CircleCI's config parser. Then what no parser
 * checks: the upload needs the job that built the APK, the clones are quiet, and Sauce Connect's
 * cache is keyed by the version that is downloaded, the action's default. (The GitHub workflows are
 * checked by workflows.test.ts; the GitLab pipeline also runs, in e2e/gitlab-pipeline.test.ts.)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '@circleci/circleci-config-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import {
  actionDefault,
  docPipeline,
  GITLAB_TEMPLATE,
  gitlabDocJobs,
  gitlabTemplate,
  gitlabTemplateText,
  PLACEHOLDERS,
} from './support/doc-pipelines.ts';
import { gitlabCiLocal, gitlabProject, serveGitlabTemplate } from './support/gitlab-ci-local.ts';

const SC_VERSION = actionDefault('manage-tunnel', 'sc-version');
const QUIET_CLONE = /\bgit -c advice\.detachedHead=false clone --quiet --depth 1 --branch /;

let root: string;
let templates: { base: string; close(): Promise<void> };

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'docs-pipelines-'));
  templates = await serveGitlabTemplate();
});

afterAll(async () => {
  await templates?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

type GitlabJob = {
  extends?: unknown;
  needs?: { job: string }[];
  variables?: Record<string, string>;
  cache?: { key: string; paths: string[] }[];
  before_script?: string[];
  script?: string[];
  artifacts?: { when?: string; paths?: string[] };
};

/** gitlab-ci-local's `--preview` of a project holding `pipeline`: exit code, output and the expanded jobs. */
async function preview(name: string, pipeline: string | undefined, signal: AbortSignal) {
  const dir = path.join(root, name);
  await gitlabProject(dir, {
    templateBase: templates.base,
    repository: 'https://git.example.com/sauce-actions.git',
    ...(pipeline !== undefined ? { pipeline } : {}),
  });
  const run = await gitlabCiLocal(dir, ['--preview'], {}, [], signal);
  const expanded = run.code === 0 ? run.output.slice(run.output.indexOf('\n---\n') + 1) : '';
  return { ...run, jobs: (expanded ? parse(expanded) : {}) as Record<string, GitlabJob> };
}

/** Whether an expanded job runs the command line: the template's clone, or `$SAUCE_ACTIONS`. */
function runsCommandLine(job: GitlabJob): boolean {
  return /\.sauce-actions\b|\$SAUCE_ACTIONS\b/.test(
    [...(job.before_script ?? []), ...(job.script ?? [])].join('\n'),
  );
}

/**
 * The expanded jobs that run the command line but would lose its files: the results file,
 * Sauce Connect's log and downloaded assets, in `sauce-actions-output/`, kept whatever the outcome.
 */
function outputProblems(jobs: Record<string, GitlabJob>): string[] {
  const problems: string[] = [];
  for (const [name, job] of Object.entries(jobs)) {
    if (name.startsWith('.') || !runsCommandLine(job)) continue;
    if (job.artifacts?.when !== 'always') {
      problems.push(`${name}: artifacts kept when ${job.artifacts?.when ?? 'on_success'}, not always`);
    }
    if (!job.artifacts?.paths?.includes('sauce-actions-output/')) {
      problems.push(`${name}: sauce-actions-output/ not among the artifacts' paths`);
    }
  }
  return problems;
}

/**
 * gitlab-ci-local's previews take seconds each, more on a busy machine (15 s at a load of 30 on
 * two cores): bounded far from that, the test's signal stopping it at the bound.
 */
describe('GitLab: the pipeline of the document and the template it includes', { timeout: 120_000 }, () => {
  it('are valid by GitLab’s own schema, once expanded as GitLab does', async ({ signal }) => {
    const { code, output, jobs } = await preview('valid', undefined, signal);
    expect(code, output).toBe(0);
    expect(output).toMatch(/^json schema validated in /m);
    expect(Object.keys(jobs)).toEqual(
      expect.arrayContaining(['build-apk', 'release-upload', 'nightly-suite', 'suite-report']),
    );
    // The upload needs the job that builds the APK, which keeps it as an artifact.
    expect(jobs['release-upload']?.needs?.map((need) => need.job)).toEqual(['build-apk']);
    expect(jobs['build-apk']?.artifacts?.paths).toEqual(['app/build/outputs/apk/release/']);
    // Every job of the template's: a quiet clone of the tag, Sauce Connect cached by its version,
    // and the command line's files kept whatever the outcome.
    for (const name of ['release-upload', 'nightly-suite', 'suite-report']) {
      const job = jobs[name] as GitlabJob;
      expect(job.before_script?.join('\n'), name).toMatch(QUIET_CLONE);
      expect(job.variables?.SAUCE_CONNECT_VERSION, name).toBe(SC_VERSION);
      expect(
        job.cache?.map((cache) => cache.key),
        name,
      ).toEqual([`sauce-connect-${SC_VERSION}`]);
      expect(job.artifacts, name).toMatchObject({ when: 'always' });
      expect(job.artifacts?.paths, name).toContain('sauce-actions-output/');
    }
    expect(jobs['nightly-suite']?.script?.join('\n')).toContain('--sc-version "$SAUCE_CONNECT_VERSION"');
    // Every job that runs the command line keeps its files, whatever the outcome.
    expect(Object.keys(jobs).filter((name) => runsCommandLine(jobs[name] as GitlabJob))).toEqual([
      'release-upload',
      'nightly-suite',
      'suite-report',
    ]);
    expect(outputProblems(jobs)).toEqual([]);
  });

  it('every GitLab job the docs give on their own keeps sauce-actions-output/ whatever the outcome', async ({
    signal,
  }) => {
    // The pipeline's are checked with it above; the jobs the docs give on their own, here, in one
    // pipeline that includes the template, each named after its place in the docs, without their
    // needs, which name jobs of the reader's.
    const given = gitlabDocJobs();
    expect(given.length).toBeGreaterThan(0);
    const pipeline: Record<string, unknown> = {
      include: [
        {
          remote: `${PLACEHOLDERS.templateBase}v1/${GITLAB_TEMPLATE}`,
          inputs: { repository: PLACEHOLDERS.repository },
        },
      ],
      stages: [...new Set(['test', ...given.map(({ job }) => String(job.stage ?? 'test'))])],
    };
    for (const { source, name, job } of given) {
      const { needs: _needs, ...rest } = job;
      pipeline[`${name} at ${source}`] = rest;
    }
    const docJobs = await preview('doc-jobs', stringify(pipeline), signal);
    expect(docJobs.code, docJobs.output).toBe(0);
    const named = given.map(({ source, name }) => `${name} at ${source}`);
    expect(named.filter((name) => runsCommandLine(docJobs.jobs[name] as GitlabJob))).toEqual(named);
    expect(outputProblems(docJobs.jobs)).toEqual([]);
  });

  it('the template: its inputs, their defaults, and a quiet clone', () => {
    const { inputs, config } = gitlabTemplate();
    expect(Object.keys(inputs)).toEqual(['repository', 'version', 'sauce-connect-version']);
    expect(inputs.repository?.default).toBeUndefined();
    expect(inputs.version?.default).toBe('v1');
    expect(inputs['sauce-connect-version']?.default).toBe(SC_VERSION);
    expect(Object.keys(config)).toEqual(['.sauce-actions']);
    expect(gitlabTemplateText()).toMatch(QUIET_CLONE);
  });

  it('an include without the repository input is refused', async ({ signal }) => {
    const pipeline = docPipeline('.gitlab-ci.yml').replace(/^ {6}repository: .*\n/m, '');
    const { code, output } = await preview('no-repository', pipeline, signal);
    expect(code).not.toBe(0);
    expect(output).toContain('`repository` input: required value has not been provided');
  });

  it('a pipeline GitLab’s schema refuses fails the check', async ({ signal }) => {
    const pipeline = `${docPipeline('.gitlab-ci.yml')}\nbroken:\n  script: [echo]\n  artifacts:\n    when: sometimes\n`;
    const { code, output } = await preview('invalid', pipeline, signal);
    expect(code).not.toBe(0);
    expect(output).toContain('Invalid .gitlab-ci.yml configuration!');
    expect(output).toContain('(found sometimes) at broken.artifacts.when');
  });
});

type CircleStep = string | Record<string, Record<string, unknown> | string>;
interface CircleConfig {
  jobs: Record<string, { steps: CircleStep[] }>;
  workflows: Record<string, { jobs: (string | Record<string, { requires?: string[] }>)[] }>;
  parameters?: Record<string, { default?: unknown }>;
}

/** Jobs that attach a workspace without requiring, in their workflow, a job that persists one. */
function workspacesWithoutRequires(config: CircleConfig): string[] {
  const steps = (job: string): string[] =>
    (config.jobs[job]?.steps ?? []).map((step) =>
      typeof step === 'string' ? step : (Object.keys(step)[0] ?? ''),
    );
  const problems: string[] = [];
  for (const [name, workflow] of Object.entries(config.workflows)) {
    const requires = new Map<string, string[]>();
    for (const entry of workflow.jobs) {
      if (typeof entry === 'string') requires.set(entry, []);
      else for (const [job, options] of Object.entries(entry)) requires.set(job, options?.requires ?? []);
    }
    const upstream = (job: string, seen = new Set<string>()): Set<string> => {
      for (const required of requires.get(job) ?? []) {
        if (!seen.has(required)) upstream(required, seen.add(required));
      }
      return seen;
    };
    for (const job of requires.keys()) {
      if (!steps(job).includes('attach_workspace')) continue;
      if (![...upstream(job)].some((other) => steps(other).includes('persist_to_workspace'))) {
        problems.push(`${name}/${job} attaches a workspace but requires no job that persists one`);
      }
    }
  }
  return problems;
}

/**
 * Jobs that start Sauce Connect without `--sc-version`, or keep it in a cache whose key leaves out
 * that version: a new version would never be downloaded into a restored cache's place, or an old
 * one restored for it.
 */
function sauceConnectCacheProblems(config: CircleConfig): string[] {
  const problems: string[] = [];
  for (const [name, job] of Object.entries(config.jobs)) {
    const keys: string[] = [];
    const versions: string[] = [];
    for (const step of job.steps) {
      if (typeof step === 'string') continue;
      const save = step.save_cache as { key?: string } | undefined;
      const restore = step.restore_cache as { keys?: string[] } | undefined;
      keys.push(...(save?.key !== undefined ? [save.key] : []), ...(restore?.keys ?? []));
      const run = step.run as string | { command?: string } | undefined;
      const command = typeof run === 'string' ? run : (run?.command ?? '');
      for (const start of command.matchAll(/manage-tunnel --operation start(?:[^\n]*\\\n)*[^\n]*/g)) {
        const version = /--sc-version (<<[^>]*>>|\S+)/.exec(start[0])?.[1];
        if (version === undefined) problems.push(`${name} starts Sauce Connect without --sc-version`);
        else versions.push(version);
      }
    }
    if (versions.length > 0 && keys.length === 0) problems.push(`${name} keeps no cache of Sauce Connect`);
    for (const key of keys) {
      for (const version of versions) {
        if (!key.includes(version)) problems.push(`${name}: cache key ${key} leaves out ${version}`);
      }
    }
  }
  return problems;
}

describe('CircleCI: the configuration of the document', () => {
  const text = docPipeline('.circleci/config.yml');
  const config = parse(text) as CircleConfig;

  it('is parsed by CircleCI’s config parser: its jobs and workflows', () => {
    const parsed = parseConfig(text);
    expect(parsed.jobs.map((job) => job.name).sort()).toEqual([
      'build-apk',
      'nightly-suite',
      'release-upload',
    ]);
    expect(parsed.workflows.map((workflow) => workflow.name).sort()).toEqual(['nightly', 'release']);
  });

  it('each job that attaches a workspace requires the job that persists it', () => {
    expect(workspacesWithoutRequires(config)).toEqual([]);
  });

  it('Sauce Connect is cached under a key with the version each start downloads, the action’s default', () => {
    expect(sauceConnectCacheProblems(config)).toEqual([]);
    expect(text).toContain('--sc-version << pipeline.parameters.sauce-connect-version >>');
    expect(config.parameters?.['sauce-connect-version']?.default).toBe(SC_VERSION);
  });

  it('clones sauce-actions quietly', () => {
    expect(text).toMatch(QUIET_CLONE);
    expect(text).not.toMatch(/git clone/);
  });

  it('the checks can fail: no requires, a key without the version, a step the parser does not know', () => {
    const withoutRequires = parse(text.replace(/^ {10}requires: \[build-apk\]\n/m, '')) as CircleConfig;
    expect(workspacesWithoutRequires(withoutRequires)).toEqual([
      'release/release-upload attaches a workspace but requires no job that persists one',
    ]);
    const unversioned = parse(
      text.replaceAll('sauce-connect-<< pipeline.parameters.sauce-connect-version >>-', 'sauce-connect-v1-'),
    ) as CircleConfig;
    expect(sauceConnectCacheProblems(unversioned)).toEqual([
      'nightly-suite: cache key sauce-connect-v1-{{ arch }} leaves out << pipeline.parameters.sauce-connect-version >>',
      'nightly-suite: cache key sauce-connect-v1-{{ arch }} leaves out << pipeline.parameters.sauce-connect-version >>',
    ]);
    const unpinned = parse(text.replace(/ \\\n *--sc-version [^\n]*>>/, '')) as CircleConfig;
    expect(sauceConnectCacheProblems(unpinned)).toEqual([
      'nightly-suite starts Sauce Connect without --sc-version',
    ]);
    expect(() => parseConfig(text.replace('- checkout', '- checkout-the-code'))).toThrow();
  });
});
