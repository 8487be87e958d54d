/** Reads an action's metadata file the way the runner needs it: inputs with defaults, outputs and the node entry points. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';

export interface ActionInput {
  description?: string;
  required?: boolean;
  default?: string;
  deprecationMessage?: string;
}

export interface ActionMetadata {
  name: string;
  description: string;
  inputs: Record<string, ActionInput>;
  outputs: Record<string, { description?: string }>;
  runs: {
    using: string;
    main: string;
    pre?: string;
    post?: string;
    'pre-if'?: string;
    'post-if'?: string;
  };
}

export async function readActionMetadata(actionDir: string): Promise<ActionMetadata> {
  const file = path.join(actionDir, 'action.yml');
  const parsed: unknown = parse(await readFile(file, 'utf8'));
  if (!parsed || typeof parsed !== 'object') throw new Error(`${file}: not a mapping`);
  const meta = parsed as Partial<ActionMetadata>;
  if (!meta.runs || typeof meta.runs.main !== 'string') throw new Error(`${file}: runs.main is missing`);
  if (!/^node\d+$/.test(meta.runs.using))
    throw new Error(`${file}: runs.using is ${meta.runs.using}, not a node runtime`);
  const inputs: Record<string, ActionInput> = {};
  for (const [name, spec] of Object.entries(meta.inputs ?? {})) {
    // YAML may give a default as a number or boolean; the runner hands every input over as text.
    const raw = (spec ?? {}) as ActionInput & { default?: unknown };
    inputs[name] = {
      ...raw,
      ...(raw.default !== undefined && raw.default !== null ? { default: String(raw.default) } : {}),
    };
  }
  return {
    name: String(meta.name ?? path.basename(actionDir)),
    description: String(meta.description ?? ''),
    inputs,
    outputs: meta.outputs ?? {},
    runs: meta.runs,
  };
}

/** The runner's name of an input's variable: upper-cased, spaces to `_`, hyphens kept. */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}
