/** What the automation part of the seed holds. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AutomationSeed {}

export function defaultAutomationSeed(): AutomationSeed {
  return {};
}
