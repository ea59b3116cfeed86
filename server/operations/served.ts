// Every operation the document declares, as the server serves it: the
// operations on the resources (resources.ts): creates (create-item.ts),
// lists (list.ts), reads, replaces, merges and deletes (item.ts); and the
// others, answered from the document's examples (examples.ts). Each with
// what its pipeline needs (pipeline.ts): whether it requires credentials,
// its parameters' check, its body's media types, its declared responses
// (the stub's Prefer answers them) and its handler; and the line start.ts
// logs for it, saying how it is served, with what of it the server does not
// serve (served-notes.ts).
import type { onRequestHookHandler } from 'fastify';
import { operationsOf, type OpenApiDocument, type OperationLocation, type ResponseObject } from '../../spec/openapi.js';
import { schemaValidators, type SchemaValidators } from '../../spec/validator.js';
import type { PlantChanges } from '../changes.js';
import { createRule, type CreateRule } from './create.js';
import type { OperationHandler } from '../http/pipeline.js';
import { VALIDATOR_OPTIONS } from '../http/request-body.js';
import type { PlantStore } from '../store/store.js';
import { documentSchemes, operationSecurity, type OperationSecurity } from '../security/schemes.js';
import type { OperationContract } from '../http/validation.js';
import { bodyRule, judgedBody, type BodyRule } from './body-rule.js';
import { entityTag as entityTagOf } from './conditional.js';
import { createHandler } from './create-item.js';
import { exampleAnswer, exampleHandler } from './examples.js';
import { IDEMPOTENCY_HEADER, IdempotencyKeys, idempotentHandler } from './idempotency.js';
import { itemHandler } from './item.js';
import { itemKind, type ItemKind } from './item-kind.js';
import { listHandler, listRules, type ListInference } from './list.js';
import { checkParameters, parameterRules, pathPattern } from './parameters.js';
import { nestedIn, resourcePlaces, type ResourcePlaces } from './places.js';
import { referenceCheck } from './resource-references.js';
import type { ResourceModel, ResourceRole } from './resources.js';
import {
  answerHeaders,
  createNote,
  declaredResponses,
  exampleNote,
  itemNote,
  listNote,
  successAnswer,
  type Unserved,
} from './served-notes.js';

export type { Unserved } from './served-notes.js';

/** The inferences PLANTSTORE_INFER switches: the resources' operations, the list's parameters and headers, references by name. */
export interface Inference extends ListInference {
  /** Operations on the resources are served from the store; off, every operation but the plant resource's create is answered from examples. */
  resource: boolean;
  /** A body member named after another resource and `id` (`plantId`) names one of its items. */
  reference: boolean;
  /** An `Idempotency-Key` request header keeps the first answer to a key and replays it (idempotency.ts). */
  idempotency: boolean;
  /** An error body that is neither problem details nor the Error record is filled by its members' names (error-body.ts); off, it is the Error record. */
  errors: boolean;
}

export const ALL_INFERENCES: Inference = {
  resource: true,
  limit: true,
  offset: true,
  page: true,
  cursor: true,
  filter: true,
  sort: true,
  total: true,
  reference: true,
  idempotency: true,
  errors: true,
};

export interface ServedOperation {
  method: string;
  /** The path template, as the document writes it. */
  path: string;
  /** The request paths the template stands for (parameters.ts, pathPattern). */
  pathPattern: RegExp;
  role: ResourceRole | 'example';
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
  model: ResourceModel;
  store: PlantStore;
  changes: PlantChanges;
  inference: Inference;
  /** The store is shared by several processes (a database): the idempotency keys, kept by each process, are named at start. */
  sharedStore?: boolean;
}

export interface Served {
  operations: ServedOperation[];
  /** The plant resource's create rule (the initial plants and the stub's controls store with it). */
  plants: CreateRule;
  /** What each resource's items are, by its key. */
  kinds: ReadonlyMap<string, ItemKind>;
  /** What the server does not serve as the document says, per operation and feature (start.ts names each; a strict start refuses them). */
  unserved: Unserved[];
}

/** Every operation of `doc`, served. */
export function servedOperations(doc: OpenApiDocument, context: ServeContext): Served {
  const operations = operationsOf(doc);
  const { model, store, changes, inference } = context;
  const schemes = documentSchemes(doc);
  // Compiled only when the document has more than the create operation's body: the shipped one starts as fast as before.
  let compiled: SchemaValidators | undefined;
  const validators = (): SchemaValidators => (compiled ??= schemaValidators(doc, VALIDATOR_OPTIONS));
  const kinds = new Map<string, { kind: ItemKind; rule: CreateRule; places: ResourcePlaces }>();
  for (const resource of model.resources) {
    const kind = itemKind(doc, resource, context.contract, validators);
    const create = operations.find((op) => resource.roles.get(op.pointer)?.role === 'create');
    const conflict = create !== undefined && '409' in (create.operation.responses ?? {}) ? 409 : 400;
    kinds.set(resource.key, {
      kind,
      rule: createRule(kind, store, conflict),
      places: resourcePlaces(resource, store, nestedIn(resource, model.resources)),
    });
  }
  const unserved: Unserved[] = [];
  const keys = new IdempotencyKeys();
  const served = operations.map((operation): ServedOperation => {
    const made = serve(operation);
    if (!inference.idempotency || !operation.parameters.some(({ parameter }) => isIdempotencyKey(parameter)))
      return made;
    if (context.sharedStore)
      unserved.push({
        operation: `${operation.method} ${operation.path}`,
        feature: 'the request header Idempotency-Key',
        reason: 'keys are kept by each server process: a retry that reaches another replica is done again',
      });
    const named = `${operation.method} ${operation.path}`;
    return {
      ...made,
      note: `${made.note}; Idempotency-Key replays the first answer to a key`,
      handler: idempotentHandler(made.handler, keys, named, made.responses),
    };
  });
  const itemKinds = new Map([...kinds].map(([key, { kind }]) => [key, kind]));
  return { operations: served, plants: kinds.get('')!.rule, kinds: itemKinds, unserved };

  function serve(operation: OperationLocation): ServedOperation {
    const named = `${operation.method} ${operation.path}`;
    const responses = declaredResponses(doc, operation);
    const found = model.resources.find((resource) => resource.roles.has(operation.pointer));
    const role = found?.roles.get(operation.pointer);
    const parameters =
      operation.parameters.length === 0
        ? []
        : parameterRules(doc, operation, validators(), {
            int64: found === undefined ? [] : int64Parameters(found, role?.role),
            optionalConditions: '428' in responses,
          });
    const body = bodyRule(doc, operation, validators());
    const common = {
      method: operation.method,
      path: operation.path,
      pathPattern: pathPattern(operation.path, parameters),
      security: operationSecurity(doc, operation, schemes),
      responses,
      parameters: checkParameters(parameters),
      body: body && { mediaTypes: body.mediaTypes, json: body.json },
    };
    const report = (feature: string, reason: string) => unserved.push({ operation: named, feature, reason });
    for (const { parameter } of operation.parameters)
      if (parameter.in === 'cookie') report(`the cookie parameter ${parameter.name}`, 'cookie parameters are not read');
    /** The operation answered from its document's examples, saying why it is not served. */
    const example = (why: string) => asExample(doc, operation, common, body, validators(), why, report);
    if (found === undefined || role === undefined || (role.role === 'merge' && body === undefined))
      return example(found === undefined ? 'is on no resource' : 'merges with no declared request body');
    const { kind, rule, places } = kinds.get(found.key)!;
    const success = successAnswer(doc, operation);
    const checkReferences =
      found.references.length === 0 ? undefined : referenceCheck(found.references, store, responses);
    const declaredTypes = Object.keys(success.response?.content ?? {});
    if (declaredTypes.length > 0 && success.contentType === undefined)
      report(`its answer's media type (${declaredTypes.join(', ')})`, 'the server answers JSON');
    // The list's headers are its rules' (list-rules.ts).
    if (role.role !== 'list')
      for (const header of answerHeaders(success.response, ['location', 'etag'], doc).unsent)
        report(`the response header ${header}`, 'the server does not make it');
    switch (role.role) {
      case 'create': {
        if (kind.ids !== undefined && 'unmakeable' in kind.ids) report('ids the server picks', kind.ids.unmakeable);
        if (found.id.unkept !== undefined)
          report(`${found.id.unkept} the id's schema accepts`, 'ids are kept as integers: it is refused with 400');
        const sent = answerHeaders(success.response, ['location', 'etag'], doc).sent;
        return {
          ...common,
          body: { mediaTypes: body?.mediaTypes ?? context.contract.requestMediaTypes, json: true },
          role: 'create',
          note: createNote(found, kind, sent),
          handler: createHandler(rule, changes, {
            status: success.status,
            places,
            checkReferences,
            headers: createHeaders(found, sent),
          }),
        };
      }
      case 'list': {
        const rules = listRules(doc, success, parameters, kind.shape, inference);
        if ('unanswerable' in rules) return example(`is not the list as served (${rules.unanswerable})`);
        for (const name of rules.unused) report(`the query parameter ${name}`, 'it is checked, and has no effect');
        for (const header of rules.unsentHeaders)
          report(`the response header ${header}`, 'the server does not make it');
        if (rules.unsentHalNext !== undefined) report('its HAL next link', rules.unsentHalNext);
        return { ...common, role: 'list', note: listNote(found, rules), handler: listHandler(rules, places, success) };
      }
      default: {
        const creates = role.role === 'replace' && '201' in responses ? { status: 201 } : undefined;
        return {
          ...common,
          // A replacement with no declared body is read as JSON, judged as the item.
          body: common.body ?? (role.role === 'replace' ? { mediaTypes: ['application/json'], json: true } : undefined),
          role: role.role,
          note: itemNote(found, role.role, role.by, creates !== undefined),
          handler: itemHandler(role.role, {
            changes,
            places,
            idParameter: found.idParameter!,
            success,
            kind,
            body,
            creates,
            checkReferences,
            preconditionRequired: '428' in responses,
            sendsEtag: answerHeaders(success.response, ['etag'], doc).sent.includes('etag'),
          }),
        };
      }
    }
  }
}

function isIdempotencyKey(parameter: { in: string; name: string }): boolean {
  return parameter.in === 'header' && parameter.name.toLowerCase() === IDEMPOTENCY_HEADER;
}

/** The path parameters read as an exact int64: the item's integer id, and the integer ids of the parents it is under. */
function int64Parameters(resource: ResourceModel['resources'][number], role: ResourceRole | undefined): string[] {
  const names: string[] = [];
  for (let at: typeof resource | undefined = resource; at !== undefined; at = at.parent) {
    if (
      at.idParameter !== undefined &&
      at.id.kind === 'integer' &&
      (at !== resource || (role !== 'create' && role !== 'list'))
    )
      names.push(at.idParameter);
  }
  return names;
}

/** The Location and ETag a create's answer carries, where its success declares them. */
function createHeaders(
  resource: ResourceModel['resources'][number],
  sent: readonly string[],
): ((entry: { id: string; json: string }, place: { parent: string }) => Record<string, string>) | undefined {
  if (sent.length === 0) return undefined;
  const location = sent.includes('location') && resource.itemPath !== undefined;
  const etag = sent.includes('etag');
  return (entry, place) => {
    const headers: Record<string, string> = {};
    if (location) headers.location = itemLocation(resource, place.parent, entry.id);
    if (etag) headers.etag = entityTagOf(entry.json);
    return headers;
  };
}

/** The item's path (RFC 9110 §10.2.2: a URI reference, here an absolute path): the item path with the parent's values and the id in it. */
function itemLocation(resource: ResourceModel['resources'][number], parent: string, id: string): string {
  const values = parent.split('/').slice(1);
  let at = 0;
  return resource.itemPath!.replace(/\{([^{}/]+)\}/g, (_, name: string) =>
    name === resource.idParameter ? encodeURIComponent(id) : (values[at++] ?? ''),
  );
}

function asExample(
  doc: OpenApiDocument,
  operation: OperationLocation,
  served: Omit<ServedOperation, 'role' | 'note' | 'handler'>,
  rule: BodyRule | undefined,
  validators: SchemaValidators,
  why: string,
  report: (feature: string, reason: string) => void,
): ServedOperation {
  const answer = exampleAnswer(doc, operation, validators);
  const note = exampleNote(why, answer);
  report('its answer', `${why}: answered from the document, whatever the store holds`);
  return {
    ...served,
    role: 'example',
    note,
    handler: exampleHandler(answer, rule === undefined ? undefined : (request) => void judgedBody(request, rule)),
  };
}
