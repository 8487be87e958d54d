/**
 * The pipelines that docs/ci-pipelines.md gives for other CI systems, read from the document itself so
 * that what the tests run and parse is what users copy: each is a fenced `yaml` block whose first
 * line is a comment naming the file it goes to (`# .gitlab-ci.yml`), and the GitLab template the
 * first one includes, a committed file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { readmeFiles, ROOT, yamlBlocks } from './workflows.ts';

export const PIPELINES_DOC = 'docs/ci-pipelines.md';
export const GITLAB_TEMPLATE = 'templates/gitlab/sauce-actions.gitlab-ci.yml';

/** The placeholders the pipelines hold where a user writes their own values. */
export const PLACEHOLDERS = {
  /** Where the include's address takes the template from, up to the tag. */
  templateBase: 'https://raw.githubusercontent.com/<owner>/sauce-actions/',
  repository: 'https://github.com/<owner>/sauce-actions.git',
};

/** The text of the block whose first line is `# <file>`; throws when there is not exactly one. */
export function docPipeline(file: string, doc = PIPELINES_DOC): string {
  const markdown = readFileSync(path.join(ROOT, doc), 'utf8');
  const found = yamlBlocks(markdown, doc).filter((block) => block.text.split('\n')[0] === `# ${file}`);
  if (found.length !== 1) throw new Error(`${doc} has ${found.length} yaml blocks for ${file}, not 1`);
  return (found[0] as { text: string }).text;
}

export function gitlabTemplateText(): string {
  return readFileSync(path.join(ROOT, GITLAB_TEMPLATE), 'utf8');
}

export interface GitlabTemplate {
  /** The `spec:` header: each input and its default, if it has one. */
  inputs: Record<string, { default?: unknown; description?: string }>;
  /** The configuration after the header. */
  config: Record<string, unknown>;
}

/** The template's two YAML documents, the `spec` header and the configuration. */
export function gitlabTemplate(text = gitlabTemplateText()): GitlabTemplate {
  const documents = parseAllDocuments(text);
  if (!Array.isArray(documents) || documents.length !== 2) {
    throw new Error(`${GITLAB_TEMPLATE}: expected a spec header and a configuration, two YAML documents`);
  }
  const [header, config] = documents.map((document) => document.toJS() as Record<string, unknown>);
  const spec = (header?.spec ?? {}) as { inputs?: GitlabTemplate['inputs'] };
  return { inputs: spec.inputs ?? {}, config: config ?? {} };
}

/** The default of an input of an action's `action.yml`. */
export function actionDefault(action: string, input: string): string {
  const metadata = parse(readFileSync(path.join(ROOT, 'actions', action, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: unknown }>;
  };
  return String(metadata.inputs[input]?.default);
}

/** A GitLab job of the docs outside a whole pipeline: its block's place, its name, its keys. */
export interface GitlabDocJob {
  source: string;
  name: string;
  job: Record<string, unknown>;
}

/**
 * The GitLab jobs that the docs and READMEs give on their own, to add to a pipeline that includes
 * the template: every `yaml` block, other than a whole pipeline (one with `include:`), whose
 * top-level keys hold jobs (a `script:` or an `extends:`).
 */
export function gitlabDocJobs(root = ROOT): GitlabDocJob[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  const jobs: GitlabDocJob[] = [];
  for (const file of [...docs.sort(), ...readmeFiles(root)]) {
    for (const block of yamlBlocks(readFileSync(path.join(root, file), 'utf8'), file)) {
      const document: unknown = parse(block.text);
      if (typeof document !== 'object' || document === null || Array.isArray(document)) continue;
      if ('include' in document) continue;
      for (const [name, job] of Object.entries(document as Record<string, unknown>)) {
        if (typeof job !== 'object' || job === null || Array.isArray(job)) continue;
        if ('script' in job || 'extends' in job) {
          jobs.push({ source: block.source, name, job: job as Record<string, unknown> });
        }
      }
    }
  }
  return jobs;
}
