import { describe, expect, it } from 'vitest';
import { type Job, type JobRef } from '../../src/index.ts';
import { collect } from '../../src/core/resources/pagination.ts';
import { apiFailure, AUTOMATION_ORIGIN, onlyRequest, SAUCE_AUTH, useMock } from './helpers.ts';

const JOB_ID = '0123456789abcdef0123456789abcdef';

function job(id: string): Partial<Job> {
  return {
    id,
    name: `job ${id}`,
    status: 'complete',
    passed: null,
    consolidated_status: 'complete',
    creation_time: 1_700_000_000,
    'custom-data': { ticket: 'T-1' },
  };
}

describe('automation jobs', () => {
  const mock = useMock();

  it('listJobs without options sends no query and answers ids', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/alice/jobs', { body: [{ id: 'a' }, { id: 'b' }] });
    const jobs: JobRef[] = await setup.client.automation.jobs.list();
    expect(jobs.map((entry) => entry.id)).toEqual(['a', 'b']);
    const request = onlyRequest(setup);
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/rest/v1/alice/jobs');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('listJobs sends limit, full, skip, from and to as epoch seconds', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/bob/jobs', { body: [job('a')] });
    const jobs: Job[] = await setup.client.automation.jobs.list({
      username: 'bob',
      limit: 5,
      full: true,
      skip: 10,
      from: new Date('2026-01-01T00:00:00.900Z'),
      to: 1_767_312_000,
    });
    expect(jobs[0]?.['custom-data']).toEqual({ ticket: 'T-1' });
    expect(jobs[0]?.passed).toBeNull();
    const request = onlyRequest(setup);
    expect(Object.fromEntries(request.query)).toEqual({
      limit: '5',
      full: 'true',
      skip: '10',
      from: '1767225600',
      to: '1767312000',
    });
  });

  it('listJobs with format csv answers the text', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/alice/jobs', {
      body: 'id,name\na,first\n',
      headers: { 'content-type': 'text/csv' },
    });
    const text: string = await setup.client.automation.jobs.list({ format: 'csv' });
    expect(text).toBe('id,name\na,first\n');
    const request = onlyRequest(setup);
    expect(request.query.get('format')).toBe('csv');
    expect(request.headers.accept).toBe('text/csv');
  });

  it('iterateJobs pages with skip and limit, keeping from, to and full', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/alice/jobs', { body: [job('a'), job('b')] });
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/alice/jobs', { body: [job('c'), job('d')] });
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/alice/jobs', { body: [job('e')] });
    const jobs = await collect(
      setup.client.automation.jobs.iterate({ full: true, from: 100, to: new Date(200_000), pageSize: 2 }),
    );
    expect(jobs.map((entry) => entry.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(setup.requests.map((request) => Object.fromEntries(request.query))).toEqual(
      [0, 2, 4].map((skip) => ({
        full: 'true',
        from: '100',
        to: '200',
        format: 'json',
        skip: String(skip),
        limit: '2',
      })),
    );
    for (const request of setup.requests) expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('iterateJobs stops at maxItems without asking for more', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/alice/jobs', { body: [{ id: 'a' }, { id: 'b' }] });
    const jobs = await collect(setup.client.automation.jobs.iterate({ pageSize: 2, maxItems: 1 }));
    expect(jobs).toEqual([{ id: 'a' }]);
    expect(setup.requests).toHaveLength(1);
  });

  it('iterateJobs never asks for more than 1000 jobs a page', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/alice/jobs', { body: [{ id: 'a' }] });
    const jobs = await collect(setup.client.automation.jobs.iterate({ pageSize: 5000 }));
    expect(jobs).toEqual([{ id: 'a' }]);
    expect(onlyRequest(setup).query.get('limit')).toBe('1000');
  });

  it('getJob reads one job', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', `/rest/v1/alice/jobs/${JOB_ID}`, { body: job(JOB_ID) });
    const answer = await setup.client.automation.jobs.get(JOB_ID);
    expect(answer.id).toBe(JOB_ID);
    expect(answer.consolidated_status).toBe('complete');
    const request = onlyRequest(setup);
    expect(request.method).toBe('GET');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('getJob failure gives the exact message without secrets', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', `/rest/v1/alice/jobs/${JOB_ID}`, {
      status: 404,
      body: { code: 'not_found', message: 'job not found' },
    });
    const error = await apiFailure(setup.client.automation.jobs.get(JOB_ID));
    expect(error.message).toBe(`getJob: 404 job not found (GET /rest/v1/alice/jobs/${JOB_ID})`);
    expect(error.operation).toBe('getJob');
  });

  it('refuses ids that would change the path', async () => {
    const setup = mock();
    await expect(setup.client.automation.jobs.get('..')).rejects.toThrow(TypeError);
    await expect(setup.client.automation.jobs.get('')).rejects.toThrow(TypeError);
    expect(setup.requests).toHaveLength(0);
  });

  it('updateJob puts tags, name and custom-data', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'PUT', `/rest/v1/alice/jobs/${JOB_ID}`, {
      body: { ...job(JOB_ID), name: 'renamed' },
    });
    const updated = await setup.client.automation.jobs.update(JOB_ID, {
      tags: ['smoke'],
      name: 'renamed',
      customData: { release: '1.2' },
    });
    expect(updated.name).toBe('renamed');
    const request = onlyRequest(setup);
    expect(request.method).toBe('PUT');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
    expect(request.json).toEqual({ tags: ['smoke'], name: 'renamed', 'custom-data': { release: '1.2' } });
  });

  it('deleteJob sends DELETE and ignores the answer', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'DELETE', `/rest/v1/bob/jobs/${JOB_ID}`, { body: { ok: true } });
    await expect(setup.client.automation.jobs.delete(JOB_ID, { username: 'bob' })).resolves.toBeUndefined();
    const request = onlyRequest(setup);
    expect(request.method).toBe('DELETE');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('stopJob puts an empty body and returns the job when sent', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'PUT', `/rest/v1/alice/jobs/${JOB_ID}/stop`, {
      body: { id: JOB_ID, status: 'complete' },
    });
    const stopped = await setup.client.automation.jobs.stop(JOB_ID);
    expect(stopped?.status).toBe('complete');
    const request = onlyRequest(setup);
    expect(request.method).toBe('PUT');
    expect(request.body).toBe('');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);

    setup.reply(AUTOMATION_ORIGIN, 'PUT', `/rest/v1/alice/jobs/${JOB_ID}/stop`);
    await expect(setup.client.automation.jobs.stop(JOB_ID)).resolves.toBeUndefined();
  });

  it('stopJob failure gives the exact message', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'PUT', `/rest/v1/alice/jobs/${JOB_ID}/stop`, { status: 401 });
    const error = await apiFailure(setup.client.automation.jobs.stop(JOB_ID));
    expect(error.message).toBe(`stopJob: 401 Unauthorized (PUT /rest/v1/alice/jobs/${JOB_ID}/stop)`);
  });
});
