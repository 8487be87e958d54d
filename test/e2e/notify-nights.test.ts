/**
 * End to end: the run's one message, against the emulator and a stand-in webhook. Four nights of
 * Regression on `main` (Case 03 fails, fails again, passes, passes; Case 07 flaky every night)
 * send 1, 0, 1 ("fixed"), 0 messages with `notify-on: change`; each format arrives as its
 * receiver takes it; a night of 6 shards and a report sends 1 message, each shard warning once;
 * and a webhook that answers 500, holds the answer or cuts the connection leaves the step's result
 * as it is without one, with one warning, its secret never shown.
 */
import { freePort, startWebhookReceiver, type WebhookReceiver } from '@sauce-actions/action-harness';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import schema from '../../packages/action-kit/src/test-run/notify/run-message.schema.json' with { type: 'json' };
import { historyLab, type Step } from './support/history.ts';

const lab = historyLab();
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);

let hook: WebhookReceiver;
beforeAll(async () => {
  hook = await startWebhookReceiver();
});
afterAll(() => hook.close());

const RETRIES = '1';
const warnings = (step: Step) => step.deps.logger.lines('warning');
const logOf = (step: Step) => step.deps.logger.entries.map((entry) => entry.message).join('\n');

interface RunJson {
  version: number;
  run: { number?: string };
  counts: { classes: Record<string, number> };
  items: Record<string, { name: string; url?: string }[]>;
}

/** The messages a step sent: what reached the webhook while it ran. */
async function sent(run: () => Promise<Step>): Promise<{ step: Step; messages: unknown[] }> {
  const before = hook.received.length;
  const step = await run();
  return { step, messages: hook.received.slice(before).map((message) => message.body) };
}

describe('notify-on: change over four nights', () => {
  it('sends 1, 0, 1 and 0 messages: the new failure, then its fix', async () => {
    const nights: Record<string, 'passed' | 'failed'>[] = [
      { 'Case 03': 'failed' },
      { 'Case 03': 'failed' },
      { 'Case 03': 'passed' },
      { 'Case 03': 'passed' },
    ];
    const counts: number[] = [];
    const messages: RunJson[] = [];
    for (const [at, outcomes] of nights.entries()) {
      await lab.script(outcomes, Number(RETRIES));
      const night = await sent(() =>
        lab.suiteRun({ number: at + 1 }, { retries: RETRIES, 'notify-url': hook.url }),
      );
      counts.push(night.messages.length);
      messages.push(...(night.messages as RunJson[]));
      expect(logOf(night.step)).not.toContain(hook.secret);
      expect(night.step.summary).not.toContain(hook.secret);
      expect(JSON.stringify(night.step.result.outputs)).not.toContain(hook.secret);
    }
    expect(counts).toEqual([1, 0, 1, 0]);
    const [first, third] = messages;
    for (const message of messages) expect(validate(message), JSON.stringify(validate.errors)).toBe(true);
    expect(first?.run.number).toBe('1');
    expect(first?.items.new?.map((item) => item.name)).toEqual(['Case 03']);
    expect(first?.items.new?.[0]?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/tests\//);
    // Case 07 is flaky every night: news on the first night only.
    expect(first?.items.flaky?.map((item) => item.name)).toEqual(['Case 07']);
    expect(third?.run.number).toBe('3');
    expect(third?.items.fixed?.map((item) => item.name)).toEqual(['Case 03']);
    expect(third?.counts.classes).toMatchObject({ new: 0, fixed: 1, flaky: 1 });
  });
});

describe('formats', () => {
  it.each([
    [
      'slack',
      (body: unknown) => expect(body).toMatchObject({ text: expect.any(String), blocks: expect.any(Array) }),
    ],
    [
      'teams',
      (body: unknown) =>
        expect(body).toMatchObject({
          type: 'message',
          attachments: [
            { contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard' } },
          ],
        }),
    ],
  ])('notify-format %s: the message is what its receiver takes', async (format, check) => {
    await lab.script({}, 0);
    const { messages } = await sent(() =>
      lab.suiteRun(
        { number: 40, pullRequest: 9 },
        { 'notify-url': hook.url, 'notify-format': format, 'notify-on': 'always' },
      ),
    );
    expect(messages).toHaveLength(1);
    check(messages[0]);
  });
});

describe('a matrix of 6 shards and its report', () => {
  it('sends one message in all: the report sends it, each shard warns once and sends none', async () => {
    await lab.script({ 'Case 02': 'failed' }, 0);
    const inputs = { 'notify-url': hook.url, 'notify-on': 'always' };
    const shards = await sent(() =>
      Promise.all(
        [1, 2, 3, 4, 5, 6].map((index) => lab.suiteRun({ number: 50 }, { ...inputs, shard: `${index}/6` })),
      ).then((steps) => {
        for (const step of steps) {
          expect(warnings(step).filter((line) => line.includes('notify-url'))).toHaveLength(1);
        }
        return steps[0]!;
      }),
    );
    expect(shards.messages).toHaveLength(0);
    const report = await sent(() => lab.suiteRun({ number: 50 }, { ...inputs, operation: 'report' }));
    expect(report.messages).toHaveLength(1);
    expect((report.messages[0] as RunJson).items['still-failing']?.map((item) => item.name) ?? []).toEqual(
      [],
    );
    expect(report.step.summary).toMatch(
      /Sent the run(&#39;|')s message \(json\) to http:\/\/127\.0\.0\.1:\d+: notify-on is always\./,
    );
  });
});

describe('a webhook that fails', () => {
  /**
   * A pull request's run: compared with main, never recorded, so each run is judged the same; a
   * run of its own each time (Case 07 fails the first run of a build only).
   */
  let runs = 60;
  const run = (inputs: Record<string, string>) =>
    lab.suiteRun({ number: (runs += 1), pullRequest: 12 }, { 'notify-on': 'always', ...inputs });

  it.each([
    [
      'answers 500',
      { status: 500, body: 'internal_error' } as const,
      /refused by http:\/\/127\.0\.0\.1:\d+ \(500: internal_error\)/,
    ],
    ['holds its answer', 'hold' as const, /not sent: .*no answer within 15s/],
    ['cuts the connection', 'cut' as const, /not sent: POST to http:\/\/127\.0\.0\.1:\d+ failed/],
  ])('%s: the result is as without notify-url, with one warning', async (_, answer, said) => {
    await lab.script({ 'Case 04': 'failed' }, 0);
    const without = await run({});
    hook.answer(answer);
    try {
      await lab.script({ 'Case 04': 'failed' }, 0);
      const { step, messages } = await sent(() => run({ 'notify-url': hook.url }));
      expect(messages).toHaveLength(1);
      expect(step.result.failure?.kind).toBe(without.result.failure?.kind);
      const { 'results-file': _a, 'build-name': _b, 'job-ids': _e, ...outputs } = step.result.outputs;
      const { 'results-file': _c, 'build-name': _d, 'job-ids': _f, ...expected } = without.result.outputs;
      expect(outputs).toEqual(expected);
      const added = warnings(step).filter((line) => !warnings(without).includes(line));
      expect(added).toHaveLength(1);
      expect(added[0]).toMatch(said);
      expect(added[0]).toMatch(/step's result is unchanged/i);
      expect(logOf(step)).not.toContain(hook.secret);
    } finally {
      hook.answer({ status: 200, body: 'ok' });
    }
  });

  it('refuses the connection (nothing listens): the result is as without notify-url, with one warning', async () => {
    await lab.script({ 'Case 04': 'failed' }, 0);
    const without = await run({});
    await lab.script({ 'Case 04': 'failed' }, 0);
    const closed = `http://127.0.0.1:${await freePort()}/services/${hook.secret}`;
    const step = await run({ 'notify-url': closed });
    expect(step.result.failure?.kind).toBe(without.result.failure?.kind);
    const added = warnings(step).filter((line) => !warnings(without).includes(line));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(
      /^The run's message was not sent: POST to http:\/\/127\.0\.0\.1:\d+ failed: .*step's result is unchanged\.$/,
    );
    expect(logOf(step)).not.toContain(hook.secret);
  });
});
