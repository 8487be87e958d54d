/**
 * A run's message as a documented, versioned JSON object, for any other address: what other tools
 * consume. Its schema is `run-message.schema.json` beside this file (JSON Schema draft 2020-12).
 *
 * Version 1:
 * - `version`: 1; a consumer reading another version should not guess.
 * - `run`: `name`, and where known `number`, `attempt` and `url` (the workflow run's page).
 * - `repository`, `branch`, `commit`, `reportUrl`: where known.
 * - `compared`: `runs` (the earlier runs compared with), `branch` (the default branch they are
 *   of) and, when nothing was compared, `off` (why).
 * - `counts`: `total`, `passed` and `failed` (flaky ones, passed on a retry, count as passed), and
 *   `classes`: the items of each class (`new`, `still-failing`, `fixed`, `flaky`, `quarantined`,
 *   `passed`).
 * - `items`: for each class but `passed`, its items in the run's order, each `{ name, url?,
 *   lastPassedUrl? }` (its job's page; for a new failure, the run it last passed in); at most
 *   1,000 a class, the number left out of a longer one in `omitted`.
 *
 * Names are one line, without control characters, redacted and at most 200 characters; addresses
 * are `http(s)` only. Values are plain text: a consumer escapes them for wherever it shows them.
 */
import { LISTED_CLASSES, type ListedClass, type MessageItem, type RunMessage } from './message.ts';

/** Items a class lists at most. */
export const JSON_ITEMS = 1000;

export interface RunMessageJson extends Omit<RunMessage, 'items'> {
  version: 1;
  items: Record<ListedClass, MessageItem[]>;
  /** The items left out of each class that has more than `JSON_ITEMS`. */
  omitted?: Partial<Record<ListedClass, number>>;
}

/** The versioned object of a run's message. */
export function runMessageJson(message: RunMessage): RunMessageJson {
  const items = {} as Record<ListedClass, MessageItem[]>;
  const omitted: Partial<Record<ListedClass, number>> = {};
  for (const name of LISTED_CLASSES) {
    const all = message.items[name];
    items[name] = all.slice(0, JSON_ITEMS).map((item) => ({ ...item }));
    if (all.length > JSON_ITEMS) omitted[name] = all.length - JSON_ITEMS;
  }
  const { items: _items, ...rest } = message;
  return {
    version: 1,
    ...rest,
    items,
    ...(Object.keys(omitted).length > 0 ? { omitted } : {}),
  };
}
