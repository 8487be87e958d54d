/** What the authoring part of the seed holds. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AuthoringSeed {}

export function defaultAuthoringSeed(): AuthoringSeed {
  return {};
}
