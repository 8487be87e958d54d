/**
 * JUnit XML reports, in the shape that common test reporters read (testsuites > testsuite >
 * testcase, with tests, failures, errors, skipped and time on each suite). Values are redacted,
 * since a report is uploaded or published where the log's masking does not reach.
 */
import { writeOutputFile } from '../reporting/output-files.ts';
import type * as XmlWriter from '../reporting/xml-writer.ts';
import { redactSecrets } from '../step/secrets.ts';

interface JUnitProblem {
  message: string;
  details?: string;
}

/** An earlier run of a case that was run again, as Maven Surefire reports reruns. */
export interface JUnitRerun extends JUnitProblem {
  kind: 'failure' | 'error';
  /** The run's page, written as its system-out. */
  url?: string;
}

export interface JUnitTestCase {
  name: string;
  classname: string;
  timeSeconds?: number;
  failure?: JUnitProblem;
  error?: JUnitProblem;
  /** Not run, or not counted (a quarantined case): with why, as `<skipped message>`. */
  skipped?: boolean | { message: string };
  /**
   * Earlier failed runs, oldest first. In a case that passed they are `<flakyFailure>` and
   * `<flakyError>` (the case is flaky, and counts as passed); in a case that failed,
   * `<rerunFailure>` and `<rerunError>`: the elements Surefire writes, which reporters show.
   */
  reruns?: readonly JUnitRerun[];
  /** A link to the case's page, kept as a property and in system-out since JUnit has no field for it. */
  url?: string;
}

export interface JUnitTestSuite {
  name: string;
  cases: JUnitTestCase[];
  timestamp?: Date;
  properties?: Record<string, string>;
}

/** The XML text; the XML writer is loaded here, on first use, since most runs write no report. */
export async function renderJUnit(suites: JUnitTestSuite[]): Promise<string> {
  const { create } = await import('../reporting/xml-writer.ts');
  const totals = { tests: 0, failures: 0, errors: 0, skipped: 0, time: 0 };
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites');
  for (const suite of suites) {
    const counts = countCases(suite.cases);
    totals.tests += counts.tests;
    totals.failures += counts.failures;
    totals.errors += counts.errors;
    totals.skipped += counts.skipped;
    totals.time += counts.time;
    const element = root.ele('testsuite', {
      name: clean(suite.name),
      tests: String(counts.tests),
      failures: String(counts.failures),
      errors: String(counts.errors),
      skipped: String(counts.skipped),
      time: seconds(counts.time),
      ...(suite.timestamp ? { timestamp: suite.timestamp.toISOString().replace(/\.\d{3}Z$/, 'Z') } : {}),
    });
    const properties = Object.entries(suite.properties ?? {});
    if (properties.length > 0) {
      const list = element.ele('properties');
      for (const [name, value] of properties)
        list.ele('property', { name: clean(name), value: clean(value) });
    }
    for (const testCase of suite.cases) addCase(element, testCase);
  }
  root.att({
    tests: String(totals.tests),
    failures: String(totals.failures),
    errors: String(totals.errors),
    skipped: String(totals.skipped),
    time: seconds(totals.time),
  });
  return `${root.end({ prettyPrint: true })}\n`;
}

/** Writes the report, creating the folder it goes in (one level at a time: see `ensureFolder`). */
export async function writeJUnitFile(file: string, suites: JUnitTestSuite[]): Promise<void> {
  await writeOutputFile(file, await renderJUnit(suites));
}

type Element = ReturnType<ReturnType<typeof XmlWriter.create>['ele']>;

function addCase(suite: Element, testCase: JUnitTestCase): void {
  const element = suite.ele('testcase', {
    name: clean(testCase.name),
    classname: clean(testCase.classname),
    time: seconds(testCase.timeSeconds ?? 0),
  });
  if (testCase.url) element.ele('properties').ele('property', { name: 'url', value: clean(testCase.url) });
  // error before failure: a case that could not run is reported as an error even if also marked failed
  if (testCase.error) addProblem(element, 'error', testCase.error);
  else if (testCase.failure) addProblem(element, 'failure', testCase.failure);
  else if (typeof testCase.skipped === 'object')
    element.ele('skipped', { message: clean(testCase.skipped.message) });
  else if (testCase.skipped) element.ele('skipped');
  const failed = testCase.error !== undefined || testCase.failure !== undefined;
  for (const rerun of testCase.reruns ?? []) addRerun(element, failed ? 'rerun' : 'flaky', rerun);
  if (testCase.url) element.ele('system-out').txt(clean(testCase.url));
}

/** `<flakyFailure message type><stackTrace>…</stackTrace><system-out>…</system-out></flakyFailure>`, and the like. */
function addRerun(element: Element, prefix: 'flaky' | 'rerun', rerun: JUnitRerun): void {
  const name = `${prefix}${rerun.kind === 'failure' ? 'Failure' : 'Error'}`;
  const child = element.ele(name, { message: clean(rerun.message), type: rerun.kind });
  if (rerun.details) child.ele('stackTrace').txt(clean(rerun.details));
  if (rerun.url) child.ele('system-out').txt(clean(rerun.url));
}

function addProblem(element: Element, kind: 'failure' | 'error', problem: JUnitProblem): void {
  const child = element.ele(kind, { message: clean(problem.message), type: kind });
  if (problem.details) child.txt(clean(problem.details));
}

function countCases(cases: readonly JUnitTestCase[]) {
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  let time = 0;
  for (const testCase of cases) {
    if (testCase.error) errors += 1;
    else if (testCase.failure) failures += 1;
    else if (testCase.skipped) skipped += 1;
    time += finite(testCase.timeSeconds);
  }
  return { tests: cases.length, failures, errors, skipped, time };
}

function finite(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : 0;
}

function seconds(value: number): string {
  return finite(value).toFixed(3);
}

// XML 1.0 cannot carry most control characters, even escaped: drop them rather than write a file no parser reads.
// eslint-disable-next-line no-control-regex
const invalidXml = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function clean(text: string): string {
  return redactSecrets(text).replace(invalidXml, '');
}
