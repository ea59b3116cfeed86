// Every operation the document declares, as the server serves it: the
// create operation (create.ts), the operations on the plant resource
// (resource.ts: the list, list.ts; read, replace, merge and delete, item.ts)
// and the others, answered from the document's examples (examples.ts). Each
// with what its pipeline needs (pipeline.ts): whether it requires
// credentials, its parameters' check, its body's media types, its declared
// responses (the stub's Prefer answers them) and its handler; and the line
// start.ts logs for it, saying how it is served.
import type { onRequestHookHandler } from 'fastify';
import {
  createOperation,
  operationsOf,
  resolveReference,
  type OpenApiDocument,
  type OperationLocation,
  type ResponseObject,
} from '../../spec/openapi.js';
import { childPointer } from '../../spec/schema-keywords.js';
import { schemaValidators, type SchemaValidators, type Validate } from '../../spec/validator.js';
import type { PlantChanges } from '../changes.js';
import { createHandler, type CreateRule } from '../create.js';
import type { OperationHandler } from '../pipeline.js';
import { VALIDATOR_OPTIONS } from '../request-body.js';
import type { PlantStore } from '../store.js';
import { documentSchemes, operationSecurity, type OperationSecurity } from '../security/schemes.js';
import type { OperationContract } from '../validation.js';
import { bodyRule, judgedBody, type BodyRule } from './body-rule.js';
import { exampleAnswer, exampleHandler, isJson } from './examples.js';
import { itemHandler, type SuccessAnswer } from './item.js';
import { listHandler, listRules, type ListInference } from './list.js';
import { checkParameters, parameterRules, pathPattern } from './parameters.js';
import { plantRoles, type PlantRole, type ResourceRole } from './resource.js';

/** The inferences PLANTSTORE_INFER switches: the resource's operations, and each rule of the list's parameters. */
export interface Inference extends ListInference {
  /** Operations on the plant resource are served from the store; off, every operation but create is answered from examples. */
  resource: boolean;
  /** An error body that is neither problem details nor the Error record is filled by its members' names (error-body.ts); off, it is the Error record. */
  errors: boolean;
}

export const ALL_INFERENCES: Inference = {
  resource: true,
  limit: true,
  offset: true,
  cursor: true,
  filter: true,
  errors: true,
};

export interface ServedOperation {
  method: string;
  /** The path template, as the document writes it. */
  path: string;
  /** The request paths the template stands for (parameters.ts, pathPattern). */
  pathPattern: RegExp;
  role: 'create' | PlantRole | 'example';
  /** How it is served, for the start-up log. */
  note: string;
  /** The credentials it requires (its own `security`, else the document's): alternatives, each of schemes all needed. */
  security: OperationSecurity;
  parameters: onRequestHookHandler | undefined;
  /** The request body's media types and whether they are JSON; undefined when it declares none. */
  body: { mediaTypes: string[]; json: boolean } | undefined;
  /** Its declared responses (the stub's Prefer answers them). */
  responses: Record<string, ResponseObject>;
  // The handler's input and result differ per operation; the pipeline keeps each handler's own together
  // (an existential type, which TypeScript spells with any).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  handler: OperationHandler<any, any>;
}

export interface ServeContext {
  contract: OperationContract;
  store: PlantStore;
  rule: CreateRule;
  changes: PlantChanges;
  inference: Inference;
}

/** Every operation of `doc`, served. */
export function servedOperations(doc: OpenApiDocument, context: ServeContext): ServedOperation[] {
  const operations = operationsOf(doc);
  const create = createOperation(doc);
  const roles = context.inference.resource ? plantRoles(doc, create, operations) : new Map<string, ResourceRole>();
  const schemes = documentSchemes(doc);
  // Compiled only when the document has more than the create operation's body: the shipped one starts as fast as before.
  let compiled: SchemaValidators | undefined;
  const validators = (): SchemaValidators => (compiled ??= schemaValidators(doc, VALIDATOR_OPTIONS));
  // Plant's validator, compiled once for every item operation.
  let plantValidator: Validate | undefined;
  const validatePlant = (): Validate =>
    (plantValidator ??= validators().compile(context.contract.plant.schema, context.contract.plant.pointer));
  return operations.map((operation): ServedOperation => {
    const responses = declaredResponses(doc, operation);
    const role = roles.get(operation.pointer);
    const parameters =
      operation.parameters.length === 0 ? [] : parameterRules(doc, operation, validators(), role?.idParameter);
    const common = {
      method: operation.method,
      path: operation.path,
      pathPattern: pathPattern(operation.path, parameters),
      security: operationSecurity(doc, operation, schemes),
      responses,
    };
    if (operation.pointer === create.pointer) {
      const { contract } = context;
      return {
        ...common,
        role: 'create',
        note: 'creates a plant in the store',
        parameters: checkParameters(parameters),
        body: { mediaTypes: contract.requestMediaTypes, json: true },
        handler: createHandler(context.rule, context.changes, successAnswer(doc, operation).status),
      };
    }
    const body = bodyRule(doc, operation, validators());
    const served = {
      ...common,
      parameters: checkParameters(parameters),
      body: body && { mediaTypes: body.mediaTypes, json: body.json },
    };
    const success = successAnswer(doc, operation);
    if (role?.role === 'list') {
      const rules = listRules(doc, success.schema, parameters, context.contract.plant, context.inference);
      if (!('unanswerable' in rules))
        return { ...served, role: 'list', note: listNote(rules), handler: listHandler(rules, context.store, success) };
      return asExample(
        doc,
        operation,
        served,
        body,
        validators(),
        `is not the plant list as served (${rules.unanswerable})`,
      );
    }
    if (role !== undefined && !(role.role === 'merge' && body === undefined)) {
      const { plant } = context.contract;
      return {
        ...served,
        // A replacement with no declared body is read as JSON, judged as a Plant.
        body: served.body ?? (role.role === 'replace' ? { mediaTypes: ['application/json'], json: true } : undefined),
        role: role.role,
        note: `${ITEM_NOTES[role.role]} the plant whose id is the path parameter ${role.idParameter} (found by ${role.by === 'links' ? "the create's links" : "the path's shape"})`,
        handler: itemHandler(role.role, {
          store: context.store,
          changes: context.changes,
          idParameter: role.idParameter!,
          success,
          plant,
          validatePlant: validatePlant(),
          body,
        }),
      };
    }
    return asExample(
      doc,
      operation,
      served,
      body,
      validators(),
      role === undefined ? 'is not on the plant resource' : 'merges with no declared request body',
    );
  });
}

const ITEM_NOTES: Record<Exclude<PlantRole, 'list'>, string> = {
  read: 'reads',
  replace: 'replaces',
  merge: 'merges a JSON Merge Patch (RFC 7396) into',
  delete: 'deletes',
};

function asExample(
  doc: OpenApiDocument,
  operation: OperationLocation,
  served: Omit<ServedOperation, 'role' | 'note' | 'handler'>,
  rule: BodyRule | undefined,
  validators: SchemaValidators,
  why: string,
): ServedOperation {
  const answer = exampleAnswer(doc, operation, validators);
  const note =
    'unavailable' in answer
      ? `${why}: answered 501, as ${answer.unavailable}`
      : `${why}: answered ${answer.status} ${answer.source === 'example' ? "with the document's example" : answer.source === 'schema' ? 'with a value made from its schema' : 'with no content'}, whatever the store holds`;
  return {
    ...served,
    role: 'example',
    note,
    handler: exampleHandler(answer, rule === undefined ? undefined : (request) => void judgedBody(request, rule)),
  };
}

function listNote(rules: Exclude<ReturnType<typeof listRules>, { unanswerable: string }>): string {
  const parts = [
    `lists the plants, oldest first, as ${rules.shape.kind === 'array' ? 'an array' : `a page object (${rules.shape.items})`}, at most ${rules.defaultLimit} a page unless asked for fewer`,
  ];
  if (rules.limit !== undefined) parts.push(`${rules.limit} bounds the page`);
  if (rules.offset !== undefined) parts.push(`${rules.offset} skips`);
  if (rules.cursor !== undefined) parts.push(`${rules.cursor} continues after a page`);
  if (rules.filters.length > 0)
    parts.push(`${rules.filters.join(', ')} ${rules.filters.length === 1 ? 'filters' : 'filter'}`);
  if (rules.unused.length > 0) parts.push(`${rules.unused.join(', ')} checked, with no effect`);
  return parts.join('; ');
}

function declaredResponses(doc: OpenApiDocument, operation: OperationLocation): Record<string, ResponseObject> {
  const responses: Record<string, ResponseObject> = {};
  for (const [status, response] of Object.entries(operation.operation.responses ?? {})) {
    responses[status] = resolveReference(doc, response, childPointer(operation.pointer, 'responses', status)).value;
  }
  return responses;
}

/** The lowest 2xx status the operation declares (200 when none), the Content-Type of its JSON content, and that content's schema. */
function successAnswer(doc: OpenApiDocument, operation: OperationLocation): SuccessAnswer & { schema: unknown } {
  const responses = operation.operation.responses ?? {};
  const key = Object.keys(responses)
    .filter((status) => /^2\d\d$/.test(status))
    .sort()[0];
  if (key === undefined) return { status: 200, contentType: 'application/json; charset=utf-8', schema: undefined };
  const { value: response } = resolveReference(
    doc,
    responses[key] as ResponseObject,
    childPointer(operation.pointer, 'responses', key),
  );
  const mediaType = Object.keys(response.content ?? {}).find(isJson);
  return {
    status: Number(key),
    contentType: mediaType === undefined ? undefined : `${mediaType}; charset=utf-8`,
    schema: mediaType === undefined ? undefined : response.content![mediaType]!.schema,
  };
}
