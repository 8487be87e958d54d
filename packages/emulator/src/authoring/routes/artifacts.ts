/** GET /storage/{id}: streams a stored artifact; errors stay JSON. */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { SchemaTypedApp } from '../../shared/schema-typed.ts';
import { notFound } from '../errors.ts';
import { uuidParams } from '../schemas.ts';
import type { Artifacts } from '../store/artifacts.ts';

export function artifactRoutes(app: SchemaTypedApp, artifacts: Artifacts): void {
  app.get('/storage/:id', { schema: { params: uuidParams } }, async (request, reply) => {
    const { artifact, file } = artifacts.get(request.params.id);
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
      .header('content-disposition', `attachment; filename="${artifact.fileName.replace(/["\\\r\n]/g, '_')}"`)
      .send(createReadStream(file));
  });
}
