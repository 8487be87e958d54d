/**
 * Whether a run is for a pull request from a fork, which files no issue: its own event's
 * (`CiContext.pullRequest.fromFork`), or the triggering run's of a `workflow_run` report.
 */
import { describe, expect, it } from 'vitest';
import { githubContext, triggeringRunOf } from '../../src/step/ci-context.ts';

const BASE = { full_name: 'acme/app' };
const ENV = { GITHUB_REPOSITORY: 'acme/app', GITHUB_SERVER_URL: 'https://github.com' };
const pullRequest = (head: unknown) => ({
  pull_request: { number: 3, head: { ref: 'feature', repo: head }, base: { ref: 'main', repo: BASE } },
});
const workflowRun = (event: string, head: unknown) => ({
  workflow_run: { id: 9, run_number: 4, event, head_repository: head, repository: BASE },
});

describe('a pull request from a fork', () => {
  it.each<[string, string, unknown, boolean | undefined]>([
    ['from a branch of the repository', 'pull_request', pullRequest(BASE), undefined],
    ['from a fork', 'pull_request', pullRequest({ full_name: 'someone/app', fork: true }), true],
    ['from a fork, named only', 'pull_request', pullRequest({ full_name: 'someone/app' }), true],
    ['whose fork was deleted', 'pull_request', pullRequest(null), true],
    [
      'pull_request_target from a fork',
      'pull_request_target',
      pullRequest({ full_name: 'x/y', fork: true }),
      true,
    ],
    ['whose head is not told', 'pull_request', pullRequest(undefined), undefined],
  ])('its own event, %s', (_, eventName, event, fork) => {
    const context = githubContext({ ...ENV, GITHUB_EVENT_NAME: eventName }, event);
    expect(context.pullRequest?.number).toBe(3);
    expect(context.pullRequest?.fromFork).toBe(fork);
  });

  it('a push or a schedule has no pull request at all', () => {
    expect(
      githubContext({ ...ENV, GITHUB_EVENT_NAME: 'schedule' }, { repository: BASE }).pullRequest,
    ).toBeUndefined();
  });

  it.each<[string, unknown, boolean | undefined]>([
    ['of a schedule', workflowRun('schedule', BASE), undefined],
    [
      'of a schedule, from another repository',
      workflowRun('schedule', { full_name: 'someone/app' }),
      undefined,
    ],
    ['of a pull request from a branch', workflowRun('pull_request', BASE), undefined],
    ['of a pull request from a fork', workflowRun('pull_request', { full_name: 'someone/app' }), true],
    ['of a pull request whose fork was deleted', workflowRun('pull_request', null), true],
  ])('a workflow_run report %s', (_, event, fork) => {
    const triggering = triggeringRunOf({ ...ENV, GITHUB_EVENT_NAME: 'workflow_run' }, event);
    expect(triggering?.runNumber).toBe('4');
    expect(triggering?.fromFork).toBe(fork);
  });
});
