// Loads the OpenAPI document that both the server and the conformance harness
// derive their behaviour from. Both read spec/; neither imports the other.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as Yaml from 'yaml';
import { StartError } from '../lib/start-error.js';
import { childPointer, escapePointer, isExtension, isSchemaObject, mapSchema, OPENAPI_ONLY, type JsonSchema } from './schema-keywords.js';

export type { JsonSchema } from './schema-keywords.js';

/**
 * Whether this module runs compiled: from dist/, or from the fresh folder
 * beside it that scripts/build.mjs builds into before swapping it in.
 */
const COMPILED = /\/dist(?:\.build-\d+)?\//.test(import.meta.url);

/** The path of spec/openapi.yaml, from both the source tree and dist/. */
export const OPENAPI_PATH = fileURLToPath(new URL(COMPILED ? '../../spec/openapi.yaml' : './openapi.yaml', import.meta.url));

/** The HTTP methods an OpenAPI Path Item may hold (OpenAPI 3.1 §4.8.9). */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface MediaTypeObject {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { value?: unknown; $ref?: string }>;
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
  $ref?: string;
}

export interface ResponseObject {
  description: string;
  content?: Record<string, MediaTypeObject>;
  $ref?: string;
}

export interface OperationObject {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, MediaTypeObject>; $ref?: string };
  responses: Record<string, ResponseObject>;
}

export type PathItemObject = Partial<Record<(typeof HTTP_METHODS)[number], OperationObject>> & { parameters?: ParameterObject[] };

export interface OpenApiDocument {
  openapi: string;
  jsonSchemaDialect?: string;
  info: { title: string; version: string };
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes?: Record<string, Record<string, unknown>>;
    [section: string]: Record<string, unknown> | undefined;
  };
  security?: Array<Record<string, string[]>>;
}

/**
 * A document the server cannot serve, or the harness cannot read: the
 * keyword (when one is to blame) and its location as a JSON pointer into the
 * document, e.g. `maxLenght at #/components/schemas/Plant/properties/name/maxLenght`.
 */
export class DocumentError extends StartError {
  override readonly name = 'DocumentError';
  constructor(
    readonly pointer: string,
    readonly keyword: string | undefined,
    readonly detail: string,
  ) {
    super('PLANTSTORE_DOCUMENT', keyword === undefined ? `${pointer}: ${detail}` : `${keyword} at ${pointer}: ${detail}`);
  }
}

/** The OpenAPI 3.1 default dialect: JSON Schema 2020-12 with the OpenAPI base vocabulary. */
const OPENAPI_31_DIALECT = 'https://spec.openapis.org/oas/3.1/dialect/base';

export function loadOpenApi(path: string = OPENAPI_PATH): OpenApiDocument {
  return readOpenApi(path).document;
}

/** The document at `path` (loadOpenApi) and its text, which tells the shipped document from any other. */
export function readOpenApi(path: string = OPENAPI_PATH): { document: OpenApiDocument; source: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new DocumentError('#', undefined, `cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown = parsedAtBuild(text);
  if (parsed === undefined) {
    try {
      parsed = safeIntegersAsNumbers(parseYaml(text));
    } catch (error) {
      throw new DocumentError('#', undefined, `${path} is not YAML or JSON: ${(error as Error).message}`);
    }
  }
  const doc = parsed as OpenApiDocument;
  if (!isSchemaObject(doc) || !isSchemaObject(doc.paths)) throw new DocumentError('#/paths', undefined, `${path} is not an OpenAPI document with paths`);
  if (typeof doc.openapi !== 'string' || !/^3\.1\.\d+$/.test(doc.openapi)) {
    // 3.0 schemas are another dialect (nullable, boolean exclusiveMinimum): read as 2020-12 they would mean something else.
    throw new DocumentError('#/openapi', 'openapi', `${JSON.stringify(doc.openapi)}: only OpenAPI 3.1 documents are read (their schemas are JSON Schema 2020-12)`);
  }
  if (doc.jsonSchemaDialect !== undefined && doc.jsonSchemaDialect !== OPENAPI_31_DIALECT) {
    throw new DocumentError('#/jsonSchemaDialect', 'jsonSchemaDialect', `${JSON.stringify(doc.jsonSchemaDialect)}: only the OpenAPI 3.1 default dialect (${OPENAPI_31_DIALECT}) is read`);
  }
  doc.components = { ...(isSchemaObject(doc.components) ? doc.components : {}), schemas: isSchemaObject(doc.components?.schemas) ? doc.components.schemas : {} };
  checkReferences(doc);
  return { document: doc, source: text };
}

/** Keywords whose values are data (examples, defaults, constants), not document structure: a "$ref" in them is not a reference. */
const DATA_KEYWORDS = new Set(['example', 'examples', 'default', 'const', 'enum', 'value']);

/**
 * Every reference into the document resolves: one that does not is reported
 * where its author wrote it (the `$ref` and its pointer), not where a
 * validator that bundled the schemas first stumbles on it.
 */
function checkReferences(doc: OpenApiDocument): void {
  const visit = (node: unknown, pointer: string, namesHere: boolean): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => visit(item, childPointer(pointer, i), false));
    if (!isSchemaObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (!namesHere && key === '$ref' && typeof value === 'string' && value.startsWith('#')) {
        if (resolvePointer(doc, value) === undefined) throw new DocumentError(childPointer(pointer, '$ref'), '$ref', `${JSON.stringify(value)} resolves to nothing`);
      } else if (namesHere || !DATA_KEYWORDS.has(key)) visit(value, childPointer(pointer, key), !namesHere && NAME_MAPS.has(key));
    }
  };
  visit(doc, '#', false);
}

/** Keywords whose value maps names (a property's, a definition's) to schemas: there a key is a name, whatever it spells. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'schemas']);

/** The value at a JSON pointer of the document (`#/…`, RFC 6901), or undefined. */
function resolvePointer(doc: OpenApiDocument, ref: string): unknown {
  if (ref === '#') return doc;
  if (!ref.startsWith('#/')) return undefined;
  let value: unknown = doc;
  for (const token of ref.slice(2).split('/')) {
    const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~'); // RFC 6901 §4, §6 (a URI fragment)
    value = isSchemaObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined) return undefined;
  }
  return value;
}

/**
 * The build (scripts/bundle-server.mjs) parses the shipped document once and
 * writes it, with its source text, as JSON next to dist/spec/: YAML parsing
 * is a tenth of the server's start-up. It is used only for exactly the text
 * it was made from, so an edited document is parsed as usual. The path is
 * the same from dist/spec/ (this module) and from dist/server/ (the
 * server's bundle, which holds this module).
 */
export const PARSED_DOCUMENT_PATH = fileURLToPath(new URL('../spec/openapi.parsed.json', import.meta.url));

/** A bigint in the parsed document's JSON, which has no integers beyond 2^53. */
const BIGINT_KEY = '$plantstore-bigint';

function parsedAtBuild(text: string): unknown {
  if (!COMPILED) return undefined;
  let saved: { source?: unknown; document?: unknown };
  try {
    saved = JSON.parse(readFileSync(PARSED_DOCUMENT_PATH, 'utf8'), (_key, value: unknown) =>
      isSchemaObject(value) && Object.keys(value).length === 1 && typeof value[BIGINT_KEY] === 'string' ? BigInt(value[BIGINT_KEY]) : value,
    ) as typeof saved;
  } catch {
    return undefined;
  }
  return saved.source === text ? saved.document : undefined;
}

/** The JSON text of a parsed document and its source, for parsedAtBuild. */
export function serializeParsedDocument(source: string): string {
  const document = safeIntegersAsNumbers(parseYaml(source));
  return JSON.stringify({ source, document }, (_key, value: unknown) => (typeof value === 'bigint' ? { [BIGINT_KEY]: value.toString() } : value));
}

const requireFromHere = createRequire(import.meta.url);

/**
 * YAML (a superset of JSON), integers as bigints first, so that a bound like
 * 9223372036854775807 keeps its digits. The parser is loaded when first
 * needed (it is CommonJS): the server serving the shipped document never
 * needs it, and its bundle leaves it out.
 */
function parseYaml(text: string): unknown {
  return (requireFromHere('yaml') as typeof Yaml).parse(text, { intAsBigInt: true });
}

/** Bigints that fit a double exactly become numbers; larger ones stay bigints (only numeric keywords and examples can hold them). */
function safeIntegersAsNumbers(node: unknown): unknown {
  if (typeof node === 'bigint') return node >= BigInt(Number.MIN_SAFE_INTEGER) && node <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(node) : node;
  if (Array.isArray(node)) return node.map(safeIntegersAsNumbers);
  if (isSchemaObject(node)) return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, safeIntegersAsNumbers(v)]));
  return node;
}

const COMPONENT_SCHEMA_REF = /^#\/components\/schemas\//;

/** The document pointer of a component schema. */
export function componentPointer(name: string): string {
  return `#/components/schemas/${escapePointer(name)}`;
}

/** A Reference Object (`{$ref: '#/...'}`) of the document, resolved; anything else as it is. */
export function resolveReference<T>(doc: OpenApiDocument, node: T, pointer: string): { value: T; pointer: string } {
  const ref = (node as { $ref?: unknown })?.$ref;
  if (typeof ref !== 'string') return { value: node, pointer };
  if (!ref.startsWith('#/')) throw new DocumentError(childPointer(pointer, '$ref'), '$ref', `${JSON.stringify(ref)} refers to another document; only references into this document are read`);
  let value: unknown = doc;
  for (const token of ref.slice(2).split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~'); // RFC 6901 §4
    value = isSchemaObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  }
  if (value === undefined) throw new DocumentError(childPointer(pointer, '$ref'), '$ref', `${JSON.stringify(ref)} resolves to nothing`);
  return resolveReference(doc, value as T, ref);
}

/**
 * A self-contained JSON Schema (2020-12) for one schema of the document:
 * every `#/components/schemas/X` reference becomes `#/$defs/X`, and all
 * component schemas travel along under `$defs`, so a validator needs nothing
 * else. OpenAPI's own annotations and `x-` extensions are left out (a JSON
 * Schema validator does not know them). `transform` may rewrite each schema
 * object (after that), knowing its pointer in the document, e.g. to replace
 * a keyword a validator cannot check exactly.
 */
export function bundleSchema(
  doc: OpenApiDocument,
  schema: unknown,
  pointer: string,
  transform: (node: JsonSchema, pointer: string) => JsonSchema = (node) => node,
): JsonSchema {
  const rewrite = (node: JsonSchema, at: string): JsonSchema => {
    const out: JsonSchema = {};
    for (const [keyword, value] of Object.entries(node)) {
      if (OPENAPI_ONLY.has(keyword) || isExtension(keyword)) continue;
      out[keyword] = keyword === '$ref' && typeof value === 'string' ? value.replace(COMPONENT_SCHEMA_REF, '#/$defs/') : value;
    }
    return transform(out, at);
  };
  const defs: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(doc.components.schemas)) defs[name] = mapSchema(def, componentPointer(name), rewrite);
  const root = mapSchema(schema, pointer, rewrite);
  // A boolean schema (true / false) is a schema too; it holds no $defs.
  return isSchemaObject(root) ? { ...root, $defs: defs } : { allOf: [root], $defs: defs };
}

/** Back from a location in a bundled schema (`/$defs/Plant/...` or the root) to the document's pointer. */
export function documentPointer(bundledPath: string, rootPointer: string): string {
  const m = /^\/\$defs\/([^/]+)(.*)$/.exec(bundledPath);
  return m ? `#/components/schemas/${m[1]}${m[2]}` : `${rootPointer}${bundledPath}`;
}

/** One operation of the document, where it is and what it is. */
export interface OperationLocation {
  path: string;
  /** Upper case, e.g. POST. */
  method: string;
  operation: OperationObject;
  /** Its pointer in the document, e.g. `#/paths/~1plants/post`. */
  pointer: string;
  /** Parameters of the path item and of the operation (the operation's win), resolved. */
  parameters: Array<{ parameter: ParameterObject; pointer: string }>;
}

export function operationsOf(doc: OpenApiDocument): OperationLocation[] {
  const out: OperationLocation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const itemPointer = childPointer('#/paths', path);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isSchemaObject(operation)) continue;
      const pointer = childPointer(itemPointer, method);
      const byKey = new Map<string, { parameter: ParameterObject; pointer: string }>();
      const collect = (list: unknown, at: string) => {
        if (!Array.isArray(list)) return;
        list.forEach((raw, i) => {
          const { value, pointer: p } = resolveReference(doc, raw as ParameterObject, childPointer(at, 'parameters', i));
          byKey.set(`${value.in}:${value.name}`, { parameter: value, pointer: p });
        });
      };
      collect(item.parameters, itemPointer);
      collect(operation.parameters, pointer);
      out.push({ path, method: method.toUpperCase(), operation, pointer, parameters: [...byKey.values()] });
    }
  }
  return out;
}

/** The operation identifier the specification's "Create plant" endpoint has in the document. */
export const CREATE_OPERATION_ID = 'createPlant';

/**
 * The operation the specification calls "Create plant": the one with
 * operationId createPlant, or else the only operation that takes a request
 * body. Other operations may be declared beside it.
 */
export function createOperation(doc: OpenApiDocument): OperationLocation {
  const all = operationsOf(doc);
  const named = all.find((op) => op.operation.operationId === CREATE_OPERATION_ID);
  if (named) return named;
  const withBody = all.filter((op) => op.operation.requestBody !== undefined);
  if (withBody.length === 1) return withBody[0]!;
  throw new DocumentError(
    '#/paths',
    undefined,
    withBody.length === 0
      ? `no operation with operationId ${CREATE_OPERATION_ID} and none that takes a request body: the document declares no create operation`
      : `no operation with operationId ${CREATE_OPERATION_ID}, and ${withBody.length} take a request body: say which creates a plant`,
  );
}
