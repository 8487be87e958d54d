/**
 * The release process: CHANGELOG.md in Keep a Changelog's shape, and `.github/workflows/release.yml`,
 * whose steps run here in bash against scratch git repositories: the version read from the tag or
 * the input, the release notes cut from the changelog, and the major tag moved only to the newest
 * release of its major version.
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBashStep } from './support/bash-step.ts';
import { ROOT, type Step } from './support/workflows.ts';

const changelog = await readFile(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
const release = parse(await readFile(path.join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8')) as {
  on: { push: { tags: string[] }; workflow_dispatch: { inputs: Record<string, { required?: boolean }> } };
  permissions: Record<string, string>;
  jobs: Record<
    string,
    { permissions?: Record<string, string>; steps: (Step & { run?: string; name?: string })[] }
  >;
};
const steps = Object.values(release.jobs).flatMap((job) => job.steps);
const script = (name: string): string => {
  const step = steps.find((candidate) => candidate.name === name);
  if (typeof step?.run !== 'string') throw new Error(`release.yml has no run step "${name}"`);
  return step.run;
};

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'release-test-'));
});
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Release Test',
      GIT_AUTHOR_EMAIL: 'release@example.com',
      GIT_COMMITTER_NAME: 'Release Test',
      GIT_COMMITTER_EMAIL: 'release@example.com',
      GIT_CONFIG_GLOBAL: os.devNull,
      GIT_CONFIG_NOSYSTEM: '1',
    },
  }).trim();
}

/** A clone of a bare origin, with one empty commit per tag given, in order. */
async function repository(
  name: string,
  tags: string[],
): Promise<{ clone: string; origin: string; temp: string }> {
  const origin = path.join(scratch, `${name}.git`);
  const clone = path.join(scratch, name);
  const temp = path.join(scratch, `${name}-temp`);
  await mkdir(temp);
  git(scratch, '-c', 'init.defaultBranch=main', 'init', '-q', '--bare', origin);
  git(scratch, 'clone', '-q', origin, clone);
  for (const tag of tags) {
    git(clone, 'commit', '-q', '--allow-empty', '-m', tag);
    git(clone, 'tag', tag);
  }
  git(clone, 'push', '-q', 'origin', 'HEAD', '--tags');
  return { clone, origin, temp };
}

describe('CHANGELOG.md', () => {
  it('has an Unreleased section first, then releases newest first, each dated', () => {
    const headings = [...changelog.matchAll(/^## (.*)$/gm)].map((match) => match[1] as string);
    expect(headings[0]).toBe('[Unreleased]');
    const versions = headings.slice(1).map((heading) => {
      expect(heading).toMatch(/^\[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/);
      return (/^\[([\d.]+)\]/.exec(heading)?.[1] ?? '').split('.').map(Number);
    });
    expect(versions.map((v) => v.join('.'))).toContain('1.0.0');
    const sorted = [...versions].sort((a, b) => b[0]! - a[0]! || b[1]! - a[1]! || b[2]! - a[2]!);
    expect(versions).toEqual(sorted);
  });

  it("uses only Keep a Changelog's kinds of change", () => {
    for (const [, kind] of changelog.matchAll(/^### (.*)$/gm)) {
      expect(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']).toContain(kind);
    }
  });
});

describe('the release workflow', () => {
  it('runs on a pushed version tag or by hand with a version; only its job may write contents', () => {
    expect(release.on.push.tags).toEqual(['v*.*.*']);
    expect(release.on.workflow_dispatch.inputs.version?.required).toBe(true);
    expect(release.permissions).toEqual({ contents: 'read' });
    expect(Object.values(release.jobs).map((job) => job.permissions)).toEqual([{ contents: 'write' }]);
  });

  it('checks dist/ against a fresh build and runs the tests before it tags, publishes or moves anything', () => {
    const runs = steps.map((step) => step.run ?? '');
    const at = (pattern: RegExp): number => {
      const index = runs.findIndex((run) => pattern.test(run));
      expect(index, String(pattern)).toBeGreaterThanOrEqual(0);
      return index;
    };
    const install = at(/^npm ci$/m);
    const fresh = at(/npm run build[\s\S]*git diff --exit-code[^\n]*dist\//);
    const tests = at(/^npm test$/m);
    const writes = [
      at(/git push origin "v\$VERSION"/),
      at(/gh release create/),
      at(/git push -f origin "\$MAJOR"/),
    ];
    expect(install).toBeLessThan(fresh);
    expect(fresh).toBeLessThan(tests);
    for (const write of writes) expect(tests).toBeLessThan(write);
  });

  it('refuses a dist/ that differs from the build, changed or added', async () => {
    const { clone, temp } = await repository('dist-check', ['v1.0.0']);
    // `npm run build` stands for the build: here it changes one bundle and adds another.
    const check = script('The committed bundles are a fresh build').replace(
      'npm run build',
      'mkdir -p dist && echo "$BUILD" > dist/a.js && { [ -z "$EXTRA" ] || echo x > dist/b.js; }',
    );
    await mkdir(path.join(clone, 'dist'));
    execFileSync('bash', ['-c', 'echo one > dist/a.js'], { cwd: clone });
    git(clone, 'add', 'dist');
    git(clone, 'commit', '-q', '-m', 'bundles');
    const same = await runBashStep(check, {
      workspace: clone,
      runnerTemp: temp,
      env: { BUILD: 'one', EXTRA: '' },
    });
    expect(same.code, same.output).toBe(0);
    const changed = await runBashStep(check, {
      workspace: clone,
      runnerTemp: temp,
      env: { BUILD: 'two', EXTRA: '' },
    });
    expect(changed.code).toBe(1);
    expect(changed.output).toContain('::error::dist/ differs from a fresh build');
    git(clone, 'checkout', '-q', '--', 'dist');
    const added = await runBashStep(check, {
      workspace: clone,
      runnerTemp: temp,
      env: { BUILD: 'one', EXTRA: '1' },
    });
    expect(added.code).toBe(1);
  });

  it('reads the version from the tag or the input, and refuses any other form', async () => {
    const { clone, temp } = await repository('version', ['v1.0.0']);
    const version = script('Version');
    const run = (env: Record<string, string>) =>
      runBashStep(version, { workspace: clone, runnerTemp: temp, env });
    const pushed = await run({ EVENT_NAME: 'push', REF_NAME: 'v1.4.2', INPUT_VERSION: '' });
    expect(pushed.outputs).toEqual({ version: '1.4.2', major: 'v1' });
    const byHand = await run({ EVENT_NAME: 'workflow_dispatch', REF_NAME: 'main', INPUT_VERSION: 'v2.0.0' });
    expect(byHand.outputs).toEqual({ version: '2.0.0', major: 'v2' });
    const short = await run({ EVENT_NAME: 'push', REF_NAME: 'v1.4', INPUT_VERSION: '' });
    expect(short.code).toBe(1);
    expect(short.output).toContain("::error::The version is '1.4'");
    const again = await run({ EVENT_NAME: 'workflow_dispatch', REF_NAME: 'main', INPUT_VERSION: '1.0.0' });
    expect(again.code).toBe(1);
    expect(again.output).toContain('::error::The tag v1.0.0 already exists');
  });

  it("publishes the version's changelog section as the release notes, and stops when there is none", async () => {
    const workspace = path.join(scratch, 'notes');
    await mkdir(path.join(workspace, 'temp'), { recursive: true });
    await copyFile(path.join(ROOT, 'CHANGELOG.md'), path.join(workspace, 'CHANGELOG.md'));
    const notes = script('Release notes from CHANGELOG.md');
    const runnerTemp = path.join(workspace, 'temp');
    const found = await runBashStep(notes, { workspace, runnerTemp, env: { VERSION: '1.0.0' } });
    expect(found.code, found.output).toBe(0);
    const text = await readFile(path.join(runnerTemp, 'release-notes.md'), 'utf8');
    const section = changelog.split(/^## \[1\.0\.0\].*$/m)[1]?.split(/^## /m)[0] ?? '';
    expect(text.trim()).toBe(section.trim());
    expect(text).toContain('### Added');
    expect(text).not.toContain('## [');
    const missing = await runBashStep(notes, { workspace, runnerTemp, env: { VERSION: '9.9.9' } });
    expect(missing.code).toBe(1);
    expect(missing.output).toContain("CHANGELOG.md has no section '## [9.9.9]'");
  });

  it('moves the major tag to the newest release of its major version only', async () => {
    const { clone, origin, temp } = await repository('major', ['v1.0.0', 'v1.1.0']);
    const move = script('Move the major tag');
    const run = (version: string) =>
      runBashStep(move, { workspace: clone, runnerTemp: temp, env: { VERSION: version, MAJOR: 'v1' } });
    const moved = await run('1.1.0');
    expect(moved.code, moved.output).toBe(0);
    expect(git(origin, 'rev-parse', 'v1^{commit}')).toBe(git(origin, 'rev-parse', 'v1.1.0^{commit}'));

    // A fix of 1.0 released after 1.1 leaves v1 on 1.1.0.
    git(clone, 'checkout', '-q', 'v1.0.0');
    git(clone, 'commit', '-q', '--allow-empty', '-m', 'fix');
    git(clone, 'tag', 'v1.0.1');
    const older = await run('1.0.1');
    expect(older.code, older.output).toBe(0);
    expect(older.output).toContain('v1 stays on v1.1.0, newer than v1.0.1.');
    expect(git(origin, 'rev-parse', 'v1^{commit}')).toBe(git(clone, 'rev-parse', 'v1.1.0^{commit}'));

    // The next minor moves it again, force-pushed over the old one.
    git(clone, 'checkout', '-q', 'v1.1.0');
    git(clone, 'commit', '-q', '--allow-empty', '-m', 'feature');
    git(clone, 'tag', 'v1.2.0');
    git(clone, 'push', '-q', 'origin', 'v1.2.0');
    const next = await run('1.2.0');
    expect(next.code, next.output).toBe(0);
    expect(git(origin, 'rev-parse', 'v1^{commit}')).toBe(git(clone, 'rev-parse', 'v1.2.0^{commit}'));
  });
});
