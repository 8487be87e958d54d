import { describe, expect, it } from 'vitest';
import type { Tunnel } from '../../src/index.ts';
import { apiFailure, AUTOMATION_ORIGIN, onlyRequest, SAUCE_AUTH, useMock } from './helpers.ts';

const TUNNEL: Partial<Tunnel> = {
  id: 't1',
  owner: 'alice',
  status: 'running',
  tunnel_identifier: 'demo-tunnel',
  metadata: { hostname: 'ci', release: '5.2' },
};

describe('automation tunnels', () => {
  const mock = useMock();

  it('listTunnels answers ids by default', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/alice/tunnels', { body: ['t1', 't2'] });
    const ids: string[] = await setup.client.automation.tunnels.list();
    expect(ids).toEqual(['t1', 't2']);
    const request = onlyRequest(setup);
    expect(request.path).toBe('/rest/v1/alice/tunnels');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('listTunnels with full answers whole tunnels', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/alice/tunnels', { body: [TUNNEL] });
    const tunnels: Tunnel[] = await setup.client.automation.tunnels.list({ full: true });
    expect(tunnels[0]?.tunnel_identifier).toBe('demo-tunnel');
    expect(onlyRequest(setup).query.get('full')).toBe('true');
  });

  it('getTunnel reads one tunnel', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/bob/tunnels/t1', { body: TUNNEL });
    const tunnel = await setup.client.automation.tunnels.get('t1', { username: 'bob' });
    expect(tunnel.status).toBe('running');
    expect(tunnel.metadata?.hostname).toBe('ci');
    const request = onlyRequest(setup);
    expect(request.method).toBe('GET');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('deleteTunnel sends the reason as a JSON body and reads the answer', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'DELETE', '/rest/v1/alice/tunnels/t1', {
      body: { result: true, id: 't1', jobs_running: 2 },
    });
    const answer = await setup.client.automation.tunnels.delete('t1', { reason: 'workflow finished' });
    expect(answer).toEqual({ result: true, id: 't1', jobs_running: 2 });
    const request = onlyRequest(setup);
    expect(request.method).toBe('DELETE');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.json).toEqual({ reason: 'workflow finished' });
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('deleteTunnel without a reason sends no body', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'DELETE', '/rest/v1/alice/tunnels/t1', {
      body: { result: true, id: 't1', jobs_running: 0 },
    });
    await setup.client.automation.tunnels.delete('t1');
    const request = onlyRequest(setup);
    expect(request.body).toBe('');
    expect(request.headers['content-type']).toBeUndefined();
  });

  it('getTunnel failure gives the exact message', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/alice/tunnels/gone', {
      status: 404,
      body: { message: 'tunnel not found' },
    });
    const error = await apiFailure(setup.client.automation.tunnels.get('gone'));
    expect(error.message).toBe('getTunnel: 404 tunnel not found (GET /rest/v1/alice/tunnels/gone)');
  });
});
