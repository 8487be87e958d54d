/**
 * What run-js-tests' `run` refuses, naming the input: a `junit-file` or a place for the results
 * file that cannot be written, before any request; a tunnel and credentials the service refuses,
 * before anything is started. Against an in-process emulator whose journal shows every request.
 */
import { describeFailure, InputError } from '@sauce-actions/action-kit';
import { ApiError } from '@sauce-actions/api';
import type { RunningEmulator } from '@sauce-actions/emulator';
import { describe, expect, it } from 'vitest';
import { run } from '../src/run.ts';
import { clientOf, journal, withEmulators } from './helpers.ts';

let emulator: RunningEmulator;
const { inputs, deps, dir } = withEmulators([300], { started: (emulators) => ([emulator] = emulators) });

describe('run-js-tests run', () => {
  it('refuses a junit-file that cannot be created, before any request', async () => {
    const before = (await journal(emulator)).length;
    const started = Date.now();
    const error = await run(inputs({ junitFile: '/proc/no-such/js.xml' }), deps(clientOf(emulator))).catch(
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).input).toBe('junit-file');
    expect(await journal(emulator)).toHaveLength(before);
  });

  it('refuses a junit-file that is a folder, before any request', async () => {
    const before = (await journal(emulator)).length;
    const error = await run(inputs({ junitFile: dir }), deps(clientOf(emulator))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toContain('which is a folder');
    expect(await journal(emulator)).toHaveLength(before);
  });

  it('refuses an unwritable place for the results file, before any request', async () => {
    const before = (await journal(emulator)).length;
    const error = await run(inputs(), deps(clientOf(emulator), { tempDir: '/proc/no-such' })).catch(
      (e: unknown) => e,
    );
    expect(describeFailure(error).kind).toBe('input');
    expect((error as Error).message).toContain('The results file /proc/no-such/');
    expect(await journal(emulator)).toHaveLength(before);
  });

  it('names tunnel-name when the service refuses the tunnel', async () => {
    const d = deps(clientOf(emulator));
    const error = await run(inputs({ tunnelName: 'no-such-tunnel' }), d).catch((e: unknown) => e);
    const failure = describeFailure(error, d.signal);
    expect(failure.kind).toBe('refused');
    expect(failure.message).toContain('No running tunnel named no-such-tunnel');
    expect(failure.message).toContain('Check `tunnel-name` ("no-such-tunnel")');
  });

  it('fails before anything is done when the start is refused', async () => {
    const d = deps(clientOf(emulator, 'wrong-key'));
    const error = await run(inputs(), d).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    const failure = describeFailure(error, d.signal);
    expect(failure.kind).toBe('refused');
    expect(failure.message).toContain('The credentials were refused');
  });
});
