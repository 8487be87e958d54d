import { describe, expect, it } from 'vitest';
import { apiFailure, AUTOMATION_ORIGIN, onlyRequest, useMock } from './helpers.ts';

describe('automation public information', () => {
  const mock = useMock();

  it('getStatus sends no credentials', async () => {
    const setup = mock();
    const body = { service_operational: true, status_message: 'ok', wait_time: 0.1 };
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/info/status', { body });
    expect(await setup.client.automation.info.getStatus()).toEqual(body);
    const request = onlyRequest(setup);
    expect(request.method).toBe('GET');
    expect(request.headers.authorization).toBeUndefined();
  });

  it('listPlatforms names the automation interface and sends no credentials', async () => {
    const setup = mock();
    const body = [{ api_name: 'chrome', long_name: 'Google Chrome', os: 'Windows 11', short_version: '120' }];
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/info/platforms/appium', { body });
    const platforms = await setup.client.automation.info.listPlatforms('appium');
    expect(platforms[0]?.api_name).toBe('chrome');
    const request = onlyRequest(setup);
    expect(request.method).toBe('GET');
    expect(request.headers.authorization).toBeUndefined();
  });

  it('listPlatforms failure gives the exact message', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/info/platforms/nope', { status: 503 });
    const error = await apiFailure(setup.client.automation.info.listPlatforms('nope'));
    expect(error.message).toBe('listPlatforms: 503 Service Unavailable (GET /rest/v1/info/platforms/nope)');
  });

  it('getSauceConnectDownload asks for a platform and version and sends no credentials', async () => {
    const setup = mock();
    const body = {
      download: {
        url: 'https://saucelabs.com/downloads/sauce-connect/5.4.1/sauce-connect-5.4.1_linux.x86_64.tar.gz',
        version: '5.4.1',
        checksums: [{ algorithm: 'sha256', value: 'ab'.repeat(32) }],
      },
    };
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/public/tunnels/sauce-connect/download', { body });
    const download = await setup.client.automation.info.getSauceConnectDownload({
      os: 'linux',
      arch: 'x86_64',
      version: '5.4.1',
    });
    expect(download).toEqual(body);
    const request = onlyRequest(setup);
    expect(Object.fromEntries(request.query)).toEqual({ os: 'linux', arch: 'x86_64', version: '5.4.1' });
    expect(request.headers.authorization).toBeUndefined();
  });

  it('getSauceConnectDownload failure gives the service message', async () => {
    const setup = mock();
    setup.reply(AUTOMATION_ORIGIN, 'GET', '/rest/v1/public/tunnels/sauce-connect/download', {
      status: 404,
      body: { error: { code: '404', message: 'Invalid input' } },
    });
    const error = await apiFailure(
      setup.client.automation.info.getSauceConnectDownload({ os: 'plan9', arch: 'x86_64' }),
    );
    expect(error.status).toBe(404);
    expect(error.message).toContain('getSauceConnectDownload: 404');
    expect(error.message).toContain('Invalid input');
  });
});
