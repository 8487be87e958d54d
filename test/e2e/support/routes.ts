/**
 * The paths the steps call on the emulator (the default seed's `demo` account and its Smoke
 * suite), for fault rules and for reading the journal.
 */
const SMOKE_ID = '3e0a6b2d-8c41-4f7a-9b5e-6d2c1a0f9e01';
export const SUITES = '/v1/ai-authoring/testsuites';
export const CASES = '/v1/ai-authoring/testcases';
export const SUITE_RUN = `/v1/ai-authoring/testsuites/${SMOKE_ID}/run`;
export const JOBS = '/rest/v1/demo/jobs';
export const JOB_STOP = /^\/rest\/v1\/demo\/jobs\/[0-9a-f]{32}\/stop$/;
export const JS_START = '/rest/v1/demo/js-tests';
export const JS_STATUS = '/rest/v1/demo/js-tests/status';
export const TUNNELS = '/rest/v1/demo/tunnels';
export const TUNNEL_DELETE = /^\/rest\/v1\/demo\/tunnels\/[^/]+$/;
export const UPLOAD = '/api/upload/';
export const GROUPS = '/api/1/testers/groups';
export const TESTERS = '/api/1/testers/';
export const INVITES = '/api/1/projects/1/builds/1/invites/';
