/**
 * Another pipeline on the same account: jobs created through the service's own interface, JS unit
 * tests (`POST /rest/v1/<user>/js-tests`, one job per platform, many platforms a request), spread
 * evenly over a span of time. Its requests are told apart in the journal by that path, which the
 * nightly never calls (`isOtherPipeline`). It spends the account's rate budget as any client
 * would, and waits out a 429's `Retry-After`.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export const OTHER_PATH = /^\/rest\/v1(\.\d)?\/[^/]+\/js-tests(\/status)?$/;

export function isOtherPipeline(entry: { path: string }): boolean {
  return OTHER_PATH.test(entry.path);
}

export interface OtherPipelineOptions {
  url: string;
  username: string;
  accessKey: string;
  jobs: number;
  /** Platforms (jobs) a request. */
  perRequest: number;
  /** The requests are spread evenly over this long. */
  spreadMs: number;
  /** How long each job may run (seconds): longer than the emulator's job duration, so jobs run whole. */
  maxDurationSeconds: number;
  signal: AbortSignal;
}

export interface OtherPipelineFigures {
  jobs: number;
  created: number;
  requests: number;
  rateLimited: number;
  errors: string[];
  elapsedMs: number;
}

export async function runOtherPipeline(options: OtherPipelineOptions): Promise<OtherPipelineFigures> {
  const started = Date.now();
  const figures: OtherPipelineFigures = {
    jobs: options.jobs,
    created: 0,
    requests: 0,
    rateLimited: 0,
    errors: [],
    elapsedMs: 0,
  };
  const batches = Math.ceil(options.jobs / options.perRequest);
  const authorization = `Basic ${Buffer.from(`${options.username}:${options.accessKey}`).toString('base64')}`;
  try {
    for (let batch = 0; batch < batches; batch++) {
      await sleep(Math.max(0, started + (batch * options.spreadMs) / batches - Date.now()), undefined, {
        signal: options.signal,
      });
      const count = Math.min(options.perRequest, options.jobs - batch * options.perRequest);
      const platforms = Array.from({ length: count }, (_, i) => [
        'Windows 11',
        'chrome',
        String(100 + ((batch * options.perRequest + i) % 30)),
      ]);
      const body = JSON.stringify({
        platforms,
        url: 'https://example.com/other-pipeline/tests.html',
        framework: 'qunit',
        build: `Other pipeline ${batch + 1}`,
        name: 'Other pipeline unit tests',
        maxDuration: options.maxDurationSeconds,
      });
      for (;;) {
        figures.requests += 1;
        const response = await fetch(`${options.url}/rest/v1/${options.username}/js-tests`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body,
          signal: options.signal,
        });
        const text = await response.text();
        if (response.status === 429) {
          figures.rateLimited += 1;
          await sleep(Number(response.headers.get('retry-after') ?? '1') * 1000, undefined, {
            signal: options.signal,
          });
          continue;
        }
        if (response.ok) figures.created += count;
        else figures.errors.push(`${response.status} ${text.slice(0, 200)}`);
        break;
      }
    }
  } catch (error) {
    if (!options.signal.aborted) figures.errors.push(error instanceof Error ? error.message : String(error));
  }
  figures.elapsedMs = Date.now() - started;
  return figures;
}
