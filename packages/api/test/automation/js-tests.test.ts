import { describe, expect, it } from 'vitest';
import { mockClient } from '../support/mock.ts';
import type { StartJsTestsParams } from '../../src/index.ts';
import { apiFailure, AUTOMATION_ORIGIN, onlyRequest, SAUCE_AUTH, useMock } from './helpers.ts';

describe('automation JS unit tests', () => {
  const mock = useMock();

  it('startJsTests posts platforms, url, framework, options and extra capabilities', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/alice/js-tests', { body: { 'js tests': ['j1', 'j2'] } });
    const started = await setup.client.automation.jsTests.start({
      platforms: [
        ['Windows 11', 'chrome', 'latest'],
        ['macOS 14', 'safari', '17'],
      ],
      url: 'http://127.0.0.1:8080/tests.html',
      framework: 'YUI Test',
      tunnelIdentifier: 'demo-tunnel',
      parentTunnel: 'org',
      build: 'b-1',
      name: 'unit',
      tags: ['ci'],
      maxDuration: 300,
      capabilities: { 'idle-timeout': 60, maxDuration: 1 },
    });
    expect(started['js tests']).toEqual(['j1', 'j2']);
    const request = onlyRequest(setup);
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
    expect(request.json).toEqual({
      'idle-timeout': 60,
      platforms: [
        ['Windows 11', 'chrome', 'latest'],
        ['macOS 14', 'safari', '17'],
      ],
      url: 'http://127.0.0.1:8080/tests.html',
      framework: 'YUI Test',
      tunnelIdentifier: 'demo-tunnel',
      parentTunnel: 'org',
      build: 'b-1',
      name: 'unit',
      tags: ['ci'],
      maxDuration: 300,
    });
  });

  it('startJsTests leaves unset members out', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/bob/js-tests', { body: { 'js tests': ['j1'] } });
    // As a JavaScript caller may write it: a member given as undefined counts as unset.
    const params = {
      username: 'bob',
      platforms: [['Linux', 'firefox', '120']],
      url: 'http://127.0.0.1/t',
      framework: 'mocha',
      build: undefined,
    } as unknown as StartJsTestsParams;
    await setup.client.automation.jsTests.start(params);
    expect(onlyRequest(setup).json).toEqual({
      platforms: [['Linux', 'firefox', '120']],
      url: 'http://127.0.0.1/t',
      framework: 'mocha',
    });
  });

  it('getJsTestStatus posts the ids and reads the answer', async () => {
    const setup = mock();
    const body = {
      completed: false,
      'js tests': [
        {
          id: 'j1',
          job_id: 'job not ready',
          platform: ['Windows 11', 'chrome', 'latest'],
          url: 'http://127.0.0.1/t',
          result: null,
        },
      ],
    };
    setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/alice/js-tests/status', { body });
    const status = await setup.client.automation.jsTests.getStatus(['j1']);
    expect(status.completed).toBe(false);
    expect(status['js tests'][0]?.platform).toEqual(['Windows 11', 'chrome', 'latest']);
    const request = onlyRequest(setup);
    expect(request.method).toBe('POST');
    expect(request.json).toEqual({ 'js tests': ['j1'] });
    expect(request.headers.authorization).toBe(SAUCE_AUTH);
  });

  it('getJsTestStatus is retried after a server error, as a read', async () => {
    const setup = mockClient({ retry: { retries: 1, minDelayMs: 1, maxDelayMs: 1 } });
    try {
      setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/alice/js-tests/status', { status: 503 });
      setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/alice/js-tests/status', {
        body: { completed: true, 'js tests': [] },
      });
      const status = await setup.client.automation.jsTests.getStatus(['j1']);
      expect(status.completed).toBe(true);
      expect(setup.requests).toHaveLength(2);
    } finally {
      await setup.agent.close();
    }
  });

  it('startJsTests failure gives the exact message', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'POST', '/rest/v1/alice/js-tests', {
      status: 400,
      body: { message: 'platforms missing' },
    });
    const error = await apiFailure(
      setup.client.automation.jsTests.start({ platforms: [], url: 'http://127.0.0.1/', framework: 'qunit' }),
    );
    expect(error.message).toBe('startJsTests: 400 platforms missing (POST /rest/v1/alice/js-tests)');
  });
});
