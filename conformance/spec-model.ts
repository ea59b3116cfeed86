// What the harness knows about the API, derived from spec/openapi.yaml at run
// time: the operation under test, its declared statuses, content types and
// schemas, the security scheme, and validators for the declared response
// schemas. Checks read this model; nothing here is a hand-written constant.
import { createRequire } from 'node:module';
import { bundleSchema, loadOpenApi, OPENAPI_PATH, type JsonSchema, type OpenApiDocument } from '../spec/openapi.js';

const require = createRequire(import.meta.url);
// Ajv ships CommonJS; the 2020-12 build is the dialect of OpenAPI 3.1.
const Ajv2020 = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js').default;
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

export interface FieldModel {
  name: string;
  type: JsonType;
  format?: string;
  required: boolean;
}

/** An object schema flattened through `allOf` and `$ref`: its fields and which are required. */
export interface ObjectModel {
  fields: FieldModel[];
  required: string[];
  additionalProperties: boolean;
}

export interface ResponseModel {
  status: string;
  description: string;
  contentTypes: string[];
  /** Name of the component schema, when the response references one. */
  schemaName?: string;
  validate?: (body: unknown) => string[];
}

export interface OperationModel {
  path: string;
  method: string;
  operationId: string;
  requestContentTypes: string[];
  requestBodyRequired: boolean;
  requestSchemaName: string;
  request: ObjectModel;
  validateRequest: (body: unknown) => string[];
  responses: Map<string, ResponseModel>;
  /** The declared success response (the lowest 2xx). */
  success: ResponseModel;
  /** The declared error response (the lowest 4xx). */
  error: ResponseModel;
  securitySchemes: Array<{ name: string; type: string; scheme?: string }>;
}

export interface SpecModel {
  path: string;
  doc: OpenApiDocument;
  operations: OperationModel[];
  /** The operation the catalog exercises: the one that takes a request body. */
  create: OperationModel;
  schemaNames: string[];
}

function refName(schema: JsonSchema): string | undefined {
  const ref = schema.$ref;
  return typeof ref === 'string' ? ref.replace(/^#\/components\/schemas\//, '') : undefined;
}

function resolve(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const name = refName(schema);
  if (!name) return schema;
  const target = doc.components.schemas[name];
  if (!target) throw new Error(`unresolved reference ${String(schema.$ref)}`);
  return resolve(doc, target);
}

/** Flattens an object schema (with `allOf`) into its fields. */
export function flattenObject(doc: OpenApiDocument, schema: JsonSchema): ObjectModel {
  const fields = new Map<string, FieldModel>();
  const required = new Set<string>();
  let additionalProperties = true;
  const visit = (node: JsonSchema): void => {
    const s = resolve(doc, node);
    for (const part of (s.allOf as JsonSchema[] | undefined) ?? []) visit(part);
    for (const r of (s.required as string[] | undefined) ?? []) required.add(r);
    if (s.additionalProperties === false) additionalProperties = false;
    const props = (s.properties as Record<string, JsonSchema> | undefined) ?? {};
    for (const [name, raw] of Object.entries(props)) {
      const p = resolve(doc, raw);
      const type = (Array.isArray(p.type) ? p.type[0] : p.type) as JsonType | undefined;
      if (!type) throw new Error(`property ${name} has no type`);
      fields.set(name, { name, type, format: p.format as string | undefined, required: false });
    }
  };
  visit(schema);
  for (const f of fields.values()) f.required = required.has(f.name);
  return { fields: [...fields.values()], required: [...required], additionalProperties };
}

function makeAjv() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv;
}

function validatorFor(doc: OpenApiDocument, ajv: ReturnType<typeof makeAjv>, schema: JsonSchema): (body: unknown) => string[] {
  const validate = ajv.compile(bundleSchema(doc, schema));
  return (body) => (validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`));
}

export function loadSpecModel(path: string = OPENAPI_PATH): SpecModel {
  const doc = loadOpenApi(path);
  const ajv = makeAjv();
  const operations: OperationModel[] = [];
  const schemes = doc.components.securitySchemes ?? {};
  for (const [opPath, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].includes(method)) continue;
      const responses = new Map<string, ResponseModel>();
      for (const [status, r] of Object.entries(op.responses)) {
        const content = r.content ?? {};
        const contentTypes = Object.keys(content);
        const schema = contentTypes.length > 0 ? content[contentTypes[0]!]!.schema : undefined;
        responses.set(status, {
          status,
          description: r.description,
          contentTypes,
          schemaName: schema ? refName(schema) : undefined,
          validate: schema ? validatorFor(doc, ajv, schema) : undefined,
        });
      }
      const statuses = [...responses.keys()].sort();
      const success = statuses.find((s) => s.startsWith('2'));
      const error = statuses.find((s) => s.startsWith('4'));
      const body = op.requestBody;
      if (!body || !success || !error) continue; // the catalog exercises operations with a body, a 2xx and a 4xx
      const requestContentTypes = Object.keys(body.content);
      const requestSchema = body.content[requestContentTypes[0]!]!.schema;
      const security = op.security ?? doc.security ?? [];
      operations.push({
        path: opPath,
        method: method.toUpperCase(),
        operationId: op.operationId ?? `${method} ${opPath}`,
        requestContentTypes,
        requestBodyRequired: body.required === true,
        requestSchemaName: refName(requestSchema) ?? '(inline)',
        request: flattenObject(doc, requestSchema),
        validateRequest: validatorFor(doc, ajv, requestSchema),
        responses,
        success: responses.get(success)!,
        error: responses.get(error)!,
        securitySchemes: security.flatMap((req) =>
          Object.keys(req).map((name) => {
            const s = schemes[name] ?? {};
            return { name, type: String(s.type), scheme: typeof s.scheme === 'string' ? s.scheme : undefined };
          }),
        ),
      });
    }
  }
  const create = operations[0];
  if (!create) throw new Error(`${path}: no operation with a request body, a 2xx and a 4xx response`);
  return { path, doc, operations, create, schemaNames: Object.keys(doc.components.schemas) };
}
