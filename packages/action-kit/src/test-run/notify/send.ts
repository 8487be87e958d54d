/**
 * Sends a run's one message. Whatever happens to it (refused, 4xx/5xx, no answer, a proxy's
 * failure), the step's result stays as it is: a failed post is a warning. It is sent once more
 * only where the first surely was not taken (a 429, or a 503 that says so, after the wait the
 * answer asks for, at most 10 s): a message posted twice would be read twice.
 */
import { addressOrigin, postJson, type PostJsonAnswer } from '@sauce-actions/api';
import type { Clock } from '../../deps.ts';
import type { Logger } from '../../step/logger.ts';

/** Statuses that say the message was not taken, and may be sent again. */
const NOT_TAKEN = new Set([429, 503]);
/** The wait before the one retry. */
const RETRY_WAIT_MS = 2000;

export interface SendContext {
  logger: Logger;
  clock: Pick<Clock, 'sleep'>;
  signal?: AbortSignal;
  post?: typeof postJson;
}

/** True when the message was taken (a 2xx); never throws. */
export async function sendRunMessage(url: string, payload: unknown, context: SendContext): Promise<boolean> {
  const post = context.post ?? postJson;
  const where = addressOrigin(url);
  const attempt = async (): Promise<PostJsonAnswer | Error> => {
    try {
      return await post(url, payload, context.signal ? { signal: context.signal } : {});
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  };
  let answer = await attempt();
  if (!(answer instanceof Error) && NOT_TAKEN.has(answer.status)) {
    try {
      await context.clock.sleep(RETRY_WAIT_MS, context.signal);
      answer = await attempt();
    } catch {
      // Cancelled while waiting: the first answer stands.
    }
  }
  if (answer instanceof Error) {
    context.logger.warning(
      `The run's message was not sent: ${answer.message}. The step's result is unchanged.`,
    );
    return false;
  }
  if (answer.status < 200 || answer.status >= 300) {
    const said = answer.text.trim().replace(/\s+/g, ' ').slice(0, 200);
    context.logger.warning(
      `The run's message was refused by ${where} (${answer.status}${said !== '' ? `: ${said}` : ''}). Check the address in notify-url; the step's result is unchanged.`,
    );
    return false;
  }
  context.logger.info(`Sent the run's message to ${where}.`);
  return true;
}
