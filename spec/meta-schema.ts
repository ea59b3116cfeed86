// Whether a schema is a valid JSON Schema 2020-12 value, checked against the
// dialect's meta-schema by a validator Ajv generated at build time
// (meta-schema-module.ts, written by scripts/bundle-server.mjs beside the
// compiled spec/). Ajv compiles the meta-schema in every process that
// checks its first schema: about 50 ms of CPU, a tenth of a one-check run of
// the harness, paid again by every CLI run, every server serving a document
// of its own and every test file that compiles one. Where the generated
// validator is not (the Action's bundle, a tree not yet built), Ajv checks
// as before; the two find the same errors (test/spec/meta-schema.test.ts).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';

/** Where the build writes the generated validator: dist/spec/, reached alike from dist/spec/*.js and dist/server/start.bundle.mjs. */
export const META_SCHEMA_VALIDATOR_FILE = fileURLToPath(new URL('../spec/meta-schema.validator.cjs', import.meta.url));

let generated: ValidateFunction | null | undefined;

/** The validator the build generated, or null where there is none. */
export function generatedMetaSchemaValidator(): ValidateFunction | null {
  if (generated === undefined) {
    generated = existsSync(META_SCHEMA_VALIDATOR_FILE)
      ? (createRequire(import.meta.url)(META_SCHEMA_VALIDATOR_FILE) as { default: ValidateFunction }).default
      : null;
  }
  return generated;
}

interface SchemaChecker {
  validateSchema(schema: unknown): boolean | Promise<unknown>;
  errors?: ErrorObject[] | null;
}

/** The meta-schema's errors for `schema`, or undefined when it is a valid JSON Schema 2020-12 value. */
export function metaSchemaErrors(ajv: SchemaChecker, schema: unknown): ErrorObject[] | undefined {
  const validate = generatedMetaSchemaValidator();
  if (validate !== null) return validate(schema) ? undefined : (validate.errors ?? []);
  return ajv.validateSchema(schema) === true ? undefined : (ajv.errors ?? []);
}
