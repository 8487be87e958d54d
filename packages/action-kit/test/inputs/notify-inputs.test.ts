/** The notification inputs: the address checked and masked, the format from notify-format or the host. */
import { describe, expect, it } from 'vitest';
import { formatOfHost, readNotifyInputs } from '../../src/inputs/notify-inputs.ts';
import { redactSecrets } from '../../src/step/secrets.ts';
import { useTestReader } from './test-reader.ts';

const { read, setInput } = useTestReader();

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
    expect(formatOfHost(url)).toBe(format);
    setInput('notify-url', url.startsWith('not') ? 'https://example.com/x' : url);
    if (!url.startsWith('not')) expect(readNotifyInputs(read).format).toBe(format);
  });

  it('follows notify-format over the host', () => {
    setInput('notify-url', 'https://hooks.slack.com/services/x');
    setInput('notify-format', 'json');
    expect(readNotifyInputs(read).format).toBe('json');
  });

  it('refuses a format it does not know, naming those it does', () => {
    setInput('notify-format', 'discord');
    expect(() => readNotifyInputs(read)).toThrow(/notify-format.*"discord".*`slack`, `teams`, `json`/s);
  });
});

describe('notify-url', () => {
  it('is masked as soon as it is read', () => {
    setInput('notify-url', 'https://hooks.slack.com/services/T1/B2/masked-at-read');
    readNotifyInputs(read);
    expect(redactSecrets('posted to https://hooks.slack.com/services/T1/B2/masked-at-read')).not.toContain(
      'masked-at-read',
    );
  });

  it.each<[string, string | undefined]>([
    ['https://hooks.slack.com/services/x', undefined],
    ['http://127.0.0.1:8080/hook', undefined],
    ['http://localhost/hook', undefined],
    ['http://[::1]:9/hook', undefined],
    ['http://hooks.example.com/s3cr3t', 'is http on a host other than this machine'],
    ['http://127.0.0.1.evil.test/s3cr3t', 'is http on a host other than this machine'],
    ['ftp://example.com/s3cr3t', 'has the scheme ftp:'],
    ['hooks.slack.com/s3cr3t', 'is not an address'],
  ])('%s: %s', (url, problem) => {
    setInput('notify-url', url);
    if (problem === undefined) {
      expect(readNotifyInputs(read).url).toBe(url);
      return;
    }
    let message = '';
    try {
      readNotifyInputs(read);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('notify-url');
    expect(message).toContain(problem);
    expect(message).toContain('an https address');
    expect(message).not.toContain('s3cr3t');
  });

  it('is optional, and so are the others', () => {
    expect(readNotifyInputs(read)).toEqual({ format: 'json', on: 'change', issues: 'none' });
  });

  it.each([
    ['notify-on', 'sometimes', '`change`, `failure`, `always`, `never`'],
    ['issues', 'all', '`none`, `new`, `flaky`, `both`'],
  ])('refuses %s %s, naming the values it takes', (input, value, allowed) => {
    setInput(input, value);
    expect(() => readNotifyInputs(read)).toThrow(allowed);
  });
});
