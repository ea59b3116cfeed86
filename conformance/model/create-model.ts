// A create operation as the create checks read it, and whether a POST is one
// (resource.ts finds every collection's; spec-model.ts picks the one the
// create checks, PS-ACCEPT-*, PS-REJECT-*, …, exercise: operationId
// createPlant, else the first in the document that needs no other item
// first). A document without one is still checked on its other operations,
// and every create check says why it skipped.
import { CREATE_OPERATION_ID, type OpenApiDocument } from '../../spec/openapi.js';
import { refName, type OperationModel, type ResponseModel, type Validator } from './operation-model.js';
import { flattenObject, type ObjectModel } from './schema-shape.js';

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

/** The required integer properties of an operation's request body: what could identify a plant. */
function requiredIntegers(doc: OpenApiDocument, op: OperationModel): string[] {
  if (!op.requestSchema) return [];
  return flattenObject(doc, op.requestSchema.schema, op.requestSchema.pointer)
    .fields.filter((f) => f.required && f.types.includes('integer'))
    .map((f) => f.name);
}

/** A create operation as the create checks read it (its request, answer and statuses), or why it cannot be one. */
export function createModelOf(
  doc: OpenApiDocument,
  candidate: OperationModel,
): { create: CreateModel } | { missing: string } {
  const statuses = [...candidate.responses.keys()].sort();
  const success = statuses.find((s) => s.startsWith('2'));
  const error = statuses.find((s) => s.startsWith('4'));
  const lacks = [
    !candidate.requestSchema || !candidate.validateRequest ? 'a request body schema' : undefined,
    success === undefined ? 'a 2xx response' : undefined,
    error === undefined ? 'a 4xx response' : undefined,
  ].filter(Boolean);
  if (lacks.length > 0)
    return {
      missing: `${candidate.method} ${candidate.path} creates items but declares no ${lacks.join(', no ')}, which the create checks grade by`,
    };
  const requestSchema = candidate.requestSchema!;
  const successModel = candidate.responses.get(success!)!;
  return {
    create: {
      ...candidate,
      requestSchema,
      validateRequest: candidate.validateRequest!,
      requestSchemaName: refName(requestSchema.schema) ?? '(inline)',
      request: flattenObject(doc, requestSchema.schema, requestSchema.pointer),
      success: successModel,
      error: candidate.responses.get(error!)!,
      answer: successModel.schema
        ? flattenObject(doc, successModel.schema.schema, successModel.schema.pointer)
        : { fields: [], required: [], additionalProperties: true, patterns: [] },
    },
  };
}

/**
 * Whether a POST creates items of a collection: its path ends in a literal
 * segment and it takes a body, and the document says so one way or another:
 * operationId createPlant, a required integer member (the starter's id), an
 * item path beside it, a GET that lists it, or a declared 201 (RFC 9110
 * §15.3.2: "one or more new resources have been created").
 */
export function createsItems(doc: OpenApiDocument, op: OperationModel, operations: readonly OperationModel[]): boolean {
  if (op.operationId === CREATE_OPERATION_ID) return true;
  if (op.method !== 'POST' || op.requestBodies.length === 0 || /\}$/.test(op.path)) return false;
  const prefix = op.path.endsWith('/') ? op.path : `${op.path}/`;
  const hasItem = operations.some(
    (o) => o.path.startsWith(prefix) && /^\{[^{}/]+\}$/.test(o.path.slice(prefix.length)),
  );
  const hasList = operations.some((o) => o.path === op.path && o.method === 'GET');
  return requiredIntegers(doc, op).length > 0 || hasItem || hasList || op.responses.has('201');
}
