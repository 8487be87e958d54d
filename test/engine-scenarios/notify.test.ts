/**
 * The run's message and its issues, through each test action against the emulator and a stand-in
 * webhook: a run whose items fail sends one message naming them, and hands the host an issue for
 * each; a run that passes sends none under `notify-on: change`; a shard sends nothing, files
 * nothing, and warns once; and the address never shows in the log, the summary or the outputs.
 */
import { startWebhookReceiver, type WebhookReceiver } from '@sauce-actions/action-harness';
import type { NotifyInputs } from '@sauce-actions/action-kit/inputs/notify-inputs';
import { wholeText } from '@sauce-actions/action-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS } from './support/adapters.ts';
import { scenarioLab } from './support/lab.ts';

let hook: WebhookReceiver;
beforeAll(async () => {
  hook = await startWebhookReceiver();
});
afterAll(() => hook.close());

interface Posted {
  items: Record<string, { name: string; url?: string }[]>;
  counts: { failed: number };
}

describe.each(ADAPTERS)('$name', (adapter) => {
  const lab = scenarioLab(adapter, 300);
  const notify = (given: Partial<NotifyInputs>): NotifyInputs => ({
    url: hook.url,
    format: 'json',
    on: 'change',
    issues: 'none',
    ...given,
  });

  it('a run whose items fail: one message naming them as new, and an issue for each for the host', async () => {
    const before = hook.received.length;
    const deps = lab.deps();
    const result = await adapter.run(lab.emulator(), deps, {
      build: 'Notify fails',
      failing: true,
      notify: notify({ issues: 'new' }),
    });
    const posted = hook.received.slice(before).map((message) => message.body as Posted);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.items.new?.map((item) => item.name).sort()).toEqual([...adapter.failingItems].sort());
    expect(posted[0]?.items.new?.every((item) => item.url?.startsWith(`${lab.emulator().url}/tests/`))).toBe(
      true,
    );
    expect(result.issues?.cases.map((issue) => issue.name).sort()).toEqual([...adapter.failingItems].sort());
    expect(result.failure?.kind).toBe('tests-failed');
    const shown = [wholeText(result.summary), JSON.stringify(result.outputs), ...deps.logger.lines('info')];
    expect(shown.join('\n')).not.toContain(hook.secret);
  });

  it('a run that passes sends nothing under notify-on: change, and the summary says why', async () => {
    const before = hook.received.length;
    const result = await adapter.run(lab.emulator(), lab.deps(), {
      build: 'Notify passes',
      notify: notify({ issues: 'both' }),
    });
    expect(hook.received.length).toBe(before);
    expect(result.issues).toBeUndefined();
    expect(wholeText(result.summary)).toContain('No message sent: notify-on is change, and nothing changed');
  });

  it('a shard sends nothing and files nothing, and warns once', async () => {
    const before = hook.received.length;
    const deps = lab.deps();
    const result = await adapter.run(lab.emulator(), deps, {
      build: 'Notify shard',
      emptyShard: true,
      notify: notify({ on: 'always', issues: 'both' }),
    });
    expect(hook.received.length).toBe(before);
    expect(result.issues).toBeUndefined();
    expect(
      deps.logger.lines('warning').filter((line) => line.includes('notify-url and issues')),
    ).toHaveLength(1);
  });
});
