// Request validation derived from spec/openapi.yaml when the app is built.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { INT64_MAX, INT64_MIN } from '../spec/formats.js';
import { bundleSchema, loadOpenApi, OPENAPI_PATH, type JsonSchema, type OpenApiDocument, type OperationObject } from '../spec/openapi.js';
import type { JsonValue } from './json.js';

// Ajv checks `type: integer` and `format: int64` on JavaScript numbers, which
// cannot hold every int64. Our JSON parser hands over integers beyond 2^53 as
// bigints, so every `{type: integer, format: int64}` of the document is
// checked by this keyword instead, exactly.
const INT64_KEYWORD = 'x-plantstore-int64';

export interface OperationContract {
  method: string;
  path: string;
  /** The responses the document declares for the operation, by status. */
  responses: OperationObject['responses'];
  /** Media types the request body may have. */
  requestMediaTypes: string[];
  requestBodyRequired: boolean;
  /** Validates a parsed request body; returns the violations, [] when valid. */
  validateRequestBody(body: JsonValue): string[];
}

/** The contract of the one operation the OpenAPI document at `specPath` declares. */
export function loadOperationContract(specPath: string = OPENAPI_PATH): OperationContract {
  const doc = loadOpenApi(specPath);
  // The document declares exactly one operation; find it rather than name it.
  const [path, methods] = Object.entries(doc.paths)[0] ?? [];
  const method = Object.keys(methods ?? {})[0];
  if (!path || !method) throw new Error('spec: the document declares no operation');
  return operationContract(doc, path, method);
}

/** The contract of the document's operation on `path` with `method`. */
function operationContract(doc: OpenApiDocument, path: string, method: string): OperationContract {
  const operation = doc.paths[path]?.[method.toLowerCase()];
  if (!operation?.requestBody) throw new Error(`spec: no ${method} ${path} with a request body`);
  const content = operation.requestBody.content;
  const requestMediaTypes = Object.keys(content);
  const schema = content['application/json']?.schema;
  if (!schema) throw new Error(`spec: ${method} ${path} has no application/json request schema`);

  const ajv = new Ajv2020({ allErrors: true, strict: true });
  ajv.addKeyword({
    keyword: INT64_KEYWORD,
    schemaType: 'boolean',
    errors: true,
    validate: function int64(this: unknown, _enabled: boolean, data: unknown) {
      const self = int64 as unknown as { errors: Partial<ErrorObject>[] };
      if (typeof data === 'number' && Number.isSafeInteger(data)) return true;
      if (typeof data === 'bigint') {
        if (data >= INT64_MIN && data <= INT64_MAX) return true;
        self.errors = [{ keyword: INT64_KEYWORD, message: `must be an integer from ${INT64_MIN} to ${INT64_MAX} (int64)`, params: {} }];
        return false;
      }
      self.errors = [{ keyword: INT64_KEYWORD, message: 'must be an integer (int64)', params: {} }];
      return false;
    },
  });
  const bundled = bundleSchema(doc, schema, exactInt64);
  const validate: ValidateFunction = ajv.compile(bundled);
  return {
    method,
    path,
    responses: operation.responses,
    requestMediaTypes,
    requestBodyRequired: operation.requestBody.required === true,
    validateRequestBody(body) {
      if (validate(body)) return [];
      return describe(validate.errors ?? []);
    },
  };
}

function exactInt64(node: JsonSchema): JsonSchema {
  if (node.type !== 'integer' || node.format !== 'int64') return node;
  const { type: _type, format: _format, ...rest } = node;
  return { ...rest, [INT64_KEYWORD]: true };
}

/** Ajv's errors as sentences naming the field and the rule, without duplicates. */
function describe(errors: ErrorObject[]): string[] {
  const sentences = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'allOf') continue; // its branches report the reason
    if (error.keyword === 'required') {
      const field = `${error.instancePath}/${(error.params as { missingProperty: string }).missingProperty}`;
      sentences.add(`${field} is required`);
      continue;
    }
    const where = error.instancePath === '' ? 'the body' : error.instancePath;
    sentences.add(`${where} ${error.message ?? 'is invalid'}`);
  }
  return [...sentences];
}
