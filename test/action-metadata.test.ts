/**
 * The user-facing contract of the actions: action.yml, the README and the code agree on every
 * input and output, and the inputs and outputs of the interface are all there.
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { readActionMetadata } from '@sauce-actions/action-harness';
import { describe, expect, it } from 'vitest';

const ACTIONS = path.resolve(import.meta.dirname, '..', 'actions');
/** The outputs every test action sets, which the kit's test-run engine declares once. */
const TEST_RUN_RESULTS = path.resolve(
  import.meta.dirname,
  '..',
  'packages/action-kit/src/test-run/results.ts',
);

/** Connection inputs the action kit reads (`readMobileConnection`, `readSauceConnection`). */
const MOBILE_CONNECTION = [
  'api-key',
  'email',
  'oidc-token',
  'oidc-config-key',
  'oidc',
  'oidc-audience',
  'region',
  'api-url',
];
const SAUCE_CONNECTION = ['username', 'access-key', 'region', 'api-url'];
/** Inputs of every action that waits. */
const WAITING = ['timeout', 'poll-interval'];

/**
 * The interface's key inputs and outputs of each action (the project's interface contract); an
 * action may have more, never fewer. Every folder under `actions/` must have an entry.
 */
const CONTRACT: Record<string, { inputs: string[]; outputs: string[]; post?: boolean }> = {
  'upload-build': {
    inputs: [
      'file',
      'app-name',
      'symbols-file',
      'groups',
      'notify',
      'release-notes',
      'auto-update',
      'tags',
      'folder-name',
      'landing-page-mode',
      'upload-to-vendor',
      'platform',
      'metadata',
      'git-metadata',
      'pr-comment',
      'github-token',
      ...MOBILE_CONNECTION,
    ],
    outputs: [
      'build-id',
      'project-id',
      'build-url',
      'download-page-url',
      'landing-page-url',
      'app-name',
      'app-version',
    ],
  },
  'invite-testers': {
    inputs: [
      'project-id',
      'build-id',
      'tags',
      'groups',
      'testers',
      'tester-group',
      'comment',
      'notify',
      ...MOBILE_CONNECTION,
    ],
    outputs: ['build-id', 'invited-groups', 'added-testers'],
  },
  'promote-build': {
    inputs: [
      'project-id',
      'build-id',
      'tags',
      'rings',
      'soak',
      'min-sessions',
      'max-crashes',
      'max-feedbacks',
      'notify',
      'dry-run',
      ...MOBILE_CONNECTION,
    ],
    outputs: ['decision', 'ring', 'reasons', 'build-id'],
  },
  'run-suite-and-wait': {
    inputs: [
      'operation',
      'suite',
      'test-cases',
      'build-name',
      'targets',
      'tunnel-name',
      'shard',
      'retries',
      'fail-fast',
      'rerun-failed',
      'fail-on-failure',
      'stop-on-cancel',
      'download-assets',
      'retention-days',
      'junit-file',
      'pr-comment',
      'check-name',
      'pull-request',
      'github-token',
      ...SAUCE_CONNECTION,
      ...WAITING,
    ],
    outputs: ['build-name', 'total', 'passed', 'failed', 'flaky', 'job-ids', 'results-file', 'assets-dir'],
    post: true,
  },
  'run-js-tests': {
    inputs: [
      'operation',
      'url',
      'framework',
      'platforms',
      'tunnel-name',
      'build',
      'name',
      'tags',
      'max-duration',
      'fail-on-failure',
      'junit-file',
      'shard',
      'retries',
      'pr-comment',
      'check-name',
      'pull-request',
      'github-token',
      ...SAUCE_CONNECTION,
      ...WAITING,
    ],
    outputs: ['total', 'passed', 'failed', 'flaky', 'job-ids', 'results-file'],
    post: true,
  },
  'manage-tunnel': {
    inputs: [
      'operation',
      'tunnel-name',
      'tunnel-id',
      'stop-on-exit',
      'sc-checksum',
      'retention-days',
      ...SAUCE_CONNECTION,
      ...WAITING,
    ],
    outputs: ['tunnel-id', 'tunnels'],
    // It cleans up when the job ends.
    post: true,
  },
};

async function sourceOf(dir: string): Promise<string> {
  const files = (await readdir(path.join(dir, 'src'))).filter((file) => file.endsWith('.ts')).sort();
  let code = '';
  for (const file of files) code += `${await readFile(path.join(dir, 'src', file), 'utf8')}\n`;
  return code;
}

/** The inputs the kit's `readPublishingInputs` reads: where a test step's report goes on GitHub. */
const PUBLISHING = ['pr-comment', 'check-name', 'pull-request', 'github-token'];
/**
 * The inputs the kit's `readHistoryInputs` reads, by name in its own source and that of
 * `readNotifyInputs`, which it calls: what a test step compares its results with, and whom it tells.
 */
const HISTORY = ['history-inputs.ts', 'notify-inputs.ts'].flatMap((file) => [
  ...namesRead(
    readFileSync(path.resolve(import.meta.dirname, '../packages/action-kit/src/inputs', file), 'utf8'),
  ),
]);

/** Inputs read by name through the kit's reader: `read.<method>('name'`. */
function namesRead(code: string): string[] {
  return [...code.matchAll(/\bread\.[a-zA-Z]+\(\s*'([a-z-]+)'/g)].map((m) => m[1] as string);
}

/** The inputs the kit's `readBuildChoice` reads: `build-id`, or `latest` with `tags`. */
const BUILD_CHOICE = namesRead(
  readFileSync(
    path.resolve(import.meta.dirname, '../packages/action-kit/src/inputs/build-choice.ts'),
    'utf8',
  ),
);

/** Inputs the code reads: by name through the kit's reader, and the connection readers' own. */
function inputsRead(code: string): Set<string> {
  return new Set([
    ...namesRead(code),
    ...(/\breadMobileConnection\(/.test(code) ? MOBILE_CONNECTION : []),
    ...(/\breadSauceConnection\(/.test(code) ? SAUCE_CONNECTION : []),
    ...(/\breadPublishingInputs\(/.test(code) ? PUBLISHING : []),
    ...(/\breadHistoryInputs\(/.test(code) ? HISTORY : []),
    ...(/\breadBuildChoice\(/.test(code) ? BUILD_CHOICE : []),
  ]);
}

/**
 * Keys of the action's one `...Outputs` type, the outputs its `run` returns, with those of the
 * kit's `TestRunOutputs` when the action sets them (the test actions).
 */
async function outputsSet(code: string): Promise<string[]> {
  const typeBody = (text: string): string[] =>
    [...text.matchAll(/(?:type|interface)\s+\w*Outputs\s*=?\s*\{([^}]*)\}/g)].map((m) => m[1]!);
  const kit = /\bTestRunOutputs\b/.test(code) ? typeBody(await readFile(TEST_RUN_RESULTS, 'utf8')) : [];
  const own = typeBody(code);
  expect(own.length, 'one type named ...Outputs in the action, at most').toBeLessThanOrEqual(1);
  const bodies = [...own, ...kit];
  expect(bodies.length, 'a type named ...Outputs lists the outputs').toBeGreaterThan(0);
  return bodies.flatMap((body) =>
    [...body.matchAll(/^\s*'?([a-z][a-z0-9-]*)'?\??:/gm)].map((m) => m[1] as string),
  );
}

/**
 * Names in the first column of the table under a README heading (`## Inputs`, `## Outputs`); a
 * cell may name several, as `` `oidc-token`, `oidc-config-key` ``.
 */
function readmeTable(readme: string, heading: string): Map<string, string> {
  const at = readme.indexOf(`\n## ${heading}\n`);
  expect(at, `README has a "## ${heading}" section`).toBeGreaterThanOrEqual(0);
  const section = readme.slice(at + heading.length + 5).split(/\n## /)[0]!;
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1];
    if (!first) continue;
    for (const name of first.matchAll(/`([a-z][a-z0-9-]*)`/g)) rows.set(name[1]!, line);
  }
  return rows;
}

it('every action under actions/ has a contract here', async () => {
  const entries = await readdir(ACTIONS, { withFileTypes: true });
  const actions = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  expect(actions.sort()).toEqual(Object.keys(CONTRACT).sort());
});

describe.each(Object.keys(CONTRACT))('%s', (name) => {
  const dir = path.join(ACTIONS, name);
  const contract = CONTRACT[name]!;

  it('runs on node24 from its bundle, with the interface inputs and outputs', async () => {
    const meta = await readActionMetadata(dir);
    expect(meta.runs.using).toBe('node24');
    expect(meta.runs.main).toBe(`../../dist/${name}.js`);
    expect(meta.runs.post).toBe(contract.post ? `../../dist/${name}-post.js` : undefined);
    expect(Object.keys(meta.inputs)).toEqual(expect.arrayContaining(contract.inputs));
    expect(Object.keys(meta.outputs)).toEqual(expect.arrayContaining(contract.outputs));
  });

  it('documents every input and output in action.yml and the README, and nothing else', async () => {
    const meta = await readActionMetadata(dir);
    const readme = await readFile(path.join(dir, 'README.md'), 'utf8');
    const inputRows = readmeTable(readme, 'Inputs');
    const outputRows = readmeTable(readme, 'Outputs');
    for (const [input, spec] of Object.entries(meta.inputs)) {
      expect(spec.description, `${input} has no description`).toBeTruthy();
      // The runner evaluates `${{ }}` in action.yml as it loads it: an example there fails every workflow.
      expect(spec.description, `${input}'s description has an expression`).not.toContain('${{');
      const row = inputRows.get(input);
      expect(row, `README's inputs lack ${input}`).toBeDefined();
      // A default of action.yml is the one the README gives; an input it requires, the README too.
      if (spec.default) expect(row, `README's default of ${input}`).toContain(spec.default);
      if (spec.required) expect(row, `README does not say ${input} is required`).toMatch(/\|\s*yes\s*\|/);
    }
    expect([...inputRows.keys()].filter((input) => !(input in meta.inputs))).toEqual([]);
    const requiredInReadme = [...inputRows]
      .filter(([, row]) => /\|\s*yes\s*\|/.test(row))
      .map(([input]) => input);
    expect(requiredInReadme.filter((input) => !meta.inputs[input]?.required)).toEqual([]);
    for (const [output, spec] of Object.entries(meta.outputs)) {
      expect(spec.description, `${output} has no description`).toBeTruthy();
      expect(outputRows.has(output), `README's outputs lack ${output}`).toBe(true);
    }
    expect([...outputRows.keys()].filter((output) => !(output in meta.outputs))).toEqual([]);
    expect(readme).toContain(`actions/${name}@v1`);
  });

  it('is built on the action contract: inputs.ts, run.ts, a few-line main.ts, a test of run', async () => {
    const files = await readdir(path.join(dir, 'src'));
    expect(files).toEqual(expect.arrayContaining(['inputs.ts', 'run.ts', 'main.ts']));
    const main = await readFile(path.join(dir, 'src', 'main.ts'), 'utf8');
    expect(main).toContain("from '@sauce-actions/action-kit/hosts/github-host'");
    expect(main.split('\n').filter((line) => line.trim() !== '').length).toBeLessThanOrEqual(12);
    const tests = await readdir(path.join(dir, 'test'));
    const runTests = [];
    for (const test of tests.filter((file) => file.endsWith('.test.ts'))) {
      const code = await readFile(path.join(dir, 'test', test), 'utf8');
      if (/from '\.\.\/src\/run\.ts'/.test(code) && /\bawait run\(/.test(code)) runTests.push(test);
    }
    expect(runTests, 'a test file calls run() from src/run.ts').not.toEqual([]);
    // Only the kit's host talks to the runner, and only inputs.ts reads inputs.
    for (const file of files.filter((f) => f.endsWith('.ts'))) {
      const code = await readFile(path.join(dir, 'src', file), 'utf8');
      expect(code, `${file} imports @actions/core`).not.toMatch(/from '@actions\/core'/);
      expect(code, `${file} reads process.env`).not.toMatch(/process\.env/);
      if (file !== 'inputs.ts') expect(inputsRead(code).size, `${file} reads inputs`).toBe(0);
    }
  });

  it('reads only inputs that action.yml declares, and every one it declares', async () => {
    const meta = await readActionMetadata(dir);
    const read = inputsRead(await sourceOf(dir));
    expect([...read].filter((input) => !(input in meta.inputs))).toEqual([]);
    expect(Object.keys(meta.inputs).filter((input) => !read.has(input))).toEqual([]);
  });

  it('sets only outputs that action.yml declares, and every one it declares', async () => {
    const meta = await readActionMetadata(dir);
    const set = await outputsSet(await sourceOf(dir));
    expect(set.filter((output) => !(output in meta.outputs))).toEqual([]);
    expect(Object.keys(meta.outputs).filter((output) => !set.includes(output))).toEqual([]);
  });
});
