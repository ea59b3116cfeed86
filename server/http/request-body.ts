// The create operation's request body as the server reads it: where its
// schema is in the document, the options of its validator, and that
// validator as generated code, which the build writes for the shipped
// document (scripts/bundle-server.mjs) and validation.ts loads. Apart from
// validation.ts, which imports the generated module: the build imports this
// before that module exists.
import {
  DocumentError,
  createOperation,
  OPENAPI_PATH,
  operationsOf,
  readOpenApi,
  resolveReference,
  type OpenApiDocument,
} from '../../spec/openapi.js';
import { childPointer } from '../../spec/schema-keywords.js';
import { validatorModule, type ValidatorOptions } from '../../spec/validator.js';
import { NonIntegralNumber } from '../json/json.js';
import { findResources, type ResourceModel } from '../operations/resources.js';

/** The media type the server reads request bodies in (body.ts). */
const JSON_MEDIA_TYPE = 'application/json';

export const VALIDATOR_OPTIONS: ValidatorOptions = {
  // The JSON parser keeps a non-integral numeral whose double is an integer (1e-400) apart; it is still a number.
  numeral: (value) => (value instanceof NonIntegralNumber ? value.numeral : undefined),
  unknownKeywords: 'refuse',
};

/**
 * The text of the ES module holding the request-body validator of the
 * document at `specPath` (spec/validator.ts validatorModule), with the
 * document's text and the schema's pointer, which say when it applies.
 */
export function requestBodyValidatorModule(specPath: string = OPENAPI_PATH): string {
  const { document, source } = readOpenApi(specPath);
  const { schema, schemaPointer } = requestBodySchema(document);
  return [
    `// Generated at build time from ${JSON.stringify(specPath.split(/[\\/]/).pop())} (server/http/request-body.ts): do not edit.`,
    `export const source = ${JSON.stringify(source)};`,
    `export const schemaPointer = ${JSON.stringify(schemaPointer)};`,
    validatorModule(document, schema, schemaPointer, VALIDATOR_OPTIONS),
  ].join('\n');
}

/**
 * The plant resource's create operation (operations/resources.ts) and the
 * schema of its JSON request body; a DocumentError when there is none (the
 * message spec/operations.ts gives), or it has none.
 */
export function requestBodySchema(doc: OpenApiDocument, model?: ResourceModel) {
  const operations = operationsOf(doc);
  const found = model ?? findResources(doc, operations, { inferResources: true, inferReferences: false });
  const pointer0 =
    found === undefined ? undefined : [...found.plants.roles].find(([, { role }]) => role === 'create')?.[0];
  const { path, method, operation, pointer } = operations.find((op) => op.pointer === pointer0) ?? createOperation(doc);
  const bodyPointer = childPointer(pointer, 'requestBody');
  if (operation.requestBody === undefined)
    throw new DocumentError(bodyPointer, 'requestBody', `${method} ${path} declares no request body`);
  const { value: requestBody, pointer: requestBodyPointer } = resolveReference(doc, operation.requestBody, bodyPointer);
  const content = requestBody.content ?? {};
  const schemaPointer = childPointer(requestBodyPointer, 'content', JSON_MEDIA_TYPE, 'schema');
  const schema = content[JSON_MEDIA_TYPE]?.schema;
  if (schema === undefined)
    throw new DocumentError(
      childPointer(requestBodyPointer, 'content'),
      'content',
      `${method} ${path}: the server reads ${JSON_MEDIA_TYPE} request bodies, and the document declares no schema for one`,
    );
  return { path, method, operation, pointer, requestBody, content, schema, schemaPointer };
}
