import { describe, expect, it } from 'vitest';
import type { Artifacts, ArtifactUpload, WorkflowRun } from '../../src/deps.ts';
import { artifactName, uploadArtifact, type ArtifactRequest } from '../../src/services/artifact-upload.ts';
import { recordingLogger } from '../../src/step/logger.ts';

describe('artifactName', () => {
  it.each<[string, WorkflowRun, Parameters<typeof artifactName>[2], string]>([
    [
      'a shard of a matrix',
      { job: 'e2e', runAttempt: '1' },
      { shard: { index: 2, total: 3 } },
      'p-e2e-2-of-3-attempt-1',
    ],
    [
      'the same shard on a later attempt',
      { job: 'e2e', runAttempt: '2' },
      { shard: { index: 2, total: 3 } },
      'p-e2e-2-of-3-attempt-2',
    ],
    [
      'a step with an id of its own',
      { job: 'e2e', step: 'smoke', runAttempt: '1' },
      {},
      'p-e2e-smoke-attempt-1',
    ],
    ['a step the runner named', { job: 'e2e', step: '__run_2', runAttempt: '1' }, {}, 'p-e2e-attempt-1'],
    [
      'one shard of one',
      { job: 'e2e', runAttempt: '1' },
      { shard: { index: 1, total: 1 } },
      'p-e2e-attempt-1',
    ],
    ['a label with unsafe characters', { job: 'e2e' }, { label: 'ci/"run": 7\\x' }, 'p-e2e-ci-run-7-x'],
    ['nothing known of the run', {}, {}, 'p'],
    ['a very long job id', { job: 'j'.repeat(200), runAttempt: '1' }, {}, `p-${'j'.repeat(60)}-attempt-1`],
  ])('%s', (_case, workflow, options, name) => {
    expect(artifactName('p', workflow, options)).toBe(name);
  });

  it('gives the three shards of one attempt three names, and a later attempt three more', () => {
    const names = ['1', '2'].flatMap((runAttempt) =>
      [1, 2, 3].map((index) => artifactName('p', { job: 'e2e', runAttempt }, { shard: { index, total: 3 } })),
    );
    expect(new Set(names).size).toBe(6);
  });
});

/** An artifact service that answers from a list, one answer per upload, recording the names asked. */
function service(...answers: (ArtifactUpload | Error)[]): Artifacts & { names: string[]; days: unknown[] } {
  const names: string[] = [];
  const days: unknown[] = [];
  return {
    names,
    days,
    upload: async (name, _files, _root, options) => {
      names.push(name);
      days.push(options?.retentionDays);
      const answer = answers.shift() ?? { outcome: 'uploaded' };
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

const REQUEST: ArtifactRequest = {
  what: '2 file(s)',
  name: 'assets-e2e-attempt-1',
  files: ['/t/a/1.log', '/t/a/2.log'],
  root: '/t/a',
  kept: 'They stay in /t/a.',
};

describe('uploadArtifact', () => {
  it('uploads under the name asked, with the retention asked', async () => {
    const artifacts = service({ outcome: 'uploaded', id: 12 });
    const logger = recordingLogger();
    expect(await uploadArtifact(artifacts, logger, { ...REQUEST, retentionDays: 5 })).toBe(REQUEST.name);
    expect(artifacts.days).toEqual([5]);
    expect(logger.lines('info')).toEqual(['Uploaded 2 file(s) as artifact "assets-e2e-attempt-1" (id 12).']);
    expect(logger.lines('warning')).toEqual([]);
  });

  it('takes another name, made from the first, where the run has that one already', async () => {
    const artifacts = service({ outcome: 'name-taken' }, { outcome: 'uploaded' });
    const logger = recordingLogger();
    const name = await uploadArtifact(artifacts, logger, REQUEST);
    expect(name).toMatch(/^assets-e2e-attempt-1-[0-9a-f]{6}$/);
    expect(artifacts.names).toEqual([REQUEST.name, name]);
    expect(logger.lines('warning')).toEqual([]);
    expect(logger.lines('info')[0]).toContain('"assets-e2e-attempt-1" is taken in this run');
  });

  it.each<[string, (ArtifactUpload | Error)[], string]>([
    [
      'no artifact service',
      [{ outcome: 'unavailable', reason: 'this is GitHub Enterprise Server (ghe.example)' }],
      'Could not upload 2 file(s) as an artifact: this is GitHub Enterprise Server (ghe.example). They stay in /t/a.',
    ],
    [
      'an upload that fails',
      [new Error('Failed to FinalizeArtifact: (500) Internal Server Error')],
      'Could not upload 2 file(s) as an artifact: Failed to FinalizeArtifact: (500) Internal Server Error. They stay in /t/a.',
    ],
    [
      'every name tried taken',
      [{ outcome: 'name-taken' }, { outcome: 'name-taken' }, { outcome: 'name-taken' }],
      'Could not upload 2 file(s) as an artifact: the run has artifacts named "assets-e2e-attempt-1", ',
    ],
  ])('never throws, and warns once where the files stay, on %s', async (_case, answers, warning) => {
    const artifacts = service(...answers);
    const logger = recordingLogger();
    expect(await uploadArtifact(artifacts, logger, REQUEST)).toBeUndefined();
    expect(logger.lines('warning')).toHaveLength(1);
    expect(logger.lines('warning')[0]).toContain(warning);
    expect(logger.lines('warning')[0]).toMatch(/They stay in \/t\/a\.$/);
    expect(artifacts.names.length).toBe(answers.length);
  });
});
