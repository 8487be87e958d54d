/**
 * The command line's host keeps the limits the runner's host keeps: a summary file of at most
 * 1 MiB for the main step and its cleanup together, and list outputs bounded, the log saying so.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionMetadata } from '../../src/hosts/action-metadata.ts';
import type { CliCommand } from '../../src/hosts/cli-command.ts';
import { runCli } from '../../src/hosts/cli-host.ts';
import {
  readSauceConnection,
  type ActionDefinition,
  type InputReader,
  type ActionResult,
  type PostDefinition,
} from '../../src/index.ts';
import { useCliTerminal } from './cli-sample.ts';

const METADATA = actionMetadata({
  name: 'Sample',
  description: 'Does a sample thing.',
  inputs: { username: { description: 'User.' }, 'access-key': { description: 'Key.' } },
  outputs: { 'job-ids': { description: 'Ids.' } },
});

const { out, err, io } = useCliTerminal('cli-limits-');

/** Lines of a summary of about 1.2 MiB. */
const bigSummary = (who: string): string =>
  Array.from({ length: 12_000 }, (_, n) => `<p>${who} ${n}: ${'x'.repeat(90)}</p>\n`).join('');

function command(result: ActionResult, cleanup?: ActionResult): CliCommand {
  const main = {
    title: 'Sample',
    readInputs: (reader: InputReader) => ({ connection: readSauceConnection(reader) }),
    run: async () => result,
  } as ActionDefinition;
  const post =
    cleanup &&
    ({
      title: 'Cleanup',
      readInputs: (reader: InputReader) => ({ connection: readSauceConnection(reader) }),
      hasLeftRunning: () => true,
      run: async () => cleanup,
    } as PostDefinition);
  return {
    name: 'sample',
    metadata: METADATA,
    load: async () => ({ action: main, ...(post ? { post } : {}) }),
  };
}

describe('runCli within GitHub limits', () => {
  it('writes at most 1 MiB of summary for the main step and its cleanup, the failure kept', async () => {
    const failed: ActionResult = {
      outputs: {},
      summary: bigSummary('main'),
      annotations: [],
      failure: { kind: 'tests-failed', message: '3 jobs failed.' },
    };
    const cleanup: ActionResult = { outputs: {}, summary: bigSummary('cleanup'), annotations: [] };
    expect(await runCli([command(failed, cleanup)], ['sample', '--summary', 's.md'], io)).toBe(1);
    const summary = readFileSync(path.join(io.cwd, 's.md'), 'utf8');
    expect(Buffer.byteLength(summary, 'utf8')).toBeLessThanOrEqual(1024 * 1024);
    expect(summary).toContain('<h2>Sample: failed</h2>\n<p>3 jobs failed.</p>');
    expect(summary).toContain(
      'The rest of this summary is left out to keep within GitHub&#39;s limit of 1 MiB',
    );
  });

  it.each([
    [
      'name=value lines',
      [],
      (text: string) =>
        text
          .replace(/^job-ids=/, '')
          .trim()
          .split(','),
    ],
    ['--json', ['--json'], (text: string) => (JSON.parse(text) as { 'job-ids': string[] })['job-ids']],
  ])('bounds a list output (%s) and says so on standard error', async (_, flags, ids) => {
    const result: ActionResult = {
      outputs: { 'job-ids': Array.from({ length: 2_000 }, (_, n) => `id${n}`) },
      summary: '',
      annotations: [],
    };
    expect(await runCli([command(result)], ['sample', ...flags], io), err.join('')).toBe(0);
    expect(ids(out.join(''))).toEqual(Array.from({ length: 100 }, (_, n) => `id${n}`));
    expect(err.join('')).toContain('The output job-ids holds the first 100 of 2000 items');
  });
});
