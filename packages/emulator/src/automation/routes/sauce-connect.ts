/**
 * Sauce Connect downloads, as the service publishes them: the public listing that names the
 * archive of a version and platform with its checksums, the archives themselves (on the one
 * address, where the service serves them from saucelabs.com/downloads), and the admin endpoint
 * that publishes a build.
 */
import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../../context.ts';
import {
  archivePath,
  buildByFile,
  findBuild,
  publishBuild,
  SC_ARCHES,
  SC_FILE_NAME_PATTERN,
  SC_OSES,
  SC_VERSION_PATTERN,
} from '../sauce-connect-builds.ts';

/** Where archives are served from: `/downloads/sauce-connect/{version}/{file}`. */
export const DOWNLOADS_PREFIX = '/downloads/sauce-connect';

/** `GET /public/tunnels/sauce-connect/download?os=&arch=&version=`, public, under each REST prefix. */
export function sauceConnectListingRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Querystring: { os?: string; arch?: string; version?: string } }>(
    '/public/tunnels/sauce-connect/download',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { os: { type: 'string' }, arch: { type: 'string' }, version: { type: 'string' } },
        },
      },
    },
    async (request, reply) => {
      const { os, arch, version } = request.query;
      const build = os && arch ? findBuild(ctx, os, arch, version || undefined) : undefined;
      // The service's answer for a platform or version it has no build of (the official client's fixture).
      if (!build) return reply.code(404).send({ error: { code: '404', message: 'Invalid input' } });
      const base = `${request.protocol}://${request.host}`;
      return {
        download: {
          url: `${base}${DOWNLOADS_PREFIX}/${build.version}/${build.fileName}`,
          version: build.version,
          checksums: build.checksums,
        },
      };
    },
  );
}

/** The archives, without credentials, as saucelabs.com serves them. */
export async function sauceConnectDownloadRoutes(
  app: FastifyInstance,
  options: { ctx: EmulatorContext },
): Promise<void> {
  const { ctx } = options;
  app.get<{ Params: { version: string; file: string } }>(
    `${DOWNLOADS_PREFIX}/:version/:file`,
    async (request, reply) => {
      const build = buildByFile(ctx, request.params.version, request.params.file);
      if (!build) return reply.code(404).send({ message: 'Not found', code: 'not_found' });
      const type = build.fileName.endsWith('.zip') ? 'application/zip' : 'application/gzip';
      return reply.type(type).send(createReadStream(archivePath(ctx, build.version, build.fileName)));
    },
  );
}

interface PublishBody {
  version: string;
  os: string;
  arch: string;
  /** The archive, base64. */
  archive: string;
  fileName?: string;
  checksums?: { algorithm: string; value: string }[];
}

/** `POST /_emulator/sauce-connect`: publishes a build (registered by the admin plugin, loopback only). */
export function sauceConnectAdminRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post<{ Body: PublishBody }>(
    '/_emulator/sauce-connect',
    {
      schema: {
        body: {
          type: 'object',
          properties: {
            version: { type: 'string', pattern: SC_VERSION_PATTERN },
            os: { type: 'string', enum: [...SC_OSES] },
            arch: { type: 'string', enum: [...SC_ARCHES] },
            archive: { type: 'string', minLength: 1 },
            fileName: { type: 'string', pattern: SC_FILE_NAME_PATTERN },
            checksums: {
              type: 'array',
              items: {
                type: 'object',
                properties: { algorithm: { type: 'string' }, value: { type: 'string' } },
                required: ['algorithm', 'value'],
                additionalProperties: false,
              },
            },
          },
          required: ['version', 'os', 'arch', 'archive'],
          additionalProperties: false,
        },
      },
    },
    async (request, reply) => {
      const { archive, ...rest } = request.body;
      const build = await publishBuild(ctx, { ...rest, archive: Buffer.from(archive, 'base64') });
      return reply.code(201).send(build);
    },
  );
}
