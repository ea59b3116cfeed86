// Parses the shipped OpenAPI document into dist/spec/openapi.parsed.json, and
// bundles the server's entry point and everything it imports (Fastify, Ajv,
// pino, yaml) into one file, dist/server/start.bundle.mjs: `npm start` and
// the image run it. Start-up is mostly module loading (resolving, reading
// and compiling a few hundred files); one file removes the resolving and
// the reading. The unbundled dist/server/start.js stays for the tests that
// import the server's modules.
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { OPENAPI_PATH, PARSED_DOCUMENT_PATH, serializeParsedDocument } from '../dist/spec/openapi.js';

// The shipped document, parsed once here rather than at every start (spec/openapi.ts, parsedAtBuild).
writeFileSync(PARSED_DOCUMENT_PATH, serializeParsedDocument(readFileSync(OPENAPI_PATH, 'utf8')));

await build({
  entryPoints: ['server/start.ts'],
  outfile: 'dist/server/start.bundle.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // CommonJS packages inside an ES module bundle still call require() for
  // Node's built-in modules.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
});
