/**
 * A JSON POST to an address outside the service's interfaces (a chat's incoming webhook), for a
 * program without an HTTP client of its own: through the proxy the environment names, like every
 * request of the client, bounded in time, following no redirect. The address may hold a secret
 * (a webhook's token is its path): what this says of it, in errors too, is its origin alone.
 */
import type { Dispatcher } from 'undici';
import { USER_AGENT } from '../values/version.ts';
import { loadUndici } from './pools.ts';

export interface PostJsonOptions {
  signal?: AbortSignal;
  /** Longest wait for the whole exchange. Default 15 s. */
  timeoutMs?: number;
}

export interface PostJsonAnswer {
  status: number;
  /** The answer's first 2,000 characters: a chat's refusal says why there. */
  text: string;
}

/** Characters of an answer kept: enough for a refusal's reason, bounded whatever is sent. */
const MAX_ANSWER_TEXT = 2000;

/** The address as it may be shown: its origin, never its path or query. */
export function addressOrigin(url: string | URL): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an address that is not one';
  }
}

/**
 * POSTs `body` as JSON; answers the status and the start of the answer, whatever the status.
 * Throws, naming the origin only, when no answer came (refused, cut, timed out, a proxy's failure).
 */
export async function postJson(
  url: string,
  body: unknown,
  options: PostJsonOptions = {},
): Promise<PostJsonAnswer> {
  const { EnvProxyDispatcher, request } = await loadUndici();
  const timeoutMs = options.timeoutMs ?? 15_000;
  const dispatcher: Dispatcher = new EnvProxyDispatcher({ connectMs: timeoutMs, keepAliveMs: 1_000 });
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  try {
    const answer = await request(url, dispatcher, {
      method: 'POST',
      headers: { 'user-agent': USER_AGENT, 'content-type': 'application/json', accept: '*/*' },
      body: JSON.stringify(body),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal,
    });
    return { status: answer.statusCode, text: await boundedText(answer.body) };
  } catch (error) {
    const why = deadline.aborted ? `no answer within ${timeoutMs / 1000}s` : describe(error);
    throw new Error(`POST to ${addressOrigin(url)} failed: ${why}`, { cause: error });
  } finally {
    await dispatcher.close();
  }
}

/** The answer's start; the rest is not read. */
async function boundedText(body: Dispatcher.ResponseData['body']): Promise<string> {
  let text = '';
  for await (const chunk of body) {
    text += Buffer.from(chunk as Uint8Array).toString('utf8');
    // Leaving the loop ends the body: an endless answer is not read to its end.
    if (text.length >= MAX_ANSWER_TEXT) break;
  }
  return text.slice(0, MAX_ANSWER_TEXT);
}

/** An error's message without the address it may quote. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/https?:\/\/\S+/g, (found) => addressOrigin(found));
}
