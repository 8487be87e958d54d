/**
 * The repository the end-to-end steps run for, and the event of one of its pull requests, for the
 * steps that write to the stand-in for GitHub's REST interface.
 */
import type { StepOptions } from '@sauce-actions/action-harness';

export const REPOSITORY = 'example/sauce-app';

/**
 * A `pull_request` event's payload (`synchronize`, from `feature` into `main`), as the runner writes
 * it to GITHUB_EVENT_PATH; with `headSha`, the head commit a check run is written on.
 */
export function pullRequestEvent(number: number, headSha?: string): StepOptions['event'] {
  const head = { ref: 'feature', ...(headSha !== undefined ? { sha: headSha } : {}) };
  return {
    action: 'synchronize',
    number,
    pull_request: { number, head, base: { ref: 'main' } },
    repository: { name: 'sauce-app', owner: { login: 'example' } },
  };
}
