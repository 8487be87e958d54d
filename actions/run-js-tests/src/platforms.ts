/**
 * The `platforms` input: a YAML list whose items are `[os, browser, version]` (or the line form
 * as a string), or plain lines `os / browser / version`. Every platform has three non-empty parts.
 * The YAML parser loads only when the list form is used, so the line form starts light.
 */
import { InputError, quoteValue } from '@sauce-actions/action-kit';
import type { JsTestPlatform } from '@sauce-actions/api';
import type { Node } from 'yaml';

const ALLOWED =
  'a YAML list of `[os, browser, version]`, or one `os / browser / version` per line, each part non-empty';

export async function parsePlatforms(text: string, input = 'platforms'): Promise<JsTestPlatform[]> {
  const meaningful = text.split('\n').find((line) => line.trim() !== '' && !line.trim().startsWith('#'));
  if (meaningful === undefined) throw new InputError(input, 'is required but holds no platform', ALLOWED);
  const first = meaningful.trim();
  return first.startsWith('-') || first.startsWith('[')
    ? parseYamlList(text, input)
    : parseLines(text, input);
}

function parseLines(text: string, input: string): JsTestPlatform[] {
  const platforms: JsTestPlatform[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    platforms.push(lineTriple(line, input, index + 1));
  });
  return platforms;
}

function lineTriple(line: string, input: string, lineNumber: number): JsTestPlatform {
  const parts = line.split('/').map((part) => part.trim());
  return checkTriple(parts, input, lineNumber, line);
}

function checkTriple(
  parts: readonly string[],
  input: string,
  lineNumber: number,
  line: string,
): JsTestPlatform {
  if (parts.length !== 3 || parts.some((part) => part === '')) {
    throw new InputError(
      input,
      `has line ${lineNumber} ${quoteValue(line)}, which is not an os, a browser and a version`,
      ALLOWED,
    );
  }
  return [parts[0], parts[1], parts[2]] as JsTestPlatform;
}

async function parseYamlList(text: string, input: string): Promise<JsTestPlatform[]> {
  // `yaml` is CommonJS for Node: its exports are `default` both in Node and in the split bundle,
  // whose chunk of it has no named exports.
  const { isScalar, isSeq, parseDocument } = (await import('yaml')).default;
  // failsafe keeps every scalar as written: `11.0` stays "11.0" instead of becoming the number 11.
  const doc = parseDocument(text, { schema: 'failsafe', prettyErrors: false });
  const [error] = doc.errors;
  if (error) {
    const lineNumber = lineAt(text, error.pos[0]);
    throw new InputError(
      input,
      `is not valid YAML at line ${lineNumber} ${quoteValue(lineText(text, lineNumber))} (${error.code})`,
      ALLOWED,
    );
  }
  if (!isSeq(doc.contents)) throw new InputError(input, 'is not a YAML list', ALLOWED);
  const platforms: JsTestPlatform[] = [];
  for (const item of doc.contents.items as Node[]) {
    const lineNumber = lineAt(text, item.range?.[0] ?? 0);
    const line = lineText(text, lineNumber);
    if (isScalar(item)) {
      platforms.push(lineTriple(String(item.value), input, lineNumber));
    } else if (isSeq(item) && item.items.every((part) => isScalar(part))) {
      const parts = item.items.map((part) => String((part as { value: unknown }).value ?? '').trim());
      platforms.push(checkTriple(parts, input, lineNumber, line));
    } else {
      throw new InputError(
        input,
        `has line ${lineNumber} ${quoteValue(line)}, which is not an os, a browser and a version`,
        ALLOWED,
      );
    }
  }
  if (platforms.length === 0) throw new InputError(input, 'is required but holds no platform', ALLOWED);
  return platforms;
}

function lineAt(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

function lineText(text: string, lineNumber: number): string {
  return (text.split('\n')[lineNumber - 1] ?? '').trim();
}

/** How a platform reads in logs, summaries and reports. */
export function platformName(platform: readonly string[]): string {
  return platform.join(' / ');
}
