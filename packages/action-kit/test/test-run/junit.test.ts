import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { create } from 'xmlbuilder2';
import { clearSecrets, registerSecret } from '../../src/step/secrets.ts';
import { renderJUnit, writeJUnitFile } from '../../src/test-run/junit.ts';

afterEach(() => {
  clearSecrets();
  vi.restoreAllMocks();
});

type Node = Record<string, unknown>;

function parse(xml: string): Node {
  return create(xml).end({ format: 'object' }) as Node;
}

describe('renderJUnit', () => {
  it('counts tests, failures, errors, skipped and time per suite and in total', async () => {
    const xml = await renderJUnit([
      {
        name: 'Smoke',
        timestamp: new Date('2026-01-02T03:04:05.678Z'),
        properties: { build: 'Smoke #7' },
        cases: [
          { name: 'Login', classname: 'Smoke.chrome', timeSeconds: 1.5 },
          {
            name: 'Checkout',
            classname: 'Smoke.chrome',
            timeSeconds: 2,
            failure: { message: 'button missing', details: 'step 3' },
            url: 'https://app.example/tests/1',
          },
          { name: 'Search', classname: 'Smoke.chrome', error: { message: 'no device' } },
          { name: 'Later', classname: 'Smoke.chrome', skipped: true },
        ],
      },
      { name: 'Empty', cases: [] },
    ]);
    const doc = parse(xml) as { testsuites: Node & { testsuite: Node[] } };
    const root = doc.testsuites;
    expect(root['@tests']).toBe('4');
    expect(root['@failures']).toBe('1');
    expect(root['@errors']).toBe('1');
    expect(root['@skipped']).toBe('1');
    expect(root['@time']).toBe('3.500');
    const [smoke, empty] = root.testsuite as [Node, Node];
    expect(smoke['@name']).toBe('Smoke');
    expect(smoke['@timestamp']).toBe('2026-01-02T03:04:05Z');
    expect(smoke['@tests']).toBe('4');
    expect(empty['@tests']).toBe('0');
    expect(xml).toContain('<property name="build" value="Smoke #7"/>');
    expect(xml).toContain('<failure message="button missing" type="failure">step 3</failure>');
    expect(xml).toContain('<error message="no device" type="error"/>');
    expect(xml).toContain('<skipped/>');
    expect(xml).toContain('<property name="url" value="https://app.example/tests/1"/>');
  });

  it('escapes markup, drops characters XML cannot carry and redacts secrets', async () => {
    registerSecret('hunter22');
    const xml = await renderJUnit([
      {
        name: 'a <b> & "c"',
        cases: [
          {
            name: 'x\u0001y',
            classname: 'k',
            failure: { message: 'key hunter22 <bad>', details: ']]> & more' },
          },
        ],
      },
    ]);
    expect(xml).not.toContain('hunter22');
    expect(xml).not.toContain('\u0001');
    expect(xml).toContain('name="xy"');
    expect(xml).toContain('<testsuite name="a &lt;b&gt; &amp; &quot;c&quot;"');
    expect(xml).toContain('message="key *** &lt;bad&gt;"');
    expect(xml).toContain(']]&gt; &amp; more');
    // still well-formed
    expect(() => parse(xml)).not.toThrow();
  });

  it('writes earlier failed runs as Surefire does: flaky in a case that passed, reruns in one that failed', async () => {
    const xml = await renderJUnit([
      {
        name: 'Regression',
        cases: [
          {
            name: 'Case 07',
            classname: 'Regression.chrome',
            reruns: [
              {
                kind: 'failure',
                message: 'attempt 1: timed out',
                details: 'step 2',
                url: 'https://app.example/tests/1',
              },
            ],
          },
          {
            name: 'Checkout',
            classname: 'Regression.chrome',
            failure: { message: 'button missing' },
            reruns: [{ kind: 'error', message: 'attempt 1: no device' }],
          },
        ],
      },
    ]);
    // The flaky case counts as passed.
    expect(xml).toContain('<testsuites tests="2" failures="1" errors="0"');
    expect(xml).toContain(
      '<flakyFailure message="attempt 1: timed out" type="failure">\n        <stackTrace>step 2</stackTrace>\n        <system-out>https://app.example/tests/1</system-out>\n      </flakyFailure>',
    );
    expect(xml).toMatch(
      /<failure message="button missing" type="failure"\/>\s*<rerunError message="attempt 1: no device" type="error"\/>/,
    );
    expect(xml).not.toContain('<flakyError');
    expect(() => parse(xml)).not.toThrow();
  });

  it('ignores negative or missing times', async () => {
    const xml = await renderJUnit([{ name: 's', cases: [{ name: 'n', classname: 'c', timeSeconds: -3 }] }]);
    expect(xml).toContain('time="0.000"');
  });
});

describe('writeJUnitFile', () => {
  it('creates the folder and writes the report', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'junit-'));
    try {
      const file = path.join(dir, 'reports', 'nested', 'junit.xml');
      await writeJUnitFile(file, [{ name: 's', cases: [{ name: 'n', classname: 'c' }] }]);
      const xml = readFileSync(file, 'utf8');
      expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
      expect(xml).toContain('<testcase name="n" classname="c" time="0.000"/>');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
