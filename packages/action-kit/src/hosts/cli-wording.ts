/**
 * The inputs' help in the command line's own terms. An `action.yml` speaks of the runner, the
 * workspace, the step and GitHub's permissions; on the command line the same input works from the
 * current folder, in one command, and some inputs have nothing to act on. The help says so here,
 * with the command line's defaults and environment fallbacks, and leaves `action.yml` as GitHub
 * reads it.
 */
import type { ActionMetadata } from './action-metadata.ts';
import { ENVIRONMENT_FALLBACKS } from './cli-args.ts';

type InputMetadata = ActionMetadata['inputs'][string];

/** Inputs that only GitHub gives something to act on: what the command line does instead. */
const GITHUB_ONLY: Readonly<Record<string, string>> = {
  'pr-comment':
    'GitHub Actions only (a pull-request comment): the command line writes none, and a warning says so.',
  'check-name':
    "GitHub Actions only (a check run): the command line writes none, and a warning says so; publish --junit-file as the CI system's test report instead.",
  'pull-request': 'GitHub Actions only: the pull request of `pr-comment` and `check-name`.',
  'github-token': 'GitHub Actions only: the token of `pr-comment` and `check-name`.',
  oidc: "GitHub Actions only (the job's own ID token): the command line has none to fetch and refuses `--oidc github`; pass the CI system's OIDC token in --oidc-token instead, with --oidc-config-key.",
  'oidc-audience': 'GitHub Actions only, with `oidc: github`.',
  'retention-days':
    "GitHub Actions only (how long an artifact is kept): the command line uploads no artifact; its files stay in the run's folder for the CI system to keep.",
};

/** The words of `action.yml` that mean something else on the command line, and theirs. */
const REWORDING: readonly (readonly [RegExp, string])[] = [
  [/relative to the workspace/g, 'relative to the current folder'],
  [/\bon the runner\b/g, 'on this machine'],
  [/\bfor the runner\b/g, 'for this machine'],
  [/\(store it as a secret\)/g, "(keep it in the CI system's secret variables, not on the command line)"],
  [/\(the post step stops what a killed step left\)/g, '(and on SIGINT or SIGTERM)'],
  [/\bthe post step stops\b/g, 'the command stops'],
  [/\bwhen the job ends\b/g, 'when the command ends'],
  [/keeps the step green/g, 'exits 0'],
  [
    /Use it in a job that `needs:` the shards, with `if: always\(\)`\./g,
    'Run it after the shards, whatever they ended with.',
  ],
  [/\bthe step's result\b/g, "the command's result"],
  [/\bthis step\b/g, 'this command'],
  [/\bthe step\b/g, 'the command'],
];

/** What the help says of an input on the command line. */
export function commandLineDescription(name: string, input: InputMetadata): string {
  const githubOnly = Object.hasOwn(GITHUB_ONLY, name) ? GITHUB_ONLY[name] : undefined;
  if (githubOnly !== undefined) return githubOnly;
  return reworded(input.description);
}

/** A description of `action.yml` in the command line's words. */
export function reworded(text: string): string {
  return REWORDING.reduce((result, [words, instead]) => result.replace(words, instead), text);
}

/** The input's default on the command line: its environment variable, else `action.yml`'s. */
export function commandLineDefault(name: string, input: InputMetadata): string | undefined {
  if (Object.hasOwn(GITHUB_ONLY, name)) return undefined;
  const fallback = Object.hasOwn(ENVIRONMENT_FALLBACKS, name) ? ENVIRONMENT_FALLBACKS[name] : undefined;
  if (fallback !== undefined)
    return `the environment variable ${fallback.variable}, else ${fallback.otherwise}`;
  return input.default === undefined ? undefined : input.default === '' ? '(empty)' : input.default;
}
