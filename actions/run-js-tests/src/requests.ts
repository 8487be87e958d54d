/**
 * The request that starts the JS tests, as a pure function of the inputs: the optional members
 * are sent only when their input is given, so that the service's defaults apply otherwise.
 */
import { optionalProperty } from '@sauce-actions/action-kit';
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
