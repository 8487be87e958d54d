/**
 * One step of run-suite-and-wait against the benchmark's emulator, through a proxy of its own that
 * counts its requests: the suite, the demo account, and `fail-on-failure: false`, so that every
 * step publishes whatever its jobs come to.
 */
import { runStep, type StepOptions, type StepResult } from '@sauce-actions/action-harness';
import { SUITE } from './nightly-seed.ts';
import { startShardProxy, type ShardProxy } from './shard-proxy.ts';

export const USERNAME = 'demo';
export const ACCESS_KEY = 'demo-access-key';

export interface SuiteStep extends Omit<StepOptions, 'inputs'> {
  /** The step's `timeout` input. */
  timeout: string;
  inputs: Record<string, string>;
  /** Told of the proxy before the step starts, to watch its requests as they come. */
  onProxy?: (proxy: ShardProxy) => void;
}

/** Runs the step to its end, its processes and proxy closed; with how long it took. */
export async function runSuiteStep(
  emulatorUrl: string,
  step: SuiteStep,
): Promise<{ result: StepResult; proxy: ShardProxy; seconds: number }> {
  const { timeout, inputs, onProxy, ...options } = step;
  const proxy = await startShardProxy(emulatorUrl);
  onProxy?.(proxy);
  const began = performance.now();
  const result = await runStep({
    ...options,
    inputs: {
      suite: SUITE,
      'api-url': proxy.url,
      username: USERNAME,
      'access-key': ACCESS_KEY,
      'fail-on-failure': 'false',
      timeout,
      ...inputs,
    },
  });
  const seconds = (performance.now() - began) / 1000;
  await Promise.all([result.cleanup(), proxy.close()]);
  return { result, proxy, seconds };
}
