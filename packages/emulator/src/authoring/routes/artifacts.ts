/** GET /storage/{id}: streams a stored artifact; errors stay JSON. */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../../context.ts';
import { notFound } from '../errors.ts';
import { uuidParams } from '../schemas.ts';

export function artifactRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: { id: string } }>(
    '/storage/:id',
    { schema: { params: uuidParams } },
    async (request, reply) => {
      const { artifact, file } = ctx.authoring.getArtifact(request.params.id);
      // A record whose file has gone (a data folder tidied by hand) is as missing as no record.
      const size = await stat(file).then(
        (info) => info.size,
        () => undefined,
      );
      if (size === undefined) throw notFound(`artifact ${request.params.id} not found`);
      // The seed fixes the content type: octet-stream whatever the file holds.
      return reply
        .type('application/octet-stream')
        .header('content-length', size)
        .header(
          'content-disposition',
          `attachment; filename="${artifact.fileName.replace(/["\\\r\n]/g, '_')}"`,
        )
        .send(createReadStream(file));
    },
  );
}
