/** Identifiers of the default seed's authoring objects, as tests refer to them. */
export {
  DEMO_TEAM_ID,
  DEMO_USER_ID,
  NIGHTLY_SCHEDULE_ID,
  QA_TEAM_ID,
  REGRESSION_CASE_IDS,
  REGRESSION_SUITE_ID,
  SCREENSHOT_ARTIFACT_ID,
  SERVICE_USER_ID,
  SMOKE_CASE_IDS,
  SMOKE_SUITE_ID,
  UNASSIGNED_CASE_IDS,
  WEEKLY_SCHEDULE_ID,
} from '../../src/authoring/seed.ts';

/** Cases of the seed outside `Regression` (the three of `Smoke` and two unassigned), and in all. */
export const OTHER_SEED_CASES = 5;
export const SEED_CASES = 17;

export const UNKNOWN_HEX = 'aaaaaaaaaaaaaaaaaaaaaaaa';
export const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
export const HEX = /^[0-9a-f]{24}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
