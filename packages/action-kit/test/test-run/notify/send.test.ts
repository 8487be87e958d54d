/**
 * Sending a run's message: a 2xx is taken; a 429 or 503 is sent once more after a wait; any other
 * refusal, or no answer, is a warning naming the origin alone; nothing throws. Addresses: https,
 * or http on this machine only.
 */
import { describe, expect, it } from 'vitest';
import type { PostJsonAnswer } from '@sauce-actions/api';
import { recordingLogger } from '../../../src/step/logger.ts';
import { sendRunMessage } from '../../../src/test-run/notify/send.ts';

const URL = 'https://hooks.slack.com/services/T/B/s3cr3t';

function poster(answers: (PostJsonAnswer | Error)[]) {
  const sent: unknown[] = [];
  return {
    sent,
    post: async (_url: string, body: unknown) => {
      sent.push(body);
      const answer = answers.shift() ?? { status: 200, text: 'ok' };
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

const clock = { sleep: async () => {} };

describe('sending the run message', () => {
  it.each<[string, (PostJsonAnswer | Error)[], boolean, number]>([
    ['taken at once', [{ status: 200, text: 'ok' }], true, 1],
    [
      'a 429, then taken',
      [
        { status: 429, text: '' },
        { status: 200, text: 'ok' },
      ],
      true,
      2,
    ],
    [
      'a 503 twice: given up',
      [
        { status: 503, text: '' },
        { status: 503, text: '' },
      ],
      false,
      2,
    ],
    ['a 500: not sent again, it may have been taken', [{ status: 500, text: 'oops' }], false, 1],
    ['a 404: refused', [{ status: 404, text: 'no_service' }], false, 1],
    [
      'no answer: not sent again',
      [new Error('POST to https://hooks.slack.com failed: no answer within 15s')],
      false,
      1,
    ],
  ])('%s', async (_, answers, taken, posts) => {
    const { post, sent } = poster(answers);
    const logger = recordingLogger();
    expect(await sendRunMessage(URL, { text: 'hi' }, { logger, clock, post })).toBe(taken);
    expect(sent).toHaveLength(posts);
    const said = [...logger.lines('warning'), ...logger.lines('info')].join('\n');
    expect(said).not.toContain('s3cr3t');
    if (!taken) expect(logger.lines('warning')[0]).toMatch(/step's result is unchanged/);
  });
});
