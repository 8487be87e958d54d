/**
 * Every workflow a user reads or copies (`.github/workflows`, `examples/`, the `yaml` blocks of
 * the READMEs) passes only inputs our actions declare and reads only outputs they declare; every
 * workflow file passes actionlint and GitHub's own language service, without an error or a warning.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { actionlint } from './support/actionlint.ts';
import { workflowDiagnostics, type Diagnostic } from './support/github-language-service.ts';
import {
  checkWorkflowText,
  ourActionName,
  readActionInterfaces,
  readmeFiles,
  ROOT,
  workflowFiles,
  yamlBlocks,
} from './support/workflows.ts';

const actions = readActionInterfaces();
const files = workflowFiles();
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8');
/** Every text a user copies steps from: the workflow files, and the READMEs' yaml blocks. */
const copied = (): { source: string; text: string }[] => [
  ...files.map((file) => ({ source: file, text: read(file) })),
  ...readmeFiles().flatMap((file) => yamlBlocks(read(file), file)),
];
const describeDiagnostics = (file: string, diagnostics: Diagnostic[]): string =>
  diagnostics.map((d) => `${file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`).join('\n');
const describeProblems = (problems: { source: string; job: string; message: string }[]): string =>
  problems.map((p) => `${p.source} (job ${p.job}): ${p.message}`).join('\n');

describe('workflow files', () => {
  it('are found: the e2e and release workflows and the examples', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        '.github/workflows/ci.yml',
        '.github/workflows/e2e.yml',
        '.github/workflows/release.yml',
        'examples/android-release.yml',
        'examples/ios-release.yml',
        'examples/nightly-suite.yml',
        'examples/js-tests.yml',
        'examples/fork-e2e.yml',
        'examples/fork-report.yml',
      ]),
    );
  });

  it('use every action, by path in e2e.yml and by `@v1` in the examples', () => {
    const used = (file: string): Set<string> =>
      new Set(
        [...read(file).matchAll(/uses:\s*(\S+)/g)]
          .map((match) => ourActionName(match[1] as string))
          .filter((name) => name !== undefined),
      );
    expect([...used('.github/workflows/e2e.yml')].sort()).toEqual([...actions.keys()].sort());
    const examples = files.filter((file) => file.startsWith('examples/'));
    expect([...new Set(examples.flatMap((file) => [...used(file)]))].sort()).toEqual(
      [...actions.keys()].sort(),
    );
    for (const file of examples) {
      for (const match of read(file).matchAll(/uses:\s*(\S*sauce-actions\S*)/g)) {
        expect(match[1], file).toMatch(/^your-org\/sauce-actions\/actions\/[\w-]+@v1$/);
      }
    }
  });

  it.each(files)('%s passes only declared inputs and reads only declared outputs', (file) => {
    const problems = checkWorkflowText(read(file), file, actions);
    expect(describeProblems(problems)).toBe('');
  });

  it.each(files)('%s passes actionlint', async (file) => {
    const problems = await actionlint(read(file), file);
    expect(problems.map((p) => `${file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`).join('\n')).toBe(
      '',
    );
  });

  it.each(files)("%s has no error or warning from GitHub's language service", async (file) => {
    const diagnostics = await workflowDiagnostics(read(file), file);
    expect(describeDiagnostics(file, diagnostics)).toBe('');
  });

  it('pin every action of another repository by a full commit SHA with its version, README blocks too', () => {
    for (const { source, text } of copied()) {
      for (const match of text.matchAll(/^\s*-?\s*uses:\s*(\S+)(.*)$/gm)) {
        const [uses, rest] = [match[1] as string, match[2] as string];
        if (uses.startsWith('./') || ourActionName(uses) !== undefined) continue;
        expect(`${uses}${rest}`, source).toMatch(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
      }
    }
  });

  it('pin an action at the same commit everywhere (Dependabot updates only .github/workflows)', () => {
    const pins = new Map<string, Set<string>>();
    for (const { text } of copied()) {
      for (const match of text.matchAll(/uses:\s*([\w.-]+\/[\w./-]+)@([0-9a-f]{40}) # (\S+)/g)) {
        const seen = pins.get(match[1] as string) ?? new Set();
        seen.add(`${match[2]} # ${match[3]}`);
        pins.set(match[1] as string, seen);
      }
    }
    expect(pins.size).toBeGreaterThanOrEqual(4);
    for (const [action, refs] of pins) expect([...refs], action).toHaveLength(1);
  });
});

describe('.github/dependabot.yml', () => {
  it("updates npm packages and the workflows' actions weekly, grouped", () => {
    const config = parse(read('.github/dependabot.yml')) as {
      version: number;
      updates: {
        'package-ecosystem': string;
        directory: string;
        schedule: { interval: string };
        groups?: object;
      }[];
    };
    expect(config.version).toBe(2);
    expect(config.updates.map((update) => update['package-ecosystem']).sort()).toEqual([
      'github-actions',
      'npm',
    ]);
    for (const update of config.updates) {
      expect(update.directory).toBe('/');
      expect(update.schedule.interval).toBe('weekly');
      expect(Object.keys(update.groups ?? {}).length).toBeGreaterThan(0);
    }
  });
});

describe('README yaml blocks', () => {
  const blocks = readmeFiles().flatMap((file) => {
    const action = /^actions\/([\w-]+)\/README\.md$/.exec(file)?.[1];
    return yamlBlocks(read(file), file).map((block) => ({ ...block, action }));
  });

  it('are found in the root README and those of the actions', () => {
    expect(blocks.some((block) => block.source.startsWith('README.md:'))).toBe(true);
    for (const name of actions.keys()) {
      expect(blocks.some((block) => block.action === name)).toBe(true);
    }
  });

  it.each(blocks.map((block) => [block.source, block] as const))(
    '%s passes only declared inputs and reads only declared outputs',
    (_source, block) => {
      const problems = checkWorkflowText(block.text, block.source, actions, block.action);
      expect(describeProblems(problems)).toBe('');
    },
  );
});

describe('the checks can fail', () => {
  const workflow = (steps: string): string =>
    `on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n${steps.replace(/^/gm, '      ')}\n`;

  it('a step passing an input the action does not declare', () => {
    const text = workflow(
      [
        '- id: upload',
        '  uses: your-org/sauce-actions/actions/upload-build@v1',
        '  with:',
        '    file: app.apk',
        '    release-note: a typo of release-notes',
      ].join('\n'),
    );
    expect(checkWorkflowText(text, 'inline.yml', actions).map((p) => p.message)).toEqual([
      'step "upload" (upload-build) passes input "release-note", which upload-build does not declare',
    ]);
  });

  it('reading an output the action of that step does not declare, in with, env or run', () => {
    const text = workflow(
      [
        '- id: upload',
        '  uses: ./actions/upload-build',
        '  with:',
        '    file: app.apk',
        '- uses: ./actions/invite-testers',
        '  with:',
        '    project-id: ${{ steps.upload.outputs.project-id }}',
        "    build-id: ${{ steps.upload.outputs['build-number'] }}",
        '- env:',
        '    URL: ${{ steps.upload.outputs.install-url }}',
        '  run: echo "${{ steps.missing.outputs.x }}"',
      ].join('\n'),
    );
    expect(checkWorkflowText(text, 'inline.yml', actions).map((p) => p.message)).toEqual([
      'reads steps.upload.outputs.build-number, which upload-build (step "upload") does not declare',
      'reads steps.upload.outputs.install-url, which upload-build (step "upload") does not declare',
      'reads steps.missing.outputs.x, but the job has no step "missing"',
    ]);
  });

  it('an action of ours that does not exist, and a README fragment of a bare `with:`', () => {
    const text = workflow('- uses: your-org/sauce-actions/actions/upload-builds@v1');
    expect(checkWorkflowText(text, 'inline.yml', actions).map((p) => p.message)).toEqual([
      'step 1 (upload-builds) uses an action that does not exist',
    ]);
    const fragment = 'with:\n  suite: Smoke\n  suites: Regression\n';
    expect(
      checkWorkflowText(fragment, 'README.md:1', actions, 'run-suite-and-wait').map((p) => p.message),
    ).toEqual([
      'step 1 (run-suite-and-wait) passes input "suites", which run-suite-and-wait does not declare',
    ]);
  });

  it('a correct workflow has no problem (the outputs read are declared)', () => {
    const text = workflow(
      [
        '- id: upload',
        '  uses: ./actions/upload-build',
        '  with:',
        '    file: app.apk',
        '- uses: ./actions/invite-testers',
        '  with:',
        '    project-id: ${{ steps.upload.outputs.project-id }}',
        '    build-id: ${{ steps.upload.outputs.build-id }}',
      ].join('\n'),
    );
    expect(checkWorkflowText(text, 'inline.yml', actions)).toEqual([]);
  });

  it('actionlint on a broken workflow', async () => {
    const text = [
      'on: push',
      'jobs:',
      '  build:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: echo "${{ steps.nope.outputs.x }}"',
      '      - uses: actions/checkout',
      '    timeout-minutes: soon',
    ].join('\n');
    const problems = await actionlint(text, 'broken.yml');
    const messages = problems.map((p) => p.message).join('\n');
    expect(messages).toMatch(/property "nope" is not defined/);
    expect(messages).toMatch(/specifying action "actions\/checkout" in invalid format/);
    expect(messages).toMatch(/expecting a single \$\{\{\.\.\.\}\} expression or float number literal/);
  });

  it("GitHub's language service on a value passed through GITHUB_ENV and read as env, and on a bad key", async () => {
    const text = [
      'on: push',
      'jobs:',
      '  build:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: echo "URL=http://127.0.0.1:4545" >>"$GITHUB_ENV"',
      '      - uses: ./actions/upload-build',
      '        with:',
      '          api-url: ${{ env.URL }}',
      '      - run: echo done',
      '        timeout: 5',
    ].join('\n');
    expect(describeDiagnostics('inline.yml', await workflowDiagnostics(text, 'inline.yml'))).toBe(
      [
        'inline.yml:9:20: warning: Context access might be invalid: URL',
        "inline.yml:11:9: error: Unexpected value 'timeout'",
      ].join('\n'),
    );
  });
});
