/**
 * JSON schemas of the mobile routes' paths and queries, from which the handlers take their types.
 * They only name what the routes read: ids in paths stay text, checked by the handlers, and query
 * values stay untyped, since a repeated name comes as a list that the handlers' own checks answer
 * with the service's code and message rather than Fastify's. Bodies (form or JSON) are read by
 * `routes/body.ts`.
 */

const pathText = { type: 'string' } as const;
const anyValue = {} as const;

/** Path members, every one required. */
function pathOf<const Names extends readonly string[]>(...names: Names) {
  return {
    type: 'object',
    required: names,
    properties: Object.fromEntries(names.map((name) => [name, pathText])) as {
      [Name in Names[number]]: typeof pathText;
    },
  } as const;
}

/** Query members, none required, of any value. */
function queryOf<const Names extends readonly string[]>(...names: Names) {
  return {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, anyValue])) as {
      [Name in Names[number]]: typeof anyValue;
    },
  } as const;
}

export const projectParams = pathOf('projectId');
export const buildParams = pathOf('projectId', 'buildId');
export const groupParams = pathOf('groupId');
export const testerParams = pathOf('testerId');
export const webhookParams = pathOf('webhookId');
export const siteParams = pathOf('siteId');
export const codeParams = pathOf('code');
export const iconParams = pathOf('file');

export const pageQuery = queryOf('page', 'per_page');
export const testerListQuery = queryOf('buildId');
/** Emails of a membership change may come in the query (clients often drop DELETE bodies). */
export const emailQuery = queryOf('email');
export const auditQuery = queryOf('page', 'per_page', 'site', 'action_type', 'start_date', 'end_date');
