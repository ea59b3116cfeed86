// Loads the OpenAPI document that both the server and the conformance harness
// derive their behaviour from. Both read spec/; neither imports the other.
// The model it reads into is spread by responsibility, and re-exported here,
// the one entry point:
//   document.ts          the document's objects as types, and DocumentError
//   parsed-document.ts   YAML into values, integers exact; the build's parsed copy
//   references.ts        $ref: checked at load, resolved on demand
//   operations.ts        the operations, and the create operation
//   bundle-schema.ts     one schema as a self-contained JSON Schema
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DocumentError, type OpenApiDocument } from './document.js';
import { COMPILED, parsedAtBuild, parseYaml, safeIntegersAsNumbers } from './parsed-document.js';
import { checkReferences } from './references.js';
import { isSchemaObject } from './schema-keywords.js';

export type { JsonSchema } from './schema-keywords.js';
export * from './document.js';
export { bundleSchema, documentPointer } from './bundle-schema.js';
export { createOperation, CREATE_OPERATION_ID, operationsOf, type OperationLocation } from './operations.js';
export { PARSED_DOCUMENT_PATH, serializeParsedDocument } from './parsed-document.js';
export { componentPointer, resolveReference } from './references.js';

/**
 * The largest document read, in bytes: past it, a DocumentError before any
 * parsing. A document of 22.8 MB once kept compat busy past 120 s and
 * 981 MB; the largest public API descriptions are a few megabytes.
 */
export const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;

/** The path of spec/openapi.yaml, from both the source tree and dist/. */
export const OPENAPI_PATH = fileURLToPath(
  new URL(COMPILED ? '../../spec/openapi.yaml' : './openapi.yaml', import.meta.url),
);

/** The OpenAPI 3.1 default dialect: JSON Schema 2020-12 with the OpenAPI base vocabulary. */
const OPENAPI_31_DIALECT = 'https://spec.openapis.org/oas/3.1/dialect/base';

export function loadOpenApi(path: string = OPENAPI_PATH): OpenApiDocument {
  return readOpenApi(path).document;
}

/** The document at `path` (loadOpenApi) and its text, which tells the shipped document from any other. */
export function readOpenApi(path: string = OPENAPI_PATH): { document: OpenApiDocument; source: string } {
  const text = readBounded(path);
  let parsed: unknown = parsedAtBuild(text);
  if (parsed === undefined) {
    try {
      parsed = safeIntegersAsNumbers(parseYaml(text));
    } catch (error) {
      throw new DocumentError('#', undefined, `${path} is not YAML or JSON: ${whereParsingStopped(error)}`);
    }
  }
  const doc = parsed as OpenApiDocument;
  if (!isSchemaObject(doc) || !isSchemaObject(doc.paths))
    throw new DocumentError('#/paths', undefined, `${path} is not an OpenAPI document with paths`);
  if (typeof doc.openapi !== 'string' || !/^3\.1\.\d+$/.test(doc.openapi)) {
    // 3.0 schemas are another dialect (nullable, boolean exclusiveMinimum): read as 2020-12 they would mean something else.
    throw new DocumentError(
      '#/openapi',
      'openapi',
      `${versionShown(doc.openapi)}: only OpenAPI 3.1 documents are read (their schemas are JSON Schema 2020-12)`,
    );
  }
  if (doc.jsonSchemaDialect !== undefined && doc.jsonSchemaDialect !== OPENAPI_31_DIALECT) {
    throw new DocumentError(
      '#/jsonSchemaDialect',
      'jsonSchemaDialect',
      `another dialect: only the OpenAPI 3.1 default dialect (${OPENAPI_31_DIALECT}) is read`,
    );
  }
  doc.components = {
    ...(isSchemaObject(doc.components) ? doc.components : {}),
    schemas: isSchemaObject(doc.components?.schemas) ? doc.components.schemas : {},
  };
  checkReferences(doc);
  return { document: doc, source: text };
}

/**
 * Where the YAML parser stopped, by position only (line, column, and the
 * parser's code for what it met): its own message quotes the text around
 * that place, and a file that is not a document may hold anything (a
 * pull request that links spec/openapi.yaml to a credentials file once had
 * its keys printed in the step's log; issue 41).
 */
function whereParsingStopped(error: unknown): string {
  const { code, linePos } = error as { code?: unknown; linePos?: Array<{ line: number; col: number }> };
  const at = linePos?.[0];
  const what = typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? ` (${code})` : '';
  return at === undefined
    ? `the YAML parser stopped${what || ` (${(error as Error).name})`}`
    : `the YAML parser stopped at line ${at.line}, column ${at.col}${what}`;
}

/** The `openapi` field as a message shows it: quoted when it is a version number, never any other text of the file. */
function versionShown(value: unknown): string {
  return typeof value === 'string' && /^\d{1,3}(\.\d{1,3}){0,3}$/.test(value)
    ? JSON.stringify(value)
    : 'not a version number';
}

/** The file's text, read MAX_DOCUMENT_BYTES at most (a device or a pipe included): a larger one is a DocumentError. */
function readBounded(path: string): string {
  const tooLarge = () =>
    new DocumentError(
      '#',
      undefined,
      `${path} is larger than ${MAX_DOCUMENT_BYTES} bytes (${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB), the most a document may be`,
    );
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new DocumentError('#', undefined, `cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    if (fstatSync(fd).size > MAX_DOCUMENT_BYTES) throw tooLarge();
    // In chunks until the end: a file's size says nothing of a device's or a pipe's.
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(64 * 1024);
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      length += read;
      if (length > MAX_DOCUMENT_BYTES) throw tooLarge();
    }
    return Buffer.concat(chunks, length).toString('utf8');
  } catch (error) {
    if (error instanceof DocumentError) throw error;
    throw new DocumentError('#', undefined, `cannot read ${path}: ${(error as Error).message}`);
  } finally {
    closeSync(fd);
  }
}
