/**
 * `src/local-action-post.ts`, the post entry `@github/local-action` finds when started in the
 * repository's root: it runs the post entry of the action the tool was given, and says so plainly
 * when that action has none or the file is run without the tool.
 */
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from '../src/local-action-post.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the root post entry', () => {
  it('refuses an action without a post step, naming it and what to leave out', async () => {
    vi.stubEnv('TARGET_ACTION_PATH', path.join(ROOT, 'actions', 'upload-build'));
    await expect(run()).rejects.toThrow(
      /actions\/upload-build has no post step \(no src\/local-action-post\.ts\): leave out --post\./,
    );
  });

  it('refuses to run itself when the tool was given the root', async () => {
    vi.stubEnv('TARGET_ACTION_PATH', ROOT);
    await expect(run()).rejects.toThrow(/has no post step/);
  });

  it('says what it is for when run without the tool', async () => {
    vi.stubEnv('TARGET_ACTION_PATH', '');
    await expect(run()).rejects.toThrow(
      'src/local-action-post.ts is the post entry for @github/local-action',
    );
  });
});
