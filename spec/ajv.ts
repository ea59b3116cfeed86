// Ajv, loaded the first time a schema is compiled, not when spec/ is
// imported. The server serving the shipped document never compiles: its
// validator was generated at build time (validator.ts, validatorModule), and
// loading Ajv's compiler would cost its start-up what the generated code
// saves. A document given at run time (PLANTSTORE_SPEC), the harness and the
// build compile, and load Ajv then.
//
// Loaded with require(), not import(): compiling happens inside synchronous
// calls (buildApp throws a DocumentError as it is called), and Ajv is
// CommonJS. For the same reason the server's bundle (scripts/bundle-server.mjs)
// does not contain Ajv's compiler: it is read from node_modules when needed.
import { createRequire } from 'node:module';
// What require() returns is module.exports, which TypeScript types as a default import.
import type Ajv2020Module from 'ajv/dist/2020.js';
import type ErrorsModule from 'ajv/dist/compile/errors.js';
import type NamesModule from 'ajv/dist/compile/names.js';
import type StandaloneModule from 'ajv/dist/standalone/index.js';
import type AddFormatsModule from 'ajv-formats';

export interface AjvModules {
  /** The JSON Schema 2020-12 validator (OpenAPI 3.1's dialect) as `default`, and its code generator's helpers (`_`, `stringify`, …). */
  ajv: typeof Ajv2020Module;
  addFormats: typeof AddFormatsModule.default;
  /** The names of the variables of Ajv's generated code (vErrors, errors, …). */
  names: typeof NamesModule.default;
  /** Gives errors a keyword pushed their instancePath and schemaPath, as Ajv does for its own keywords. */
  extendErrors: typeof ErrorsModule.extendErrors;
  /** The source text of compiled validators (`code: { source: true }`). */
  standaloneCode: typeof StandaloneModule.default;
}

const requireFromHere = createRequire(import.meta.url);
let loaded: AjvModules | undefined;

export function ajvModules(): AjvModules {
  loaded ??= {
    ajv: requireFromHere('ajv/dist/2020.js') as typeof Ajv2020Module,
    addFormats: (requireFromHere('ajv-formats') as typeof AddFormatsModule).default,
    names: (requireFromHere('ajv/dist/compile/names.js') as typeof NamesModule).default,
    extendErrors: (requireFromHere('ajv/dist/compile/errors.js') as typeof ErrorsModule).extendErrors,
    standaloneCode: (requireFromHere('ajv/dist/standalone/index.js') as typeof StandaloneModule).default,
  };
  return loaded;
}
