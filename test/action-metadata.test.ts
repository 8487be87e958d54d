/**
 * The user-facing contract of the actions: action.yml, the README and the code agree on every
 * input and output, and the inputs and outputs of the interface are all there.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { readActionMetadata } from '@sauce-actions/action-harness';
import { describe, expect, it } from 'vitest';

const ACTIONS = path.resolve(import.meta.dirname, '..', 'actions');
const MOBILE_CONNECTION = ['api-key', 'email', 'oidc-token', 'oidc-config-key', 'region', 'api-url'];

/** The interface's key inputs and outputs of each action. */
const CONTRACT: Record<string, { inputs: string[]; outputs: string[] }> = {
  'upload-build': {
    inputs: [
      'file',
      'app-name',
      'symbols-file',
      'groups',
      'notify',
      'release-notes',
      'auto-update',
      'tags',
      'folder-name',
      'landing-page-mode',
      'upload-to-vendor',
      'platform',
      'metadata',
      ...MOBILE_CONNECTION,
    ],
    outputs: [
      'build-id',
      'project-id',
      'build-url',
      'download-page-url',
      'landing-page-url',
      'app-name',
      'app-version',
    ],
  },
  'invite-testers': {
    inputs: [
      'project-id',
      'build-id',
      'groups',
      'testers',
      'tester-group',
      'comment',
      'notify',
      ...MOBILE_CONNECTION,
    ],
    outputs: ['invited-groups', 'added-testers'],
  },
};

/** Inputs the shared readers of the action kit read for the mobile service. */
const READ_BY_KIT = MOBILE_CONNECTION;

describe.each(Object.keys(CONTRACT))('%s', (name) => {
  const dir = path.join(ACTIONS, name);

  it('runs on node24 from its bundle, with the interface inputs and outputs', async () => {
    const meta = await readActionMetadata(dir);
    expect(meta.runs.using).toBe('node24');
    expect(meta.runs.main).toBe('dist/index.js');
    expect(Object.keys(meta.inputs)).toEqual(expect.arrayContaining(CONTRACT[name]!.inputs));
    expect(Object.keys(meta.outputs)).toEqual(expect.arrayContaining(CONTRACT[name]!.outputs));
  });

  it('documents every input and output in action.yml and the README', async () => {
    const meta = await readActionMetadata(dir);
    const readme = await readFile(path.join(dir, 'README.md'), 'utf8');
    for (const [input, spec] of Object.entries(meta.inputs)) {
      expect(spec.description, `${input} has no description`).toBeTruthy();
      expect(readme, `README lacks input ${input}`).toContain(`\`${input}\``);
    }
    for (const [output, spec] of Object.entries(meta.outputs)) {
      expect(spec.description, `${output} has no description`).toBeTruthy();
      expect(readme, `README lacks output ${output}`).toContain(`\`${output}\``);
    }
    expect(readme).toContain(`actions/${name}@v1`);
  });

  it('reads only inputs that action.yml declares, and every one it declares', async () => {
    const meta = await readActionMetadata(dir);
    const sources = await readdir(path.join(dir, 'src'));
    let code = '';
    for (const file of sources) code += await readFile(path.join(dir, 'src', file), 'utf8');
    const read = new Set([
      ...[...code.matchAll(/read[A-Za-z]*\(\s*'([a-z-]+)'/g)].map((m) => m[1] as string),
      ...READ_BY_KIT,
    ]);
    expect([...read].filter((input) => !(input in meta.inputs))).toEqual([]);
    expect(Object.keys(meta.inputs).filter((input) => !read.has(input))).toEqual([]);
  });
});
