/** What the mobile part of the seed holds. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface MobileSeed {}

export function defaultMobileSeed(): MobileSeed {
  return {};
}
