/**
 * What to run: parsing of `test-cases` and `targets`. Both inputs are
 * YAML (JSON is YAML too), so a workflow can write them as a block or as one line. The YAML parser
 * loads on first use: most runs name a suite and never need it.
 */
import { checkId, InputError } from '@sauce-actions/action-kit';
import type { AuthoringRunTarget } from '@sauce-actions/api';

export interface CaseSelection {
  id: string;
  /** The case's name, when known (a suite's cases), for the log and the jobs never listed. */
  name?: string;
  /** The build to run it in, default the run's (a retry runs in the build of the run it repeats). */
  buildName?: string;
  /** Targets of this case only; default the `targets` input, else the case's own. */
  targets?: AuthoringRunTarget[];
}

/**
 * `test-cases`: a YAML list whose items are ids, or `{ id, targets? }`; a plain comma- or
 * newline-separated list of ids works too.
 */
export async function parseTestCases(text: string, name = 'test-cases'): Promise<CaseSelection[]> {
  const value = await parseYaml(text, name, { idsAsWritten: true });
  const items: unknown[] = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value.split(/[,\s]+/).filter((item) => item !== '')
      : [value];
  const cases = items.map((item, index) => caseOf(item, `item ${index + 1}`, name));
  if (cases.length === 0) throw new InputError(name, 'holds no test case', 'a list of test case ids');
  return cases;
}

/** `targets`: a YAML list of capabilities, or of `{ capabilities, isRdc? }`. */
export async function parseTargets(text: string, name = 'targets'): Promise<AuthoringRunTarget[]> {
  const value = await parseYaml(text, name);
  return targetsOf(value, name, name);
}

function caseOf(item: unknown, where: string, name: string): CaseSelection {
  if (typeof item === 'string' || typeof item === 'number') return { id: caseId(String(item), where, name) };
  if (isRecord(item) && (typeof item.id === 'string' || typeof item.id === 'number')) {
    const id = caseId(String(item.id), where, name);
    return item.targets === undefined
      ? { id }
      : { id, targets: targetsOf(item.targets, `${where} targets`, name) };
  }
  throw new InputError(
    name,
    `has ${where} that is neither an id nor { id, targets }`,
    'test case ids, or { id, targets } items',
  );
}

/** An id of the list, in the form of a test case's (24 hexadecimal digits), before any request. */
function caseId(id: string, where: string, name: string): string {
  return checkId(name, id, 'hex-24', {
    where,
    hint: "the test case's id in AI test authoring; to run a suite by id or name, use `suite`",
  });
}

function targetsOf(value: unknown, where: string, name: string): AuthoringRunTarget[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) throw new InputError(name, `has an empty list in ${where}`, 'at least one target');
  return list.map((item, index) => {
    if (!isRecord(item)) {
      throw new InputError(
        name,
        `has ${where} item ${index + 1} that is not a mapping`,
        'capabilities such as { browserName: chrome, platformName: Windows 11 }',
      );
    }
    if (isRecord(item.capabilities)) return item as AuthoringRunTarget;
    return { capabilities: item };
  });
}

async function parseYaml(
  text: string,
  name: string,
  options: { idsAsWritten?: boolean } = {},
): Promise<unknown> {
  // `default` is the package's exports both under Node and in the split bundle, where a CommonJS
  // package loaded on first use has no named exports.
  const yaml = (await import('yaml')).default;
  const document = yaml.parseDocument(text);
  const [error] = document.errors;
  if (error) {
    throw new InputError(
      name,
      `is not valid YAML or JSON (${error.message.split('\n')[0]})`,
      'a YAML or JSON list',
    );
  }
  if (options.idsAsWritten) {
    // An id of digits only, unquoted, reads as a number, which keeps 17 digits of its 24: ids
    // keep the text they were written as (the items of the list, or their `id`).
    const asWritten = (node: unknown): void => {
      if (yaml.isScalar(node) && typeof node.value === 'number' && node.source) node.value = node.source;
    };
    const root = document.contents;
    for (const item of yaml.isSeq(root) ? root.items : [root]) {
      asWritten(item);
      if (yaml.isMap(item)) asWritten(item.get('id', true));
    }
  }
  return document.toJS();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the step runs, for its series of runs: the suite as named, or the chosen cases. */
/** The run's name in its message and issues: the suite's, or `AI test cases`. */
export function suiteTitle(inputs: { suite?: string | undefined }): string {
  return inputs.suite ?? 'AI test cases';
}

export function suiteRunsWhat(inputs: {
  suite?: string | undefined;
  testCases?: readonly CaseSelection[] | undefined;
}): string {
  if (inputs.suite !== undefined) return `suite ${inputs.suite}`;
  return `cases ${(inputs.testCases ?? [])
    .map((testCase) => testCase.id)
    .sort()
    .join(' ')}`;
}
