// The create operation ("Create plant"), found in the document alone: the
// operation with operationId createPlant, else the POST whose request body
// has a required integer property that identifies the plant (`id`, int64
// today). The create checks (PS-ACCEPT-*, PS-REJECT-*, …) exercise it; a
// document without one is still checked on its other operations, and every
// create check says why it skipped.
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

/** The name the identifying property has when several integers are required (the specification's `id`). */
export const ID_PROPERTY = 'id';

/** The required integer properties of an operation's request body: what could identify a plant. */
function requiredIntegers(doc: OpenApiDocument, op: OperationModel): string[] {
  if (!op.requestSchema) return [];
  return flattenObject(doc, op.requestSchema.schema, op.requestSchema.pointer)
    .fields.filter((f) => f.required && f.types.includes('integer'))
    .map((f) => f.name);
}

/** The create operation of the document, or why it has none. */
export function findCreate(
  doc: OpenApiDocument,
  operations: readonly OperationModel[],
): { create: CreateModel } | { missing: string } {
  let candidate = operations.find((op) => op.operationId === CREATE_OPERATION_ID);
  if (!candidate) {
    const posts = operations.filter((op) => op.method === 'POST' && requiredIntegers(doc, op).length > 0);
    const withId = posts.filter((op) => requiredIntegers(doc, op).includes(ID_PROPERTY));
    const chosen = withId.length > 0 ? withId : posts;
    if (chosen.length === 0)
      return {
        missing: `no operation has operationId ${CREATE_OPERATION_ID}, and no POST takes a body with a required integer property that could identify a plant`,
      };
    if (chosen.length > 1)
      return {
        missing: `no operation has operationId ${CREATE_OPERATION_ID}, and ${chosen.length} POST operations (${chosen.map((op) => op.path).join(', ')}) take a body with a required integer ${ID_PROPERTY}: the harness cannot tell which creates a plant`,
      };
    candidate = chosen[0]!;
  }
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
      missing: `${candidate.method} ${candidate.path} creates plants but declares no ${lacks.join(', no ')}, which the create checks grade by`,
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

/** Whether the create's error record is what the document declares for a refusal with `status` (its own status, its range, or `default` where nothing else covers it). */
export function errorCovers(create: CreateModel, status: number): boolean {
  return status >= 400 && status < 500 && declaredResponse(create, status) === create.error;
}

/** The statuses the error record stands for, in words: "400", "a 4xx", "a 4xx (the default response)". */
export function errorStatusText(error: ResponseModel): string {
  if (/^\d{3}$/.test(error.status)) return error.status;
  return error.status === 'default' ? 'a 4xx (the default response)' : `a ${error.status.toLowerCase()}`;
}
