// Runs after tsc: writes what the server would otherwise work out at every
// start, then bundles it.
// - dist/spec/openapi.parsed.json: the shipped OpenAPI document, parsed.
// - dist/spec/openapi.validator.js: the validator of its request body, as
//   Ajv standalone code (server/http/request-body.ts).
// Both are used only for the text they were made from (an edited document
// is parsed and compiled at start as usual).
// - dist/spec/meta-schema.validator.cjs: JSON Schema 2020-12's meta-schema
//   as Ajv standalone code, which checks every schema before it is compiled
//   (spec/meta-schema.ts), so that no process compiles the meta-schema.
// - dist/server/start.bundle.mjs: the compiled server's entry point and
//   everything it imports (Fastify, pino, the generated validator) in one
//   file: `npm start` and the image run it. Start-up is mostly module loading
//   (resolving, reading and compiling a few hundred files); one file removes
//   the resolving and the reading. Ajv's compiler and the YAML parser are not
//   in it: spec/ loads them from node_modules when a document other than the
//   shipped one is served (spec/ajv.ts). The compiled files stay for the
//   tests that import the server's modules.
//
// The folder is dist/, or the one named as the argument: scripts/build.mjs
// builds into a fresh folder and swaps it in.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const out = resolve(process.argv[2] ?? 'dist');
const compiled = (path) => import(pathToFileURL(join(out, path)).href);
const { OPENAPI_PATH, PARSED_DOCUMENT_PATH, serializeParsedDocument } = await compiled('spec/openapi.js');
const { requestBodyValidatorModule } = await compiled('server/http/request-body.js');

writeFileSync(PARSED_DOCUMENT_PATH, serializeParsedDocument(readFileSync(OPENAPI_PATH, 'utf8')));
writeFileSync(join(out, 'spec', 'openapi.validator.js'), requestBodyValidatorModule(OPENAPI_PATH));
const { metaSchemaValidatorModule } = await compiled('spec/meta-schema-module.js');
writeFileSync(join(out, 'spec', 'meta-schema.validator.cjs'), metaSchemaValidatorModule());

await build({
  // The compiled JavaScript, not server/start.ts: the generated validator
  // exists only under dist/, and each module is then bundled once.
  entryPoints: [join(out, 'server', 'start.js')],
  outfile: join(out, 'server', 'start.bundle.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // CommonJS packages inside an ES module bundle still call require() for
  // Node's built-in modules.
  banner: {
    js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
});
