/**
 * What a host other than the runner needs of an action's `action.yml`: its inputs (names,
 * descriptions, defaults) and outputs. The command line gets it embedded at build time, so this
 * module only shapes an already parsed document; it never reads a file.
 */

interface InputMetadata {
  description: string;
  /**
   * As the runner hands it over: text, whatever type YAML gave it. A default that is a workflow
   * expression (`${{ github.token }}`) means nothing off the runner and is left out.
   */
  default?: string;
  /** The input takes a list (items separated by commas or newlines, or one per line). */
  list: boolean;
}

export interface ActionMetadata {
  name: string;
  description: string;
  /** In the order of `action.yml`. */
  inputs: Record<string, InputMetadata>;
  outputs: Record<string, { description: string }>;
}

/** How a list input says so in its description; the command line lets such a flag repeat. */
const LIST_WORDING = /separated by commas or newlines|per line/i;

/** Shapes a parsed `action.yml`; throws when it is not an action's metadata. */
export function actionMetadata(parsed: unknown, source = 'action.yml'): ActionMetadata {
  if (!isRecord(parsed)) throw new Error(`${source}: not a mapping`);
  const inputs: Record<string, InputMetadata> = {};
  for (const [name, spec] of Object.entries(isRecord(parsed.inputs) ? parsed.inputs : {})) {
    const input = isRecord(spec) ? spec : {};
    const description = text(input.description);
    inputs[name] = {
      description,
      ...(input.default !== undefined && input.default !== null && !String(input.default).includes('${{')
        ? { default: String(input.default) }
        : {}),
      list: LIST_WORDING.test(description),
    };
  }
  const outputs: Record<string, { description: string }> = {};
  for (const [name, spec] of Object.entries(isRecord(parsed.outputs) ? parsed.outputs : {})) {
    outputs[name] = { description: text(isRecord(spec) ? spec.description : undefined) };
  }
  return { name: text(parsed.name), description: text(parsed.description), inputs, outputs };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string'
    ? value.trim()
    : value === undefined || value === null
      ? ''
      : String(value);
}
