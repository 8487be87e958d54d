/** The JSON object: versioned, valid against its published schema, names kept as plain text. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { JSON_ITEMS, runMessageJson } from '../../../src/test-run/notify/json.ts';
import schema from '../../../src/test-run/notify/run-message.schema.json' with { type: 'json' };
import { HOSTILE_NAMES, hostileMessage, nightMessage } from './fixtures.ts';

const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);

describe('the JSON object', () => {
  it('validates against its schema, with every field', () => {
    const object = runMessageJson(nightMessage(40));
    expect(validate(object), JSON.stringify(validate.errors)).toBe(true);
    expect(object).toMatchObject({
      version: 1,
      run: { name: 'Nightly', number: '42' },
      repository: 'o/r',
      branch: 'main',
      counts: { total: 40, failed: 18, passed: 22 },
      reportUrl: 'https://github.com/o/r/actions/runs/42#summary',
    });
    expect(Object.keys(object.items)).toEqual(['new', 'fixed', 'flaky', 'still-failing', 'quarantined']);
    expect(object.items.new[0]).toEqual({
      name: 'case 0',
      url: 'https://app.saucelabs.com/tests/id-0?a=1&b=2',
      lastPassedUrl: 'https://github.com/o/r/actions/runs/41',
    });
  });

  it('lists at most 1,000 items a class and says how many it left out', () => {
    const object = runMessageJson(nightMessage(5000));
    expect(validate(object), JSON.stringify(validate.errors)).toBe(true);
    expect(object.items.new).toHaveLength(JSON_ITEMS);
    expect(object.omitted).toEqual({ new: 250, fixed: 250 });
  });

  it('keeps hostile names as plain one-line text, and validates', () => {
    const object = runMessageJson(hostileMessage());
    expect(validate(object), JSON.stringify(validate.errors)).toBe(true);
    const names = new Set(Object.values(object.items).flatMap((items) => items.map((item) => item.name)));
    for (const name of HOSTILE_NAMES) expect(names.has(name.replace(/\n/g, ' '))).toBe(true);
    for (const name of names) expect(name).not.toMatch(/[\r\n]/);
  });

  it('is refused by its schema when it is not of version 1 or lacks its counts', () => {
    const object = runMessageJson(nightMessage(4));
    expect(validate({ ...object, version: 2 })).toBe(false);
    const { counts: _counts, ...rest } = object;
    expect(validate(rest)).toBe(false);
    expect(validate({ ...object, run: { name: 'n', url: 'javascript:x' } })).toBe(false);
  });
});
