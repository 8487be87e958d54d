import { describe, expect, it } from 'vitest';
import { apiFailure, AUTOMATION_ORIGIN, onlyRequest, SAUCE_AUTH, useMock } from './helpers.ts';

describe('automation bugs', () => {
  const mock = useMock();

  it('listBugTypes is public', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/bugs/types', { body: [{ id: 'bt1', name: 'Visual' }] });
    expect(await setup.client.automation.bugs.listTypes()).toEqual([{ id: 'bt1', name: 'Visual' }]);
    const request = onlyRequest(setup);
    expect(request.method).toBe('GET');
    expect(request.headers.authorization).toBeUndefined();
  });

  it('getBugType is public', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/bugs/types/bt1', { body: { Title: { type: 'text' } } });
    expect(await setup.client.automation.bugs.getType('bt1')).toEqual({ Title: { type: 'text' } });
    expect(onlyRequest(setup).headers.authorization).toBeUndefined();
  });

  it('getBug reads one bug with credentials', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/bugs/detail/b1', { body: { id: 'b1', Title: 'Broken' } });
    expect(await setup.client.automation.bugs.get('b1')).toEqual({ id: 'b1', Title: 'Broken' });
    const request = onlyRequest(setup);
    expect(request.method).toBe('GET');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('queryBugs sends the ids as a JSON array', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/bugs/query/', { body: [{ id: 'b1' }, { id: 'b2' }] });
    const bugs = await setup.client.automation.bugs.query(['b1', 'b2']);
    expect(bugs).toHaveLength(2);
    const request = onlyRequest(setup);
    expect(request.pathname).toBe('/rest/v1/bugs/query/');
    expect(JSON.parse(request.query.get('ids')!)).toEqual(['b1', 'b2']);
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('updateBug puts the changes as a JSON object in the query', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'PUT', '/rest/v1/bugs/update/b1', { body: { id: 'b1', Title: 'New' } });
    const bug = await setup.client.automation.bugs.update('b1', { Title: 'New', Description: 'a & b' });
    expect(bug).toEqual({ id: 'b1', Title: 'New' });
    const request = onlyRequest(setup);
    expect(request.method).toBe('PUT');
    expect(JSON.parse(request.query.get('update')!)).toEqual({ Title: 'New', Description: 'a & b' });
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('getBug failure gives the exact message', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/bugs/detail/b9', {
      status: 404,
      body: { message: 'bug not found' },
    });
    const error = await apiFailure(setup.client.automation.bugs.get('b9'));
    expect(error.message).toBe('getBug: 404 bug not found (GET /rest/v1/bugs/detail/b9)');
  });
});
