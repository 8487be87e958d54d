/** What the tests of the input reader share: a reader over inputs a test sets, and its refusals. */
import { afterEach } from 'vitest';
import { InputError, InputReader } from '../../src/index.ts';

/** A reader of the inputs a test sets, in a workspace a test may change; both put back after each test. */
export function useTestReader(): {
  read: InputReader;
  values: Map<string, string>;
  setInput: (name: string, value: string) => void;
  setWorkspace: (dir: string) => void;
} {
  const values = new Map<string, string>();
  let workspace = process.cwd();
  const read = new InputReader({
    input: (name) => values.get(name) ?? '',
    env: () => undefined,
    get workspace() {
      return workspace;
    },
  });

  afterEach(() => {
    values.clear();
    workspace = process.cwd();
  });

  return {
    read,
    values,
    setInput: (name, value) => void values.set(name, value),
    setWorkspace: (dir) => void (workspace = dir),
  };
}

export function errorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}
