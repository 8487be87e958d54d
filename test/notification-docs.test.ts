/** The samples of `docs/notifications.md` are the messages the code posts for its sample run, exactly. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { samplePayloads } from './support/notification-samples.ts';

const DOC = readFileSync(path.resolve(import.meta.dirname, '../docs/notifications.md'), 'utf8');

/** The JSON block after each `<!-- sample: NAME -->`. */
function samples(): Record<string, unknown> {
  return Object.fromEntries(
    [...DOC.matchAll(/<!-- sample: (\w+) -->\s*```json\n([\s\S]*?)\n```/g)].map((match) => [
      match[1],
      JSON.parse(match[2]!) as unknown,
    ]),
  );
}

it.each(Object.entries(samplePayloads()))('the %s sample is what is posted', (format, payload) => {
  expect(samples()[format]).toEqual(payload);
});
