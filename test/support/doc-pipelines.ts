/**
 * The pipelines that docs/ci-pipelines.md gives for other CI systems, read from the document itself so
 * that what the tests run and parse is what users copy: each is a fenced `yaml` block whose first
 * line is a comment naming the file it goes to (`# .gitlab-ci.yml`), and the GitLab template the
 * first one includes, a committed file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT, yamlBlocks } from './workflows.ts';

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
