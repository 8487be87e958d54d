/**
 * Sauce Connect downloads, as the service publishes them: the public listing that names the
 * archive of a version and platform with its checksums, and the archives themselves (on the one
 * address, where the service serves them from saucelabs.com/downloads). Builds are published
 * through the admin endpoints (`admin.ts`).
 */
import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import type { SauceConnectBuilds } from '../store/sauce-connect-builds.ts';

/** Where archives are served from: `/downloads/sauce-connect/{version}/{file}`. */
const DOWNLOADS_PREFIX = '/downloads/sauce-connect';

/** `GET /public/tunnels/sauce-connect/download?os=&arch=&version=`, public, under each REST prefix. */
export function sauceConnectListingRoutes(app: SchemaTypedApp, builds: SauceConnectBuilds): void {
  app.get(
    '/public/tunnels/sauce-connect/download',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { os: { type: 'string' }, arch: { type: 'string' }, version: { type: 'string' } },
        } as const,
      },
    },
    async (request, reply) => {
      const { os, arch, version } = request.query;
      const build = os && arch ? builds.find(os, arch, version || undefined) : undefined;
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
  options: { builds: SauceConnectBuilds },
): Promise<void> {
  const { builds } = options;
  app.get<{ Params: { version: string; file: string } }>(
    `${DOWNLOADS_PREFIX}/:version/:file`,
    async (request, reply) => {
      const build = builds.byFile(request.params.version, request.params.file);
      if (!build) return reply.code(404).send({ message: 'Not found', code: 'not_found' });
      const type = build.fileName.endsWith('.zip') ? 'application/zip' : 'application/gzip';
      return reply.type(type).send(createReadStream(builds.archivePath(build.version, build.fileName)));
    },
  );
}
