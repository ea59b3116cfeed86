// What the harness knows about the API, derived from the OpenAPI document at
// run time (spec/openapi.ts loads it, spec/validator.ts builds the validators
// the server uses too): every declared operation with its parameters,
// request body, responses and security requirement; the operation the catalog
// exercises ("Create plant"); every keyword of the document's schemas with its
// pointer. Checks read this model; nothing here is a hand-written constant.
import { createOperation, DocumentError, loadOpenApi, operationsOf, OPENAPI_PATH, resolveReference, type JsonSchema, type OpenApiDocument, type OperationLocation } from '../../spec/openapi.js';
import { childPointer, isSchemaObject, type KeywordUse } from '../../spec/schema-keywords.js';
import { documentKeywordUses, schemaValidators, type SchemaValidators, type UncheckedFormat, type Violation } from '../../spec/validator.js';
import { Numeral } from './json.js';

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

export interface FieldModel {
  name: string;
  /** The first type the schema allows that is not null (what a value of the field is built as). */
  type: JsonType;
  /** Every type the schema allows (`type: [string, "null"]` gives both). */
  types: JsonType[];
  format?: string;
  required: boolean;
}

/** An object schema flattened through `allOf` and `$ref`: its fields and which are required. */
export interface ObjectModel {
  fields: FieldModel[];
  required: string[];
  /** No `additionalProperties: false` nor `unevaluatedProperties: false` closes it. */
  additionalProperties: boolean;
  /** The patterns of its `patternProperties`: a property whose name one matches is one the schema declares. */
  patterns: string[];
}

/** A validator of the document; a violation names the keyword and its pointer. */
export type Validator = (value: unknown) => Violation[];

export interface ResponseModel {
  status: string;
  description: string;
  contentTypes: string[];
  /** Name of the component schema, when the response references one. */
  schemaName?: string;
  /** The schema and its pointer, when the response declares one. */
  schema?: { schema: unknown; pointer: string };
  validate?: Validator;
}

export interface ParameterModel {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema?: { schema: unknown; pointer: string };
  example?: unknown;
}

export interface OperationModel {
  path: string;
  method: string;
  operationId: string;
  /** Its pointer in the document, e.g. `#/paths/~1plants/post`. */
  pointer: string;
  parameters: ParameterModel[];
  requestContentTypes: string[];
  requestBodyRequired: boolean;
  /** The request body's schema (the first media type's) and its pointer. */
  requestSchema?: { schema: unknown; pointer: string };
  /** The request body's examples as the document gives them. */
  requestExamples: unknown[];
  validateRequest?: Validator;
  responses: Map<string, ResponseModel>;
  /** The security requirement's alternatives: each lists the schemes it needs (an empty one: no credentials needed). */
  security: Array<Array<{ name: string; type: string; scheme?: string }>>;
  securitySchemes: Array<{ name: string; type: string; scheme?: string }>;
  /** Every alternative of the security requirement needs an HTTP bearer scheme. */
  bearerRequired: boolean;
}

/** The operation the catalog exercises: it takes a body, and declares a success and an error response. */
export interface CreateModel extends OperationModel {
  requestSchemaName: string;
  requestSchema: { schema: unknown; pointer: string };
  request: ObjectModel;
  validateRequest: Validator;
  /** The declared success response (the lowest 2xx). */
  success: ResponseModel;
  /** The declared error response (the lowest 4xx). */
  error: ResponseModel;
  /** The fields of the success schema (the document's Plant). */
  answer: ObjectModel;
}

export interface SpecModel {
  path: string;
  doc: OpenApiDocument;
  /** Every operation the document declares. */
  operations: OperationModel[];
  /** The operation the catalog exercises: "Create plant". */
  create: CreateModel;
  schemaNames: string[];
  /** Every keyword of the document's schemas, with its pointer. */
  keywords: KeywordUse[];
  /** Formats the validators do not check (annotations, JSON Schema 2020-12 §7.2.1). */
  uncheckedFormats: UncheckedFormat[];
  /** The request validator with the keywords at these pointers left out ("valid but for this keyword"); cached. */
  requestValidatorWithout(pointers: string[]): Validator;
}

/** What drawing and repairing values needs of a document: the document and its keywords (a whole SpecModel has them; so has a document no catalog can be built from). */
export type DocumentSchemas = Pick<SpecModel, 'doc' | 'keywords'>;

const COMPONENT = /^#\/components\/schemas\/([^/]+)$/;

function refName(schema: unknown): string | undefined {
  const ref = isSchemaObject(schema) ? schema.$ref : undefined;
  return typeof ref === 'string' ? COMPONENT.exec(ref)?.[1] : undefined;
}

/** A schema with its `$ref` followed (within the document), and the pointer it ends at. */
export function resolveSchema(doc: OpenApiDocument, schema: unknown, pointer: string): { schema: unknown; pointer: string } {
  let at = { schema, pointer };
  for (let hops = 0; isSchemaObject(at.schema) && typeof at.schema.$ref === 'string' && hops < 32; hops++) {
    const resolved = resolveReference(doc, at.schema, at.pointer);
    at = { schema: resolved.value, pointer: resolved.pointer };
  }
  return at;
}

function asTypes(type: unknown): JsonType[] {
  return (Array.isArray(type) ? type : type === undefined ? [] : [type]) as JsonType[];
}

/** Flattens an object schema (through `allOf` and `$ref`) into its fields. */
export function flattenObject(doc: OpenApiDocument, schema: unknown, pointer: string): ObjectModel {
  const fields = new Map<string, FieldModel>();
  const required = new Set<string>();
  const patterns: string[] = [];
  let additionalProperties = true;
  const visit = (node: unknown, at: string): void => {
    const { schema: s, pointer: p } = resolveSchema(doc, node, at);
    if (!isSchemaObject(s)) return;
    ((s.allOf as unknown[] | undefined) ?? []).forEach((part, i) => visit(part, childPointer(p, 'allOf', i)));
    for (const r of (s.required as string[] | undefined) ?? []) required.add(r);
    if (s.additionalProperties === false || s.unevaluatedProperties === false) additionalProperties = false;
    if (isSchemaObject(s.patternProperties)) patterns.push(...Object.keys(s.patternProperties));
    const props = (s.properties as Record<string, unknown> | undefined) ?? {};
    for (const [name, raw] of Object.entries(props)) {
      const { schema: prop } = resolveSchema(doc, raw, childPointer(p, 'properties', name));
      const known = fields.get(name);
      const types = isSchemaObject(prop) && prop.type !== undefined ? asTypes(prop.type) : (known?.types ?? []);
      const format = isSchemaObject(prop) && typeof prop.format === 'string' ? prop.format : known?.format;
      fields.set(name, { name, type: types.find((t) => t !== 'null') ?? types[0] ?? known?.type ?? 'string', types, format, required: false });
    }
  };
  visit(schema, pointer);
  for (const f of fields.values()) f.required = required.has(f.name);
  return { fields: [...fields.values()], required: [...required], additionalProperties, patterns };
}

function mediaExamples(media: { example?: unknown; examples?: Record<string, { value?: unknown }> } | undefined, schema: unknown): unknown[] {
  const out: unknown[] = [];
  if (media?.example !== undefined) out.push(media.example);
  for (const e of Object.values(media?.examples ?? {})) if (e && e.value !== undefined) out.push(e.value);
  if (isSchemaObject(schema) && Array.isArray(schema.examples)) out.push(...schema.examples);
  return out;
}

function operationModel(doc: OpenApiDocument, op: OperationLocation, validators: SchemaValidators): OperationModel {
  const { operation, pointer } = op;
  const responses = new Map<string, ResponseModel>();
  for (const [status, raw] of Object.entries(operation.responses ?? {})) {
    const { value: r, pointer: rp } = resolveReference(doc, raw, childPointer(pointer, 'responses', status));
    const content = r.content ?? {};
    const contentTypes = Object.keys(content);
    const first = contentTypes[0];
    const schema = first !== undefined ? content[first]!.schema : undefined;
    const schemaPointer = first !== undefined ? childPointer(rp, 'content', first, 'schema') : '';
    const validate = schema !== undefined ? validators.compile(schema, schemaPointer) : undefined;
    responses.set(status, {
      status,
      description: r.description,
      contentTypes,
      schemaName: refName(schema),
      schema: schema !== undefined ? { schema, pointer: schemaPointer } : undefined,
      validate,
    });
  }
  let requestContentTypes: string[] = [];
  let requestSchema: { schema: unknown; pointer: string } | undefined;
  let requestExamples: unknown[] = [];
  let requestBodyRequired = false;
  if (operation.requestBody !== undefined) {
    const { value: body, pointer: bp } = resolveReference(doc, operation.requestBody, childPointer(pointer, 'requestBody'));
    requestContentTypes = Object.keys(body.content ?? {});
    requestBodyRequired = body.required === true;
    const first = requestContentTypes[0];
    const media = first !== undefined ? body.content[first] : undefined;
    if (media?.schema !== undefined) requestSchema = { schema: media.schema, pointer: childPointer(bp, 'content', first!, 'schema') };
    requestExamples = mediaExamples(media, media?.schema);
  }
  const schemes = doc.components.securitySchemes ?? {};
  const security = (operation.security ?? doc.security ?? []).map((requirement) =>
    Object.keys(requirement).map((name) => {
      const s = schemes[name] ?? {};
      return { name, type: String(s.type), scheme: typeof s.scheme === 'string' ? s.scheme : undefined };
    }),
  );
  const isBearer = (s: { type: string; scheme?: string }) => s.type === 'http' && s.scheme?.toLowerCase() === 'bearer';
  const validateRequest = requestSchema && validators.compile(requestSchema.schema, requestSchema.pointer);
  return {
    path: op.path,
    method: op.method,
    operationId: operation.operationId ?? `${op.method} ${op.path}`,
    pointer,
    parameters: op.parameters.map(({ parameter: p, pointer: pp }) => ({
      name: p.name,
      in: p.in,
      required: p.required === true || p.in === 'path',
      schema: p.schema !== undefined ? { schema: p.schema, pointer: childPointer(pp, 'schema') } : undefined,
      example: p.example ?? Object.values(p.examples ?? {})[0]?.value,
    })),
    requestContentTypes,
    requestBodyRequired,
    requestSchema,
    requestExamples,
    validateRequest: validateRequest && ((value) => validateRequest(value)),
    responses,
    security,
    securitySchemes: security.flat(),
    bearerRequired: security.length > 0 && security.every((alternative) => alternative.some(isBearer)),
  };
}

export function loadSpecModel(path: string = OPENAPI_PATH): SpecModel {
  const doc = loadOpenApi(path);
  // The harness reads what it can: a keyword it does not know is reported as not exercised, not refused.
  const validators = schemaValidators(doc, { numeral: (v) => (v instanceof Numeral ? v.text : undefined), unknownKeywords: 'ignore' });
  const createAt = createOperation(doc);
  const operations = operationsOf(doc).map((op) => operationModel(doc, op, validators));
  const create = operations.find((op) => op.pointer === createAt.pointer)!;
  const statuses = [...create.responses.keys()].sort();
  const success = statuses.find((s) => s.startsWith('2'));
  const error = statuses.find((s) => s.startsWith('4'));
  if (!create.requestSchema || !create.validateRequest || success === undefined || error === undefined) {
    throw new DocumentError(create.pointer, undefined, `${create.method} ${create.path}: the catalog needs a request body schema, a 2xx and a 4xx response`);
  }
  const successModel = create.responses.get(success)!;
  const withoutCache = new Map<string, Validator>();
  const requestSchema = create.requestSchema;
  return {
    path,
    doc,
    operations,
    create: {
      ...create,
      requestSchema,
      validateRequest: create.validateRequest,
      requestSchemaName: refName(requestSchema.schema) ?? '(inline)',
      request: flattenObject(doc, requestSchema.schema, requestSchema.pointer),
      success: successModel,
      error: create.responses.get(error)!,
      answer: successModel.schema ? flattenObject(doc, successModel.schema.schema, successModel.schema.pointer) : { fields: [], required: [], additionalProperties: true, patterns: [] },
    },
    schemaNames: Object.keys(doc.components.schemas),
    keywords: documentKeywordUses(doc),
    uncheckedFormats: validators.uncheckedFormats(),
    requestValidatorWithout(pointers) {
      const key = [...pointers].sort().join(' ');
      let v = withoutCache.get(key);
      if (!v) {
        v = validators.compile(requestSchema.schema, requestSchema.pointer, new Set(pointers));
        withoutCache.set(key, v);
      }
      return v;
    },
  };
}

export type { JsonSchema };
