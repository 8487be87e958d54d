/**
 * Route types read from the routes' own JSON schemas (`as const`), through Fastify's type
 * provider for json-schema-to-ts: a schema and the handler's types cannot drift apart. Types
 * only: nothing of it is loaded when the emulator runs.
 */
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';

/** A Fastify instance whose routes take their params, query and body types from their schemas. */
export type SchemaTypedApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  JsonSchemaToTsProvider
>;

export function schemaTyped(app: FastifyInstance): SchemaTypedApp {
  return app.withTypeProvider<JsonSchemaToTsProvider>();
}

/** What a schema gives a handler, for the helpers a handler passes its request's parts to. */
export type FromRouteSchema<Schema> = (JsonSchemaToTsProvider & { schema: Schema })['validator'];
