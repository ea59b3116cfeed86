// The operation's contract, derived from the OpenAPI document when the app is
// built: its method and path, media types and responses, and the validator of
// its request body (spec/validator.ts, shared with the harness). A document
// the server cannot serve throws a DocumentError naming the keyword and its
// pointer; start.ts turns it into exit 2.
import { DocumentError, createOperation, loadOpenApi, operationsOf, OPENAPI_PATH, resolveReference, type OpenApiDocument, type ResponseObject } from '../spec/openapi.js';
import { childPointer } from '../spec/schema-keywords.js';
import { schemaValidators, type UncheckedFormat } from '../spec/validator.js';
import { NonIntegralNumber, type JsonValue } from './json.js';

/** The media type the server reads request bodies in (body.ts). */
const JSON_MEDIA_TYPE = 'application/json';

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
  /** The other operations the document declares (method and path template), which the server does not implement. */
  otherOperations: Array<{ method: string; path: string }>;
  /** What the document states that the server cannot check, said at start: formats it treats as annotations. */
  warnings: string[];
}

/** The contract of the create operation of the OpenAPI document at `specPath`; a DocumentError when the server cannot serve it. */
export function loadOperationContract(specPath: string = OPENAPI_PATH): OperationContract {
  return operationContract(loadOpenApi(specPath));
}

function operationContract(doc: OpenApiDocument): OperationContract {
  const { path, method, operation, pointer } = createOperation(doc);
  const bodyPointer = childPointer(pointer, 'requestBody');
  if (operation.requestBody === undefined) throw new DocumentError(bodyPointer, 'requestBody', `${method} ${path} declares no request body`);
  const { value: requestBody, pointer: requestBodyPointer } = resolveReference(doc, operation.requestBody, bodyPointer);
  const content = requestBody.content ?? {};
  const schemaPointer = childPointer(requestBodyPointer, 'content', JSON_MEDIA_TYPE, 'schema');
  const schema = content[JSON_MEDIA_TYPE]?.schema;
  if (schema === undefined) throw new DocumentError(childPointer(requestBodyPointer, 'content'), 'content', `${method} ${path}: the server reads ${JSON_MEDIA_TYPE} request bodies, and the document declares no schema for one`);

  const validators = schemaValidators(doc, {
    // The JSON parser keeps a non-integral numeral whose double is an integer (1e-400) apart; it is still a number.
    numeral: (value) => (value instanceof NonIntegralNumber ? value.numeral : undefined),
    unknownKeywords: 'refuse',
  });
  const validate = validators.compile(schema, schemaPointer);
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
      return describe(validate(body));
    },
    otherOperations: operationsOf(doc)
      .filter((op) => op.pointer !== pointer)
      .map((op) => ({ method: op.method, path: op.path })),
    warnings: validators.uncheckedFormats().map(formatWarning),
  };
}

function formatWarning({ format, pointer }: UncheckedFormat): string {
  return `format ${JSON.stringify(format)} at ${pointer} is not checked: the server knows no such format, and JSON Schema 2020-12 §7.2.1 makes an unknown format an annotation`;
}

/** The violations as sentences naming the field and the rule, without duplicates. */
function describe(errors: Array<{ instancePath: string; keyword: string; message: string }>): string[] {
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
