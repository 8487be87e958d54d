/**
 * The release examples leave to upload-build what it now does by default: no hand-written build
 * metadata (the commit, the run) and no release notes made with `git log`; the notes come from
 * `release-notes: auto`, on a checkout of the whole history.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}

function steps(file: string): Step[] {
  const workflow = parse(readFileSync(path.join(ROOT, file), 'utf8')) as {
    jobs: Record<string, { steps: Step[] }>;
  };
  return Object.values(workflow.jobs).flatMap((job) => job.steps);
}

describe.each(['examples/android-release.yml', 'examples/ios-release.yml'])('%s', (file) => {
  const all = steps(file);
  const upload = all.find((step) => step.uses?.includes('/actions/upload-build@'));

  it('uploads with release notes from git, on a checkout of the whole history', () => {
    expect(upload?.with?.['release-notes']).toBe('auto');
    expect(upload?.with).not.toHaveProperty('release-notes-file');
    const checkout = all.find((step) => step.uses?.startsWith('actions/checkout@'));
    expect(checkout?.with?.['fetch-depth']).toBe(0);
  });

  it('writes no build metadata or release notes by hand', () => {
    expect(upload?.with).not.toHaveProperty('metadata');
    expect(all.filter((step) => /\bgit\s+log\b/.test(step.run ?? ''))).toEqual([]);
    expect(readFileSync(path.join(ROOT, file), 'utf8')).not.toMatch(/commit=\$\{\{\s*github\.sha/);
  });
});
