/** Temporary storage: raw uploads streamed to disk, and the list of stored files. */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { schemaTyped } from '../../shared/schema-typed.ts';
import { sendError } from '../errors.ts';
import { hexId } from '../ids.ts';
import { unixSeconds } from '../model.ts';
import type { AutomationStore } from '../store/index.ts';
import { usernameParams } from './params.ts';

function badFileName(name: string): boolean {
  return name === '.' || name === '..' || name.length > 255 || /[/\\\0]/.test(name);
}

/** A plugin of its own, so that the raw body parsers below apply to these routes alone. */
export async function temporaryStorageRoutes(
  plain: FastifyInstance,
  options: { store: AutomationStore },
): Promise<void> {
  const { storage } = options.store;
  const app = schemaTyped(plain);
  // Whatever the declared type, the body is the file: nothing parses it, the handler streams it.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.post(
    '/storage/:username/:file_name',
    {
      schema: {
        params: {
          type: 'object',
          properties: {
            username: { type: 'string', minLength: 1 },
            file_name: { type: 'string', minLength: 1 },
          },
          required: ['username', 'file_name'],
        } as const,
        querystring: {
          type: 'object',
          properties: { overwrite: { type: 'boolean', default: false } },
        } as const,
      },
    },
    async (request, reply) => {
      const { username, file_name: name } = request.params;
      if (badFileName(name)) return sendError(reply, 400, 'Invalid file name', 'invalid_request');
      if (storage.get(username, name) && !request.query.overwrite) {
        return sendError(
          reply,
          409,
          `File ${name} already exists; send overwrite=true to replace it`,
          'file_exists',
        );
      }
      const target = storage.path(username, name);
      await mkdir(path.dirname(target), { recursive: true });
      // Written beside the target and renamed at the end, so a broken upload never replaces a file.
      const partial = `${target}.${hexId()}.part`;
      const hash = createHash('md5');
      let size = 0;
      try {
        await pipeline(
          request.raw,
          async function* (source: AsyncIterable<Buffer>) {
            for await (const chunk of source) {
              hash.update(chunk);
              size += chunk.length;
              yield chunk;
            }
          },
          createWriteStream(partial),
        );
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      const md5 = hash.digest('hex');
      // The emulator's clock, not the disk's: retention is counted from it.
      const mtime = unixSeconds(options.store.now());
      storage.record(username, { name, size, md5, mtime });
      return { username, filename: name, size, md5, etag: md5 };
    },
  );

  app.get('/storage/:username', { schema: { params: usernameParams } }, async (request) => ({
    files: storage.list(request.params.username),
  }));
}
