/**
 * Request validation of the authoring routes. Queries and paths are coerced from text (repeated
 * keys and single values alike become arrays where the schema wants one); bodies are not coerced,
 * so that `"name": 5` is the invalid body it is. Compiled once per process (`validators.ts`).
 */
import type { FastifyInstance } from 'fastify';
import { acceptEmptyJsonBodies } from '../json-body.ts';
import { compiledOnce, lazyAjv } from '../validators.ts';
import { badRequest } from './errors.ts';

const ajvOptions = { useDefaults: true, removeAdditional: false, allErrors: false, strict: false } as const;
const FORMATS = ['date', 'date-time'];
const textSchema = compiledOnce(lazyAjv({ ...ajvOptions, coerceTypes: 'array' }, FORMATS));
const bodySchema = compiledOnce(lazyAjv({ ...ajvOptions, coerceTypes: false }, FORMATS));

export function useAuthoringValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart !== 'body') return textSchema(schema as object);
    const validate = bodySchema(schema as object);
    // No body at all is validated as `{}`, so that a required member is still reported missing.
    const check = (data: unknown) => {
      const ok = validate(data ?? {});
      check.errors = validate.errors ?? null;
      return ok;
    };
    check.errors = validate.errors ?? null;
    return check;
  });

  acceptEmptyJsonBodies(app, () => badRequest('request body is not valid JSON'));
}
