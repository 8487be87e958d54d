/**
 * The inputs each test action reads for the engine, with `readInputs` as every host calls it:
 * `retries` from 0 to 5, default 0, and a `shard` of the form `<index>/<total>`, anything else
 * refused by the input's name.
 */
import { InputError, InputReader, inputSource } from '@sauce-actions/action-kit';
import { describe, expect, it } from 'vitest';
import { ADAPTERS } from './support/adapters.ts';

describe.each(ADAPTERS)('$name', (adapter) => {
  const read = (values: Record<string, string>) =>
    adapter.readInputs(new InputReader(inputSource({ ...adapter.rawInputs, ...values })));

  it('reads retries from 0 to 5, default 0', async () => {
    expect((await read({})).retries).toBe(0);
    expect((await read({ retries: '5' })).retries).toBe(5);
  });

  it.each([
    ['retries', '6'],
    ['retries', '-1'],
    ['retries', '1.5'],
    ['retries', 'two'],
    ['shard', '4/3'],
    ['shard', '0/3'],
    ['shard', '1/0'],
    ['shard', 'a/b'],
  ])('refuses %s %s by name', async (input, value) => {
    const error = await read({ [input]: value }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).input).toBe(input);
  });
});
