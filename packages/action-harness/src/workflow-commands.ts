/** The `::command key=value::message` lines an action prints, as the runner reads them. */

export type AnnotationLevel = 'error' | 'warning' | 'notice';

export interface Annotation {
  level: AnnotationLevel;
  message: string;
  properties: Record<string, string>;
}

export interface ParsedLog {
  annotations: Annotation[];
  /** Values given to `::add-mask::`. */
  masks: string[];
  /** What the runner's log shows: masks applied, `add-mask` lines gone. */
  log: string;
  /** Every line except `add-mask` commands, with no masking: what would show if masking failed. */
  unmasked: string;
}

const COMMAND = /^::([A-Za-z-]+)(?: ([^:]*))?::(.*)$/;

function unescapeData(text: string): string {
  return text.replace(/%0D/gi, '\r').replace(/%0A/gi, '\n').replace(/%25/g, '%');
}

function unescapeProperty(text: string): string {
  return unescapeData(text).replace(/%3A/gi, ':').replace(/%2C/gi, ',');
}

export function parseWorkflowCommands(stdout: string): ParsedLog {
  const annotations: Annotation[] = [];
  const masks: string[] = [];
  const kept: string[] = [];
  for (const line of stdout.split('\n')) {
    const match = COMMAND.exec(line.replace(/\r$/, ''));
    if (!match) {
      kept.push(line);
      continue;
    }
    const [, command, props = '', data = ''] = match;
    if (command === 'add-mask') {
      const value = unescapeData(data).trim();
      if (value !== '') masks.push(value);
      continue;
    }
    if (command === 'error' || command === 'warning' || command === 'notice') {
      const properties: Record<string, string> = {};
      for (const pair of props.split(',').filter((p) => p !== '')) {
        const eq = pair.indexOf('=');
        if (eq > 0) properties[pair.slice(0, eq)] = unescapeProperty(pair.slice(eq + 1));
      }
      annotations.push({ level: command, message: unescapeData(data), properties });
    }
    kept.push(line);
  }
  const unmasked = kept.join('\n');
  return { annotations, masks, log: applyMasks(unmasked, masks), unmasked };
}

/** Replaces every masked value with `***`, longest first as the runner does. */
export function applyMasks(text: string, masks: readonly string[]): string {
  let out = text;
  for (const mask of [...masks].sort((a, b) => b.length - a.length)) out = out.split(mask).join('***');
  return out;
}
