/**
 * Request validation of the authoring routes. Queries and paths are coerced from text (repeated
 * keys and single values alike become arrays where the schema wants one); bodies are not coerced,
 * so that `"name": 5` is the invalid body it is.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { acceptEmptyJsonBodies } from '../shared/json-body.ts';
import { badRequest } from './errors.ts';

// ajv-formats is CommonJS: under Node's ESM loader its default import is the plugin itself, while
// its type declarations describe an `exports.default`; this takes whichever is the function.
const addFormats = ((formatsModule as unknown as { default?: unknown }).default ??
  formatsModule) as unknown as (ajv: Ajv, formats: string[]) => Ajv;

function newAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  addFormats(ajv, ['date', 'date-time']);
  return ajv;
}

export function useAuthoringValidation(app: FastifyInstance): void {
  const textAjv = newAjv('array');
  const bodyAjv = newAjv(false);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart !== 'body') return textAjv.compile(schema as object);
    const validate: ValidateFunction = bodyAjv.compile(schema as object);
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
