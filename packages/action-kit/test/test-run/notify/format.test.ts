/** The format of a message: notify-format when given, else the address's host. */
import { describe, expect, it } from 'vitest';
import { notifyFormatOf } from '../../../src/test-run/notify/format.ts';

describe('the format of a message', () => {
  it.each([
    ['https://hooks.slack.com/services/T000/B000/XXXX', 'slack'],
    ['https://HOOKS.SLACK.COM/services/T000/B000/XXXX', 'slack'],
    ['https://hooks.slack-gov.com/services/T000/B000/XXXX', 'slack'],
    [
      'https://prod-12.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?sig=x',
      'teams',
    ],
    [
      'https://default0123.45.environment.api.powerplatform.com/powerautomate/automations/direct/workflows/x',
      'teams',
    ],
    ['https://contoso.webhook.office.com/webhookb2/abc', 'teams'],
    ['https://hooks.slack.com.evil.test/services/x', 'json'],
    ['https://evil.test/hooks.slack.com', 'json'],
    ['https://logic.azure.com.evil.test/x', 'json'],
    ['https://notlogic.azure.com/x', 'json'],
    ['https://example.com/webhook', 'json'],
    ['http://127.0.0.1:8080/hook', 'json'],
    ['not an address', 'json'],
  ])('%s is %s', (url, format) => {
    expect(notifyFormatOf(url)).toBe(format);
    expect(notifyFormatOf(url, '')).toBe(format);
  });

  it('follows notify-format over the host', () => {
    expect(notifyFormatOf('https://hooks.slack.com/services/x', 'json')).toBe('json');
    expect(notifyFormatOf('https://example.com/x', 'Teams')).toBe('teams');
    expect(notifyFormatOf('https://example.com/x', ' slack ')).toBe('slack');
  });

  it('refuses a format it does not know, naming those it does', () => {
    expect(() => notifyFormatOf('https://example.com/x', 'discord')).toThrow(
      'notify-format must be one of slack, teams, json, not "discord"',
    );
  });
});
