/**
 * Nights of the Regression suite through the built command line with GitLab's variables, against
 * one emulator whose `Case 03` passes, fails twice and passes again: each night's JSON outputs and
 * results file class it against the pipelines before it on `main` (new, still failing, fixed), a
 * job retried in the same pipeline is compared with the pipelines before that one and not with its
 * own first try, `fail-on: new` fails only for a new failure, and a merge request's pipeline is
 * compared with `main` (its own new failure, Case 05) and keeps no record of its own. Each night
 * with a new failure or a fix sends its one message to `--notify-url`; `--issues` is said to be
 * GitHub's only.
 */
import { readFile } from 'node:fs/promises';
import { startWebhookReceiver, type WebhookReceiver } from '@sauce-actions/action-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaked, SAUCE_ENV, useCliTerminal, type CliRun } from './support/cli.ts';

const terminal = useCliTerminal();
const { cli, workspace } = terminal;

/** Where each night's message goes, and how many each night sent. */
let hook: WebhookReceiver;
const messages: number[] = [];
beforeAll(async () => {
  hook = await startWebhookReceiver();
});
afterAll(() => hook.close());

const SERVER = 'https://gitlab.example.com';
const PROJECT = `${SERVER}/acme/shop`;

/** The variables GitLab gives a job of pipeline `id` (its number in the project `iid`) on `main`. */
function pipeline(id: number, iid: number): Record<string, string> {
  return {
    ...SAUCE_ENV,
    GITLAB_CI: 'true',
    CI: 'true',
    CI_SERVER_URL: SERVER,
    CI_PROJECT_ID: '311',
    CI_PROJECT_URL: PROJECT,
    CI_PIPELINE_ID: String(id),
    CI_PIPELINE_IID: String(iid),
    CI_PIPELINE_URL: `${PROJECT}/-/pipelines/${id}`,
    CI_PIPELINE_SOURCE: 'schedule',
    CI_COMMIT_BRANCH: 'main',
    CI_DEFAULT_BRANCH: 'main',
  };
}

/** A merge request's pipeline: its source branch, no CI_COMMIT_BRANCH. */
function mergeRequestPipeline(id: number, iid: number): Record<string, string> {
  const { CI_COMMIT_BRANCH: _branch, ...variables } = pipeline(id, iid);
  return {
    ...variables,
    CI_PIPELINE_SOURCE: 'merge_request_event',
    CI_MERGE_REQUEST_IID: '7',
    CI_MERGE_REQUEST_TITLE: 'Faster checkout',
    CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'faster-checkout',
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
  };
}

interface Night {
  run: CliRun;
  outputs: Record<string, unknown>;
  /** The results file's classes of Case 03 and Case 05, and the numbers of the runs compared with. */
  case03: { class: string; outcome: string } | undefined;
  case05: { class: string; outcome: string } | undefined;
  compared: string[];
}

async function night(variables: Record<string, string>): Promise<Night> {
  const sentBefore = hook.received.length;
  const run = await cli(
    [
      'run-suite-and-wait',
      '--suite',
      'Regression',
      '--json',
      '--fail-on',
      'new',
      '--poll-interval',
      '1s',
      '--api-url',
      terminal.lab.url,
      '--notify-url',
      hook.url,
      '--issues',
      'new',
    ],
    variables,
  );
  messages.push(hook.received.length - sentBefore);
  const outputs = JSON.parse(run.stdout) as Record<string, unknown>;
  const results = JSON.parse(await readFile(String(outputs['results-file']), 'utf8')) as {
    history: { compared: { number?: string }[]; items: { name: string; class: string; outcome: string }[] };
  };
  return {
    run,
    outputs,
    case03: results.history.items.find((item) => item.name === 'Case 03'),
    case05: results.history.items.find((item) => item.name === 'Case 05'),
    compared: results.history.compared.map((run) => run.number ?? '?'),
  };
}

/** The counts of the classes in a night's outputs. */
function classes(outputs: Record<string, unknown>): Record<string, unknown> {
  return {
    'new-failures': outputs['new-failures'],
    'still-failing': outputs['still-failing'],
    fixed: outputs['fixed'],
  };
}

async function script(testCase: string, outcomes: string[]): Promise<void> {
  const response = await fetch(`${terminal.lab.url}/_emulator/outcomes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ testCase, outcomes }),
  });
  expect(response.status).toBe(200);
}

describe('run-suite-and-wait --json on GitLab, night after night', () => {
  beforeAll(workspace);

  it('classes Case 03 new, still failing and fixed against the pipelines before, a retry and a merge request included', async () => {
    // Nights 1 to 4, night 2's job retried, then the merge request, which breaks Case 05;
    // Case 07 (flaky as seeded) passes.
    await script('Case 03', ['passed', 'failed', 'failed', 'failed', 'passed', 'passed']);
    await script('Case 05', ['passed', 'passed', 'passed', 'passed', 'passed', 'failed']);
    await script(
      'Case 07',
      Array.from({ length: 6 }, () => 'passed'),
    );

    const first = await night(pipeline(9001, 1));
    expect(first.run.code, first.run.stderr).toBe(0);
    expect(classes(first.outputs)).toEqual({ 'new-failures': 0, 'still-failing': 0, fixed: 0 });
    expect(first.case03?.class).toBe('passed');
    expect(first.compared).toEqual([]);

    const second = await night(pipeline(9002, 2));
    expect(second.run.code, second.run.stderr).toBe(1);
    expect(classes(second.outputs)).toEqual({ 'new-failures': 1, 'still-failing': 0, fixed: 0 });
    expect(second.case03).toMatchObject({ class: 'new', outcome: 'failed' });
    expect(second.compared).toEqual(['1']);

    // GitLab's "Retry" runs the job again in the same pipeline: still new against pipeline 1.
    const retried = await night(pipeline(9002, 2));
    expect(retried.run.code, retried.run.stderr).toBe(1);
    expect(classes(retried.outputs)).toEqual({ 'new-failures': 1, 'still-failing': 0, fixed: 0 });
    expect(retried.compared).toEqual(['1']);

    // Failing already: reported, and with `--fail-on new` it does not fail the pipeline.
    const third = await night(pipeline(9003, 3));
    expect(third.run.code, third.run.stderr).toBe(0);
    expect(classes(third.outputs)).toEqual({ 'new-failures': 0, 'still-failing': 1, fixed: 0 });
    expect(third.case03).toMatchObject({ class: 'still-failing', outcome: 'failed' });
    expect(third.compared).toEqual(['2', '1']);

    const fourth = await night(pipeline(9004, 4));
    expect(fourth.run.code, fourth.run.stderr).toBe(0);
    expect(classes(fourth.outputs)).toEqual({ 'new-failures': 0, 'still-failing': 0, fixed: 1 });
    expect(fourth.case03).toMatchObject({ class: 'fixed', outcome: 'passed' });
    expect(fourth.compared).toEqual(['3', '2', '1']);

    // A merge request's pipeline: compared with main's pipelines, never recorded for later ones.
    const merge = await night(mergeRequestPipeline(9005, 5));
    expect(merge.run.code, merge.run.stderr).toBe(1);
    expect(classes(merge.outputs)).toEqual({ 'new-failures': 1, 'still-failing': 0, fixed: 0 });
    expect(merge.compared).toEqual(['4', '3', '2', '1']);
    expect(merge.case05).toMatchObject({ class: 'new', outcome: 'failed' });
    const recorded = terminal.lab
      .jobs()
      .filter((job) => job.tags.some((tag) => tag.startsWith('sauce-actions-history:')));
    // One record a pipeline of main: night 2's retry kept its own, the merge request none.
    expect(recorded).toHaveLength(5);

    for (const each of [first, second, retried, third, fourth, merge]) {
      expect(leaked(each.run.stdout, each.run.stderr)).toEqual([]);
      expect(`${each.run.stdout}${each.run.stderr}`).not.toContain(hook.secret);
    }
    // With notify-on's default, change: a message each night a case turned new or fixed.
    expect(messages).toEqual([0, 1, 1, 0, 1, 1]);
    // GitLab has no GitHub issues: said on each night of main that had a new failure to file (a
    // merge request's new failure is its own, and is not filed).
    const said = (run: CliRun) => run.stderr.includes("`issues` files GitHub issues only on GitHub's runner");
    expect([first, second, retried, third, fourth, merge].map((each) => said(each.run))).toEqual([
      false,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
