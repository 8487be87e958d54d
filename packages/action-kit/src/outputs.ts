/** Step outputs: every declared output is set, empty when there is no value, so later steps can test it. */
import * as core from '@actions/core';

export type OutputValue = string | number | boolean | readonly string[] | undefined;

export function setOutputs(outputs: Readonly<Record<string, OutputValue>>): void {
  for (const [name, value] of Object.entries(outputs)) {
    core.setOutput(name, outputText(value));
  }
}

/** Lists become comma-separated, which is what the list inputs of the next step accept. */
export function outputText(value: OutputValue): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}
