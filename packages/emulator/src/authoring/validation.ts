/**
 * Request validation of the authoring routes. Queries and paths are coerced from text (repeated
 * keys and single values alike become arrays where the schema wants one); bodies are not coerced,
 * so that `"name": 5` is the invalid body it is. Compiled once per process (`shared/validators.ts`).
 */
import type { FastifyInstance } from 'fastify';
import { acceptEmptyJsonBodies } from '../shared/json-body.ts';
import { compiledOnce, lazyAjv } from '../shared/validators.ts';
import { badRequest } from './errors.ts';

const ajvOptions = { useDefaults: true, removeAdditional: false, allErrors: false, strict: false } as const;
const FORMATS = ['date', 'date-time'];
const textSchema = compiledOnce(lazyAjv({ ...ajvOptions, coerceTypes: 'array' }, FORMATS));
const bodySchema = compiledOnce(lazyAjv({ ...ajvOptions, coerceTypes: false }, FORMATS));

export function useAuthoringValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart !== 'body') return textSchema(schema as object);
    const validate = bodySchema(schema as object);
    // No body at all is read as `{}`: a required member is still reported missing, and the
    // handler gets the object its schema describes (Fastify takes a `value` as the body).
    const check = (data: unknown) => {
      const body = data ?? {};
      const ok = validate(body);
      check.errors = validate.errors ?? null;
      return ok ? { value: body } : false;
    };
    check.errors = validate.errors ?? null;
    return check;
  });

  acceptEmptyJsonBodies(app, () => badRequest('request body is not valid JSON'));
}
