/**
 * Answers shaped by a fault rule: its headers set, its body cut short, trickled, or sent without
 * end. Applied as the answer leaves (Fastify's `onSend`), to an injected answer or to the route's
 * own, so that a client meets a real answer that arrives broken.
 */
import { Readable } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import type { FastifyReply } from 'fastify';
import type { FaultRule } from './faults.ts';

const SLICES_A_SECOND = 10;
const COMPRESSORS = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;
const FILLER = Buffer.alloc(64 * 1024, ' ');

/** The payload to send in place of `payload`, with the rule's headers set on `reply`. */
export function shapeAnswer(rule: FaultRule, reply: FastifyReply, payload: unknown): unknown {
  for (const [name, value] of Object.entries(rule.headers ?? {})) reply.header(name, value);
  const plain =
    typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : undefined;
  // A streamed answer (a download) keeps its body; only the headers apply.
  if (!plain) return payload;
  const body = rule.compress ? COMPRESSORS[rule.compress](plain) : plain;
  if (rule.compress) reply.header('content-encoding', rule.compress);
  if (rule.truncate === undefined && rule.bytesPerSecond === undefined && !rule.endless) {
    if (!rule.compress) return payload;
    reply.header('content-length', String(body.length));
    return body;
  }
  if (rule.endless) {
    reply.removeHeader('content-length');
  } else {
    // The whole length is promised, so a cut body shows as one to the client.
    reply.header('content-length', String(body.length));
  }
  return Readable.from(chunks(body, rule), { objectMode: false });
}

async function* chunks(body: Buffer, rule: FaultRule): AsyncGenerator<Buffer> {
  const sent = rule.truncate === undefined ? body : body.subarray(0, rule.truncate);
  const slice =
    rule.bytesPerSecond === undefined
      ? Infinity
      : Math.max(1, Math.floor(rule.bytesPerSecond / SLICES_A_SECOND));
  const pause =
    rule.bytesPerSecond === undefined
      ? 0
      : (1000 * Math.min(slice, rule.bytesPerSecond)) / rule.bytesPerSecond;
  for (let at = 0; at < sent.length; at += slice) {
    yield sent.subarray(at, Math.min(sent.length, at + slice));
    if (pause > 0 && at + slice < sent.length) await wait(pause);
  }
  if (rule.truncate !== undefined) throw new Error(`body cut after ${rule.truncate} bytes by a fault rule`);
  if (!rule.endless) return;
  for (;;) {
    yield slice === Infinity ? FILLER : FILLER.subarray(0, slice);
    // Without a pace, yield to the event loop now and then so that a closed connection is noticed.
    await wait(pause > 0 ? pause : 0);
  }
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
