/** The action's own inputs, read and checked before anything is sent. */
import {
  InputError,
  quoteValue,
  readBoolean,
  readDuration,
  readEnum,
  readFilePath,
  readList,
  readRequiredString,
  readString,
} from '@sauce-actions/action-kit';
import { parsePlatforms } from './platforms.ts';
import { FRAMEWORKS, type JsTestsInputs } from './run.ts';

export const DEFAULT_TIMEOUT_MS = 30 * 60_000;
export const DEFAULT_POLL_INTERVAL_MS = 10_000;

export function readJsTestsInputs(): JsTestsInputs & { timeoutMs: number } {
  const framework = readEnum('framework', FRAMEWORKS);
  if (framework === undefined) {
    throw new InputError(
      'framework',
      'is required but was empty',
      FRAMEWORKS.map((name) => `\`${name}\``).join(', '),
    );
  }
  const maxDurationMs =
    readString('max-duration') !== undefined ? readDuration('max-duration', 0, { minMs: 1000 }) : undefined;
  const tunnelName = readString('tunnel-name');
  const build = readString('build');
  const name = readString('name');
  const junitFile = readFilePath('junit-file', { mustExist: false });
  return {
    url: parseTestPageUrl(readRequiredString('url')),
    framework,
    platforms: parsePlatforms(readRequiredString('platforms')),
    ...(tunnelName !== undefined ? { tunnelName } : {}),
    ...(build !== undefined ? { build } : {}),
    ...(name !== undefined ? { name } : {}),
    tags: readList('tags'),
    ...(maxDurationMs !== undefined ? { maxDurationSeconds: Math.ceil(maxDurationMs / 1000) } : {}),
    capabilities: parseCapabilities(readString('capabilities')),
    failOnFailure: readBoolean('fail-on-failure', true),
    ...(junitFile !== undefined ? { junitFile } : {}),
    timeoutMs: readDuration('timeout', DEFAULT_TIMEOUT_MS, { minMs: 1000 }),
    pollIntervalMs: readDuration('poll-interval', DEFAULT_POLL_INTERVAL_MS, {
      minMs: 500,
      maxMs: 10 * 60_000,
    }),
  };
}

/** The test page: an http(s) address the service's browsers open. */
export function parseTestPageUrl(value: string, input = 'url'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InputError(
      input,
      `has ${quoteValue(value)}, which is not an address`,
      'an http:// or https:// address of the test page',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InputError(
      input,
      `has ${quoteValue(value)}, which is not http or https`,
      'an http:// or https:// address of the test page',
    );
  }
  return value;
}

/** Extra desired capabilities: a JSON object whose members are sent with the start request. */
export function parseCapabilities(
  value: string | undefined,
  input = 'capabilities',
): Record<string, unknown> {
  if (value === undefined) return {};
  const allowed = 'a JSON object, for example `{"screenResolution": "1280x1024"}`';
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new InputError(input, `is not valid JSON (${(error as Error).message})`, allowed);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new InputError(input, `has ${quoteValue(value)}, which is not a JSON object`, allowed);
  }
  return parsed as Record<string, unknown>;
}
