/** Whether a run is for a pull request from a fork, which files no issue: its own event's, or a triggering run's. */
import { describe, expect, it } from 'vitest';
import { fromFork } from '../../src/hosts/github-issues.ts';

const BASE = { full_name: 'acme/app' };
const pullRequest = (head: unknown) => ({
  pull_request: { number: 3, head: { ref: 'feature', repo: head }, base: { ref: 'main', repo: BASE } },
});
const workflowRun = (event: string, head: unknown) => ({
  workflow_run: { id: 9, run_number: 4, event, head_repository: head, repository: BASE },
});

describe('fromFork', () => {
  it.each<[string, string, unknown, boolean]>([
    ['a schedule', 'schedule', { repository: BASE }, false],
    ['a push', 'push', {}, false],
    ['a pull request from a branch of the repository', 'pull_request', pullRequest(BASE), false],
    [
      'a pull request from a fork',
      'pull_request',
      pullRequest({ full_name: 'someone/app', fork: true }),
      true,
    ],
    [
      'a pull request from a fork, named only',
      'pull_request',
      pullRequest({ full_name: 'someone/app' }),
      true,
    ],
    ['a pull request whose fork was deleted', 'pull_request', pullRequest(null), true],
    [
      'pull_request_target from a fork',
      'pull_request_target',
      pullRequest({ full_name: 'x/y', fork: true }),
      true,
    ],
    ['a pull request whose head is not told', 'pull_request', pullRequest(undefined), false],
    ['workflow_run of a schedule', 'workflow_run', workflowRun('schedule', BASE), false],
    [
      'workflow_run of a pull request from a branch',
      'workflow_run',
      workflowRun('pull_request', BASE),
      false,
    ],
    [
      'workflow_run of a pull request from a fork',
      'workflow_run',
      workflowRun('pull_request', { full_name: 'someone/app' }),
      true,
    ],
    [
      'workflow_run of a pull request whose fork was deleted',
      'workflow_run',
      workflowRun('pull_request', null),
      true,
    ],
    ['workflow_run without its run', 'workflow_run', {}, false],
    ['no event at all', 'pull_request', undefined, false],
  ])('%s: %s', (_, eventName, event, fork) => {
    expect(fromFork({ GITHUB_EVENT_NAME: eventName }, event)).toBe(fork);
  });
});
