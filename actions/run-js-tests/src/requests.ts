/**
 * The request that starts the JS tests, as a pure function of the inputs: the optional members
 * are sent only when their input is given, so that the service's defaults apply otherwise.
 */
import { optionalProperty, type WorkflowRun } from '@sauce-actions/action-kit';
import {
  attemptBuildNames,
  defaultBuildName,
  reportedRun,
} from '@sauce-actions/action-kit/test-run/build-names';
import type { JsTestPlatform, StartJsTestsParams } from '@sauce-actions/api';
import type { JsTestsInputs } from './inputs.ts';

export type StartInputs = Pick<
  JsTestsInputs,
  'url' | 'framework' | 'tunnelName' | 'build' | 'name' | 'tags' | 'maxDurationSeconds' | 'capabilities'
>;

/** The body of the start of `platforms` (every platform on a first attempt, the failed ones after). */
export function startRequest(inputs: StartInputs, platforms: readonly JsTestPlatform[]): StartJsTestsParams {
  return {
    platforms: [...platforms],
    url: inputs.url,
    framework: inputs.framework,
    ...optionalProperty('tunnelIdentifier', inputs.tunnelName),
    ...optionalProperty('build', inputs.build),
    ...optionalProperty('name', inputs.name),
    ...(inputs.tags.length > 0 ? { tags: inputs.tags } : {}),
    ...(inputs.maxDurationSeconds !== undefined ? { maxDuration: inputs.maxDurationSeconds } : {}),
    ...(Object.keys(inputs.capabilities).length > 0 ? { capabilities: inputs.capabilities } : {}),
  };
}

/** What the default build names start with. */
const BUILD_LABEL = 'JS tests';

/**
 * The build the jobs run in: `build`, else in a CI run one of the run and its attempt
 * (`JS tests #42.1 · k3f9x2ab`), which a report finds again; none in a terminal.
 */
export function runBuild(build: string | undefined, workflow: WorkflowRun): string | undefined {
  if (build !== undefined || workflow.key === undefined) return build;
  return defaultBuildName(BUILD_LABEL, workflow, new Date(0));
}

/** The builds a report gathers: `build`, else the default build of every attempt of the run so far. */
export function reportBuilds(build: string | undefined, workflow: WorkflowRun): string[] | undefined {
  return build !== undefined ? [build] : attemptBuildNames(BUILD_LABEL, reportedRun(workflow));
}
