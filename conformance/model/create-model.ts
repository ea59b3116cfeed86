// A create operation as the create checks read it, and whether a POST is one
// (resource.ts finds every collection's; spec-model.ts picks the one the
// create checks, PS-ACCEPT-*, PS-REJECT-*, …, exercise: operationId
// createPlant, else the first in the document that needs no other item
// first). A document without one is still checked on its other operations,
// and every create check says why it skipped.
import { CREATE_OPERATION_ID, type OpenApiDocument } from '../../spec/openapi.js';
import {
  declaredResponse,
  refName,
  type OperationModel,
  type ResponseModel,
  type Validator,
} from './operation-model.js';
import { flattenObject, type ObjectModel } from './schema-shape.js';

export interface CreateModel extends OperationModel {
  requestSchemaName: string;
  requestSchema: { schema: unknown; pointer: string };
  request: ObjectModel;
  validateRequest: Validator;
  /** The declared success response (the lowest 2xx). */
  success: ResponseModel;
  /** The declared error response: the lowest 4xx, else the 4XX range, else `default` (errorCovers says which statuses it stands for). */
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
  // A document that declares its refusals only as a range or as `default` (OpenAPI 3.1 §4.8.16.2) has that error record.
  const error = statuses.find((s) => s.startsWith('4')) ?? (statuses.includes('default') ? 'default' : undefined);
  const lacks = [
    !candidate.requestSchema || !candidate.validateRequest ? 'a request body schema' : undefined,
    success === undefined ? 'a 2xx response' : undefined,
    error === undefined ? 'a 4xx or default response' : undefined,
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

/** Whether the create's error record is what the document declares for a refusal with `status` (its own status, its range, or `default` where nothing else covers it). */
export function errorCovers(create: CreateModel, status: number): boolean {
  return status >= 400 && status < 500 && declaredResponse(create, status) === create.error;
}

/** The statuses the error record stands for, in words: "400", "a 4xx", "a 4xx (the default response)". */
export function errorStatusText(error: ResponseModel): string {
  if (/^\d{3}$/.test(error.status)) return error.status;
  return error.status === 'default' ? 'a 4xx (the default response)' : `a ${error.status.toLowerCase()}`;
}
