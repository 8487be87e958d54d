/** The path members most operations share: the account they act for. */
export const usernameParams = {
  type: 'object',
  properties: { username: { type: 'string', minLength: 1 } },
  required: ['username'],
} as const;
