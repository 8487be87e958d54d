/**
 * Request validators shared by every emulator of a process. Compiling the routes' schemas is most
 * of what starting an emulator costs, and tests, benchmarks and the demo start many emulators in
 * one process: each schema is compiled once, on first use, and its function reused. Schemas are
 * written inline in the routes (new objects in every emulator, and for every prefix of the
 * automation routes), so they are known by their text rather than by identity.
 */
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS: under Node's ESM loader its default import is the plugin itself, while
// its type declarations describe an `exports.default`; this takes whichever is the function.
const addFormats = ((formatsModule as unknown as { default?: unknown }).default ??
  formatsModule) as unknown as (ajv: Ajv, formats?: string[]) => Ajv;

/** An Ajv made on first use, with these options and formats (all of ajv-formats when not named). */
export function lazyAjv(options: Options, formats?: string[]): () => Ajv {
  let ajv: Ajv | undefined;
  return () => {
    if (!ajv) {
      ajv = new Ajv(options);
      addFormats(ajv, formats);
    }
    return ajv;
  };
}

/** `ajv().compile`, remembering each function by the schema's text. */
export function compiledOnce(ajv: () => Ajv): (schema: object) => ValidateFunction {
  const compiled = new Map<string, ValidateFunction>();
  return (schema) => {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv().compile(schema);
      compiled.set(key, validate);
    }
    return validate;
  };
}

/**
 * Fastify's own validation (the options of `@fastify/ajv-compiler`: coercion of text, defaults,
 * extra members removed, the first error only, every format), with union types, which the schemas
 * use (`type: ['string', 'number']` where the service takes either).
 */
const routeSchema = compiledOnce(
  lazyAjv({
    coerceTypes: 'array',
    useDefaults: true,
    removeAdditional: true,
    addUsedSchema: false,
    allErrors: false,
    allowUnionTypes: true,
  }),
);

export const routeValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema }) =>
  routeSchema(schema as object);
