// The operation's contract, derived from the OpenAPI document when the app is
// built: its method and path, media types and responses, and the validator of
// its request body (spec/validator.ts, shared with the harness). A document
// the server cannot serve throws a DocumentError naming the keyword and its
// pointer; start.ts turns it into exit 2.
//
// The shipped document's request-body validator is generated at build time
// (request-body.ts, written by scripts/bundle-server.mjs to
// dist/spec/openapi.validator.js) and used for that document's own text:
// compiling it at every start cost a quarter of the start-up. Any other
// document is compiled as the app is built.
import {
  DocumentError,
  OPENAPI_PATH,
  readOpenApi,
  resolveReference,
  type OpenApiDocument,
  type OperationObject,
  type ResponseObject,
} from '../../spec/openapi.js';
import * as shipped from '../../spec/openapi.validator.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import { schemaValidators, validatorOf, type UncheckedFormat, type Validate } from '../../spec/validator.js';
import type { JsonValue } from '../json/json.js';
import { successSchema, type ResourceModel } from '../operations/resources.js';
import { requestBodySchema, VALIDATOR_OPTIONS } from './request-body.js';

export interface OperationContract {
  method: string;
  path: string;
  /** The responses the document declares for the operation, by status (references resolved). */
  responses: Record<string, ResponseObject>;
  /** Media types the request body may have. */
  requestMediaTypes: string[];
  requestBodyRequired: boolean;
  /** Validates a parsed request body; returns the violations, [] when valid. */
  validateRequestBody(body: JsonValue): string[];
  /** What the document states that the server cannot check, said at start: formats it treats as annotations. */
  warnings: string[];
  /** The properties the stored plant (the answer) keeps of a NewPlant: those the document's Plant declares. */
  plant: PlantShape;
  /** The document itself, for what else it declares (its webhooks: server/webhooks/). */
  document: OpenApiDocument;
}

/**
 * The properties the document's Plant schema declares: the schema of the
 * create operation's 200 answer (application/json), read through `$ref` and
 * `allOf`. A NewPlant's property is kept in the stored plant, and answered,
 * when Plant declares it: named under `properties`, or matched by a pattern
 * of `patternProperties` (JSON Schema 2020-12 §10.3.2.2: such a property is
 * one the schema describes). Other properties are accepted and dropped.
 */
export interface PlantShape {
  keeps(name: string): boolean;
  /** Whether a kept name may be an array index ("0", "42"), which JavaScript objects list first whatever the order sent. */
  mayKeepIndexNames: boolean;
  /** Where Plant is in the document (the pointers read), for messages. */
  pointer: string;
  /** Plant's schema (at `pointer`), which a replaced or merged plant must pass. */
  schema: unknown;
}

/** The contract of the create operation of the OpenAPI document at `specPath`; a DocumentError when the server cannot serve it. */
export function loadOperationContract(specPath: string = OPENAPI_PATH): OperationContract {
  const { document, source } = readOpenApi(specPath);
  return operationContract(document, source);
}

/** The request body's validator: generated at build time for the shipped document's text, compiled now for any other. */
function requestBodyValidator(
  doc: OpenApiDocument,
  source: string,
  schema: unknown,
  schemaPointer: string,
): { validate: Validate; uncheckedFormats: UncheckedFormat[] } {
  if (source === shipped.source && schemaPointer === shipped.schemaPointer) {
    return {
      validate: validatorOf(shipped.validate, schemaPointer, VALIDATOR_OPTIONS),
      uncheckedFormats: shipped.uncheckedFormats,
    };
  }
  const validators = schemaValidators(doc, VALIDATOR_OPTIONS);
  return { validate: validators.compile(schema, schemaPointer), uncheckedFormats: validators.uncheckedFormats() };
}

/**
 * The contract of the plant resource's create operation of `doc` (found in
 * `model`, else as operations/resources.ts finds it), whose text is
 * `source`; a DocumentError when the server cannot serve it.
 */
export function operationContract(doc: OpenApiDocument, source: string, model?: ResourceModel): OperationContract {
  const { path, method, operation, pointer, requestBody, content, schema, schemaPointer } = requestBodySchema(
    doc,
    model,
  );
  const { validate, uncheckedFormats } = requestBodyValidator(doc, source, schema, schemaPointer);
  const responses: Record<string, ResponseObject> = {};
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    responses[status] = resolveReference(doc, response, childPointer(pointer, 'responses', status)).value;
  }
  return {
    method,
    path,
    responses,
    requestMediaTypes: Object.keys(content),
    requestBodyRequired: requestBody.required === true,
    validateRequestBody(body) {
      const violations = validate(body);
      return violations.length === 0 ? [] : describe(violations);
    },
    warnings: uncheckedFormats.map(formatWarning),
    plant: plantShape(doc, itemSchema(doc, pointer, operation) ?? { schema, pointer: schemaPointer }),
    document: doc,
  };
}

/** The schema of the create's success answer (Plant: its lowest 2xx that declares JSON content) and its pointer, when it declares one. */
function itemSchema(
  doc: OpenApiDocument,
  pointer: string,
  operation: OperationObject,
): { schema: unknown; pointer: string } | undefined {
  return successSchema(doc, { path: '', method: '', operation, pointer, parameters: [] });
}
const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

/**
 * The properties `schema` declares, through `$ref` and `allOf`. Only these
 * two: a property declared in one branch of `anyOf` or `oneOf`, or under
 * `if`/`then`, is not one every Plant has.
 */
export function plantShape(
  doc: OpenApiDocument,
  { schema, pointer }: { schema: unknown; pointer: string },
): PlantShape {
  const names = new Set<string>();
  const patterns: RegExp[] = [];
  const seen = new Set<string>();
  const visit = (node: unknown, at: string): void => {
    if (!isSchemaObject(node) || seen.has(at)) return;
    seen.add(at);
    if (isSchemaObject(node.properties)) for (const name of Object.keys(node.properties)) names.add(name);
    if (isSchemaObject(node.patternProperties)) {
      for (const pattern of Object.keys(node.patternProperties)) {
        try {
          patterns.push(new RegExp(pattern, 'u'));
        } catch (error) {
          throw new DocumentError(
            childPointer(at, 'patternProperties', pattern),
            'patternProperties',
            `not an ECMA-262 regular expression: ${(error as Error).message}`,
          );
        }
      }
    }
    if (typeof node.$ref === 'string') {
      const target = resolveReference(doc, { $ref: node.$ref }, at);
      visit(target.value, target.pointer);
    }
    if (Array.isArray(node.allOf)) node.allOf.forEach((part, i) => visit(part, childPointer(at, 'allOf', i)));
  };
  visit(schema, pointer);
  return {
    keeps:
      patterns.length === 0
        ? (name) => names.has(name)
        : (name) => names.has(name) || patterns.some((pattern) => pattern.test(name)),
    mayKeepIndexNames: patterns.length > 0 || [...names].some((name) => ARRAY_INDEX.test(name)),
    pointer,
    schema,
  };
}

function formatWarning({ format, pointer }: UncheckedFormat): string {
  return `format ${JSON.stringify(format)} at ${pointer} is not checked: the server knows no such format, and JSON Schema 2020-12 §7.2.1 makes an unknown format an annotation`;
}

/** The violations as sentences naming the field and the rule, without duplicates. */
export function describe(errors: Array<{ instancePath: string; keyword: string; message: string }>): string[] {
  const sentences = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'allOf') continue; // its branches report the reason
    const required = /^must have required property '(.*)'$/.exec(error.message);
    if (error.keyword === 'required' && required) {
      sentences.add(`${error.instancePath}/${required[1]} is required`);
      continue;
    }
    const where = error.instancePath === '' ? 'the body' : error.instancePath;
    sentences.add(`${where} ${error.message}`);
  }
  return [...sentences];
}
