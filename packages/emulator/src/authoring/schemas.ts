/** JSON schemas of the authoring routes' paths, queries and bodies (a mismatch answers 400). */
import { HEX_ID_PATTERN, UUID_PATTERN } from './ids.ts';

const hexId = { type: 'string', pattern: HEX_ID_PATTERN } as const;
const uuid = { type: 'string', pattern: UUID_PATTERN } as const;
const name = { type: 'string', minLength: 1, pattern: '\\S' } as const;
/** Query dates: a day or a full ISO 8601 date and time. */
const queryDate = { type: 'string', anyOf: [{ format: 'date' }, { format: 'date-time' }] } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const idList = <const Item extends object>(item: Item) =>
  ({ type: 'array', items: item, uniqueItems: true }) as const;

export const hexIdParams = {
  type: 'object',
  required: ['id'],
  properties: { id: hexId },
} as const;

export const revisionParams = {
  type: 'object',
  required: ['id', 'revisionId'],
  properties: { id: hexId, revisionId: hexId },
} as const;

export const uuidParams = {
  type: 'object',
  required: ['id'],
  properties: { id: uuid },
} as const;

const commonQuery = {
  search: { type: 'string' },
  startDate: queryDate,
  endDate: queryDate,
  userId: uuid,
  teamId: uuid,
  skip: { type: 'integer', minimum: 0, default: 0 },
  // No maximum here: a larger limit is served as the largest page (filters.ts).
  limit: { type: 'integer', minimum: 0 },
} as const;

export const testCaseListQuery = {
  type: 'object',
  properties: {
    ...commonQuery,
    // The text `null` selects the cases assigned to no suite.
    testSuiteId: { type: 'array', items: { anyOf: [uuid, { const: 'null' }] } },
  },
} as const;

export const suiteListQuery = {
  type: 'object',
  properties: { ...commonQuery, ids: { type: 'array', items: uuid } },
} as const;

export const scheduleListQuery = {
  type: 'object',
  properties: {
    ...commonQuery,
    ids: { type: 'array', items: uuid },
    testSuiteIds: { type: 'array', items: uuid },
  },
} as const;

const target = {
  type: 'object',
  required: ['capabilities'],
  properties: { capabilities: { type: 'object' }, isRdc: { type: 'boolean' } },
} as const;

export const caseRunBody = {
  type: 'object',
  properties: {
    buildName: name,
    // An empty list names no target: it is refused rather than read as "use the case's own".
    targets: { type: 'array', items: target, minItems: 1 },
    scTunnelName: { type: ['string', 'null'], minLength: 1 },
  },
} as const;

export const renameBody = {
  type: 'object',
  required: ['name'],
  properties: { name },
} as const;

/** The seed leaves required members open: a suite needs a name; its cases may come later. */
export const suiteCreateBody = {
  type: 'object',
  required: ['name'],
  properties: { name, testCases: idList(hexId), tags: { type: 'array', items: { type: 'string' } } },
} as const;

/** The seed counts a missing case list among the update's 400s, so `testCaseIds` is required. */
export const suiteUpdateBody = {
  type: 'object',
  required: ['testCaseIds'],
  properties: { name, testCaseIds: idList(hexId), tags: { type: 'array', items: { type: 'string' } } },
} as const;

export const suiteDeleteBody = {
  type: 'object',
  properties: { deleteTestCases: { type: 'boolean' } },
} as const;

export const suiteDeleteQuery = {
  type: 'object',
  properties: { deleteTestCases: { type: 'boolean' } },
} as const;

export const suiteRunBody = {
  type: 'object',
  properties: { buildName: name, scTunnelName: { type: ['string', 'null'], minLength: 1 } },
} as const;

const stateName = { type: 'string', enum: ['ENABLED', 'DISABLED'] } as const;

const settingsMembers = {
  cron: { type: 'string', minLength: 1 },
  timezone: { type: 'string', minLength: 1 },
  runningUserId: uuid,
} as const;

export const scheduleCreateBody = {
  type: 'object',
  properties: {
    name,
    settings: {
      type: 'object',
      required: ['cron', 'timezone', 'runningUserId'],
      properties: {
        ...settingsMembers,
        startDate: dateTime,
        endDate: dateTime,
        maxRuns: { type: 'integer', minimum: 1 },
        scTunnelName: { type: 'string', minLength: 1 },
        buildName: name,
      },
    },
    testSuiteIds: idList(uuid),
    stateName,
  },
} as const;

/** On update every settings member is optional, and the optional ones may be null to clear them. */
export const scheduleUpdateBody = {
  type: 'object',
  properties: {
    name,
    settings: {
      type: 'object',
      properties: {
        ...settingsMembers,
        startDate: { type: ['string', 'null'], format: 'date-time' },
        endDate: { type: ['string', 'null'], format: 'date-time' },
        maxRuns: { type: ['integer', 'null'], minimum: 1 },
        scTunnelName: { type: ['string', 'null'], minLength: 1 },
        buildName: { type: ['string', 'null'], minLength: 1, pattern: '\\S' },
      },
    },
    testSuiteIds: idList(uuid),
    stateName,
  },
} as const;
