/**
 * Workflows as users write them: the files under `.github/workflows` and `examples/`, the `yaml`
 * blocks of the READMEs, and what each step that uses one of this repository's actions passes to
 * it and reads from it, checked against the inputs and outputs its action.yml declares.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface ActionInterface {
  inputs: ReadonlySet<string>;
  outputs: ReadonlySet<string>;
}

/** Every `actions/<name>/action.yml`, by name. */
export function readActionInterfaces(root = ROOT): Map<string, ActionInterface> {
  const actions = new Map<string, ActionInterface>();
  for (const name of readdirSync(path.join(root, 'actions')).sort()) {
    let text: string;
    try {
      text = readFileSync(path.join(root, 'actions', name, 'action.yml'), 'utf8');
    } catch {
      continue;
    }
    const metadata = parse(text) as { inputs?: Record<string, unknown>; outputs?: Record<string, unknown> };
    actions.set(name, {
      inputs: new Set(Object.keys(metadata.inputs ?? {})),
      outputs: new Set(Object.keys(metadata.outputs ?? {})),
    });
  }
  return actions;
}

/** Workflow files, relative to the root: `.github/workflows/*.yml` and every YAML file under `examples/`. */
export function workflowFiles(root = ROOT): string[] {
  const files: string[] = [];
  const walk = (dir: string, recursive: boolean): void => {
    let entries;
    try {
      entries = readdirSync(path.join(root, dir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory() && recursive) walk(relative, true);
      else if (entry.isFile() && /\.ya?ml$/.test(entry.name)) files.push(relative);
    }
  };
  walk('.github/workflows', false);
  walk('examples', true);
  return files.sort();
}

/** The READMEs whose `yaml` blocks are checked: the root's and those of every action and package. */
export function readmeFiles(root = ROOT): string[] {
  const files = ['README.md'];
  for (const parent of ['actions', 'packages']) {
    for (const name of readdirSync(path.join(root, parent)).sort()) {
      try {
        readFileSync(path.join(root, parent, name, 'README.md'));
        files.push(`${parent}/${name}/README.md`);
      } catch {
        // A folder without a README.
      }
    }
  }
  return files;
}

export interface YamlBlock {
  /** `README.md:12`: the file and the line of the block's first YAML line. */
  source: string;
  text: string;
}

/** The fenced ```yaml blocks of a Markdown text. */
export function yamlBlocks(markdown: string, file: string): YamlBlock[] {
  const blocks: YamlBlock[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    if (!/^\s*```ya?ml\s*$/.test(lines[index] ?? '')) continue;
    const start = index + 1;
    let end = start;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end] ?? '')) end++;
    blocks.push({ source: `${file}:${start + 1}`, text: lines.slice(start, end).join('\n') });
    index = end;
  }
  return blocks;
}

/** The action a `uses:` names, when it is one of ours: `./actions/<name>` or `<owner>/sauce-actions/actions/<name>@<ref>`. */
export function ourActionName(uses: string): string | undefined {
  const local = /^\.\/actions\/([\w-]+)\/?$/.exec(uses);
  if (local) return local[1];
  return /^[^/\s]+\/sauce-actions\/actions\/([\w-]+)@\S+$/.exec(uses)?.[1];
}

export type Step = Record<string, unknown> & { id?: string; uses?: string; with?: Record<string, unknown> };
export type Job = Record<string, unknown> & { steps?: Step[] };

/**
 * The jobs of a parsed document. A README block may be a whole workflow (`jobs:`), one job
 * (`steps:`), a list of steps, one step, or a bare `with:` of the action its README describes.
 */
export function jobsOf(document: unknown, defaultAction?: string): Map<string, Job> {
  const jobs = new Map<string, Job>();
  if (Array.isArray(document)) {
    jobs.set('(steps)', { steps: document as Step[] });
  } else if (isRecord(document)) {
    if (isRecord(document.jobs)) {
      for (const [name, job] of Object.entries(document.jobs)) if (isRecord(job)) jobs.set(name, job as Job);
    } else if (Array.isArray(document.steps)) {
      jobs.set('(job)', document as Job);
    } else if (typeof document.uses === 'string') {
      jobs.set('(step)', { steps: [document as Step] });
    } else if (isRecord(document.with) && defaultAction !== undefined) {
      jobs.set('(with)', { steps: [{ ...document, uses: `./actions/${defaultAction}` } as Step] });
    }
  }
  return jobs;
}

/** `steps.<id>.outputs.<name>` (or `['<name>']`) references in a text. */
export function stepOutputReferences(text: string): { id: string; output: string }[] {
  const references: { id: string; output: string }[] = [];
  for (const expression of text.matchAll(/\$\{\{([\s\S]*?)\}\}/g)) {
    const pattern = /\bsteps\.([A-Za-z_][\w-]*)\.outputs(?:\.([A-Za-z_][\w-]*)|\[\s*'([^']+)'\s*\])/g;
    for (const match of (expression[1] ?? '').matchAll(pattern)) {
      references.push({ id: match[1] as string, output: (match[2] ?? match[3]) as string });
    }
  }
  return references;
}

export interface Problem {
  source: string;
  job: string;
  message: string;
}

/**
 * Steps that pass an input their action does not declare, use an action of ours that does not
 * exist, or read an output (`steps.<id>.outputs.<x>`) that the action of step `<id>` does not
 * declare, anywhere in the same job (other steps' `with`, `env`, `run` and `if`, the job's `outputs`).
 */
export function checkWorkflowText(
  text: string,
  source: string,
  actions: ReadonlyMap<string, ActionInterface>,
  defaultAction?: string,
): Problem[] {
  const problems: Problem[] = [];
  for (const [jobName, job] of jobsOf(parse(text), defaultAction)) {
    const report = (message: string): void => void problems.push({ source, job: jobName, message });
    const steps = Array.isArray(job.steps) ? job.steps.filter(isRecord) : [];
    const actionOfStep = new Map<string, string | undefined>();
    steps.forEach((step, index) => {
      const name = typeof step.uses === 'string' ? ourActionName(step.uses) : undefined;
      if (typeof step.id === 'string') actionOfStep.set(step.id, name);
      if (name === undefined) return;
      const action = actions.get(name);
      const label = `step ${typeof step.id === 'string' ? `"${step.id}"` : index + 1} (${name})`;
      if (!action) {
        report(`${label} uses an action that does not exist`);
        return;
      }
      for (const input of Object.keys(isRecord(step.with) ? step.with : {})) {
        if (!action.inputs.has(input))
          report(`${label} passes input "${input}", which ${name} does not declare`);
      }
    });
    const { steps: _steps, ...rest } = job;
    for (const { id, output } of stepOutputReferences(JSON.stringify([rest, steps]))) {
      if (!actionOfStep.has(id)) {
        report(`reads steps.${id}.outputs.${output}, but the job has no step "${id}"`);
        continue;
      }
      const name = actionOfStep.get(id);
      const action = name !== undefined ? actions.get(name) : undefined;
      if (action && !action.outputs.has(output)) {
        report(`reads steps.${id}.outputs.${output}, which ${name} (step "${id}") does not declare`);
      }
    }
  }
  return problems;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
