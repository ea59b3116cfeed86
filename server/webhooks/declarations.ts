// The document's webhooks (OpenAPI 3.1 `webhooks:`), as the server sends
// them: each operation of each webhook, the event it describes, the media
// type and the schema of its body. Which event a webhook describes is read
// from the document (docs/stub.md, "Which event a webhook describes"):
//
//   its words      its name, summary, description and operationId name one
//                  event ("new", "added", "created"; "updated", "replaced";
//                  "deleted", "removed") and the item (its words say
//                  "plant", or its body is the create's request body or
//                  the Plant)
//   its body       else, a body whose schema is the create operation's
//                  request body (NewPlant) describes a plant created
//
// and of which resource (operations/resources.ts): the one whose create's
// request body or item its body is, else the one whose noun its words name
// (`orderCreated`: the orders), else the plant resource.
//
// PLANTSTORE_WEBHOOK_EVENTS (the switch) replaces the inference: then only
// the webhooks it names are tied, each to the event it says. A webhook that
// is tied to no event is sent never, and named at start-up with the reason.
import { isDeepStrictEqual } from 'node:util';
import { mediaTypeEssence } from '../../lib/http-syntax.js';
import {
  HTTP_METHODS,
  resolveReference,
  type OpenApiDocument,
  type OperationObject,
  type PathItemObject,
} from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import { describeViolation, schemaValidators } from '../../spec/validator.js';
import type { PlantChangeEvent } from '../changes.js';
import type { JsonValue } from '../json/json.js';
import { requestBodySchema, VALIDATOR_OPTIONS } from '../http/request-body.js';
import type { OperationContract } from '../http/validation.js';

/** The events a webhook may describe; `updated` is a plant replaced or merged. */
export const WEBHOOK_EVENTS = ['created', 'updated', 'deleted'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The committed changes (changes.ts) each event is: a webhook describing it is sent after each of them. */
export const CHANGES_OF: Record<WebhookEvent, readonly PlantChangeEvent[]> = {
  created: ['created'],
  updated: ['replaced', 'merged'],
  deleted: ['deleted'],
};

/** A resource whose changes a webhook may describe, as the webhooks see it. */
export interface WebhookResource {
  /** Its store key ('' for the plant resource). */
  key: string;
  noun: string;
  /** Its create's request body schema, and its item's (a webhook whose body is one of them describes this resource). */
  createBody: Located | undefined;
  item: Located;
  /** The delivery body's id member, and how the id is written (an integer's digits, a string quoted). */
  idMember: string;
  idKind: 'integer' | 'string';
  /** Whether the item's stored text holds the id member (then the body does not repeat it). */
  storesId: boolean;
  /** The create body's violations, where the webhook's body is it. */
  validateCreate: ((body: unknown) => string[]) | undefined;
}

export interface WebhookDeclaration {
  /** Its key under `webhooks:`. */
  name: string;
  /** The resource whose changes it describes. */
  resource: WebhookResource;
  /** Upper case, e.g. POST. */
  method: string;
  /** Where its operation is in the document. */
  pointer: string;
  /** The event it is sent for; undefined when it is tied to none (then `reason` says why). */
  event: WebhookEvent | undefined;
  /** Why it is tied to its event, or to none. */
  reason: string;
  /** The JSON media type its body is declared with, sent as Content-Type. */
  mediaType: string | undefined;
  /** The violations of its declared body schema by `body`; [] when valid. */
  validate(body: unknown): string[];
}

/** The switch: webhook names tied to an event, or 'none'; undefined infers from the document. */
export type WebhookTies = ReadonlyMap<string, WebhookEvent | 'none'>;

/** The words that name each event, matched whole, case aside. */
const EVENT_WORDS: Record<WebhookEvent, RegExp> = {
  created: /^(new|adds?|added|creat(e|es|ed|ion)|insert(s|ed)?|register(s|ed)?)$/,
  updated: /^(updat(e|es|ed)|chang(e|es|ed)|modif(y|ies|ied)|replac(e|es|ed)|edit(s|ed)?|patch(es|ed)?)$/,
  deleted: /^(delet(e|es|ed|ion)|remov(e|es|ed|al))$/,
};

/**
 * Each operation of each webhook of the document, with its resource and its
 * event; throws a ConfigError-like Error (from `refuse`) for a tie naming no
 * webhook. `resources` are the document's, the plant resource first (by
 * default the plant resource alone, as the contract names it).
 */
export function readWebhooks(
  document: OpenApiDocument,
  contract: OperationContract,
  ties: WebhookTies | undefined,
  refuse: (message: string) => Error,
  resources: readonly WebhookResource[] = [plantResource(document, contract)],
): WebhookDeclaration[] {
  const webhooks = (document as { webhooks?: unknown }).webhooks;
  const declarations: WebhookDeclaration[] = [];
  if (ties !== undefined) {
    for (const name of ties.keys()) {
      if (!isSchemaObject(webhooks) || !(name in webhooks))
        throw refuse(
          `PLANTSTORE_WEBHOOK_EVENTS names the webhook ${JSON.stringify(name)}, which the document does not declare`,
        );
    }
  }
  if (!isSchemaObject(webhooks)) return declarations;
  const located = ({ value, pointer }: Located) => resolveReference(document, value, pointer);
  let compiler: ReturnType<typeof schemaValidators> | undefined;
  const compiledCheck = ({ value, pointer }: Located) => {
    compiler ??= schemaValidators(document, VALIDATOR_OPTIONS);
    const check = compiler.compile(value, pointer);
    return (body: unknown) => check(body).map((violation) => describeViolation(violation));
  };
  for (const [name, raw] of Object.entries(webhooks)) {
    const { value: item, pointer: itemPointer } = resolveReference(
      document,
      raw as PathItemObject,
      childPointer('#/webhooks', name),
    );
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isSchemaObject(operation)) continue;
      const pointer = childPointer(itemPointer, method);
      const body = jsonBody(document, operation, pointer);
      const schema = body.schema;
      const byCreate =
        schema === undefined
          ? undefined
          : resources.find(({ createBody }) => createBody !== undefined && isSameSchema(schema, located(createBody)));
      const byItem =
        schema === undefined || byCreate !== undefined
          ? undefined
          : resources.find(({ item }) => isSameSchema(schema, located(item)));
      const resource = byCreate ?? byItem ?? namedResource(name, operation, resources) ?? resources[0]!;
      const sameSchema = byCreate !== undefined;
      const plantBody = byItem !== undefined;
      const tie =
        ties === undefined
          ? inferEvent(name, operation, { noun: resource.noun, createBody: sameSchema, plantBody })
          : chosen(ties.get(name));
      const untied = body.problem ?? (tie.event === undefined ? tie.reason : undefined);
      // Compiled now: a schema the server cannot check stops the start, not a delivery.
      const validate =
        untied !== undefined
          ? () => [untied]
          : sameSchema && resource.validateCreate !== undefined
            ? resource.validateCreate
            : compiledCheck(body.schema!);
      declarations.push({
        name,
        resource,
        method: method.toUpperCase(),
        pointer,
        event: untied === undefined ? tie.event : undefined,
        reason: untied ?? tie.reason,
        mediaType: body.mediaType,
        validate,
      });
    }
  }
  return declarations;
}

/** The switch's tie for one webhook: its event, or none (named or not, it is then not sent). */
function chosen(tie: WebhookEvent | 'none' | undefined): { event: WebhookEvent | undefined; reason: string } {
  if (tie === undefined || tie === 'none')
    return { event: undefined, reason: 'PLANTSTORE_WEBHOOK_EVENTS ties it to no event' };
  return { event: tie, reason: `PLANTSTORE_WEBHOOK_EVENTS ties it to ${tie}` };
}

interface InferenceContext {
  /** The plant's name in the document's words: "plant" for /plants. */
  noun: string;
  /** The webhook's body schema is the create's request body schema. */
  createBody: boolean;
  /** The webhook's body schema is the Plant (the create's answer). */
  plantBody: boolean;
}

/** The event a webhook operation describes, read from its words and its body (see the top of this file), with the reason in words. */
export function inferEvent(
  name: string,
  operation: Pick<OperationObject, 'operationId'> & { summary?: unknown; description?: unknown },
  context: InferenceContext,
): { event: WebhookEvent | undefined; reason: string } {
  const fields: Array<[string, unknown]> = [
    ['name', name],
    ['summary', operation.summary],
    ['description', operation.description],
    ['operationId', operation.operationId],
  ];
  const said = new Map<WebhookEvent, string[]>();
  let aboutPlant = context.createBody || context.plantBody;
  for (const [field, text] of fields) {
    if (typeof text !== 'string') continue;
    for (const word of wordsOf(text)) {
      if (word === context.noun || word === `${context.noun}s`) aboutPlant = true;
      for (const type of WEBHOOK_EVENTS) {
        if (EVENT_WORDS[type].test(word)) said.set(type, [...(said.get(type) ?? []), `"${word}" (${field})`]);
      }
    }
  }
  const body = context.createBody ? "its body is the create operation's request body" : undefined;
  const named = [...said.keys()];
  if (named.length === 1 && aboutPlant) {
    const type = named[0]!;
    return {
      event: type,
      reason: [`its words say ${type}: ${said.get(type)!.join(', ')}`, body].filter(Boolean).join('; '),
    };
  }
  if (context.createBody && (named.length === 0 || named.includes('created'))) {
    return {
      event: 'created',
      reason:
        named.length === 0
          ? `${body}, and its words name no event`
          : `${body}, and its words name several events (${named.join(', ')})`,
    };
  }
  if (named.length === 0)
    return {
      event: undefined,
      reason: `its words name no event (created: "new", "added", ...; updated; deleted) and its body is not the create operation's request body`,
    };
  if (!aboutPlant)
    return {
      event: undefined,
      reason: `its words name ${named.join(', ')} but not the ${context.noun}, and its body is neither the create operation's request body nor the ${context.noun}`,
    };
  return { event: undefined, reason: `its words name several events (${named.join(', ')})` };
}

/** The words of a text, lower case: split at anything not a letter and where a lower-case letter meets an upper-case one (plantCreated). */
function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word) => word !== '');
}

/** The plant resource as the contract names it: what the webhooks describe when the document has no other. */
function plantResource(document: OpenApiDocument, contract: OperationContract): WebhookResource {
  const create = requestBodySchema(document);
  return {
    key: '',
    noun: resourceNoun(contract.path),
    createBody: { value: create.schema, pointer: create.schemaPointer },
    item: { value: { $ref: contract.plant.pointer }, pointer: contract.plant.pointer },
    idMember: 'id',
    idKind: 'integer',
    storesId: contract.plant.keeps('id'),
    validateCreate: (value) => contract.validateRequestBody(value as JsonValue),
  };
}

/** The resource whose noun the webhook's words name (its name, summary, description, operationId), where one does. */
function namedResource(
  name: string,
  operation: { operationId?: unknown; summary?: unknown; description?: unknown },
  resources: readonly WebhookResource[],
): WebhookResource | undefined {
  const words = new Set(
    [name, operation.summary, operation.description, operation.operationId]
      .filter((text): text is string => typeof text === 'string')
      .flatMap(wordsOf),
  );
  return resources.find(({ noun }) => words.has(noun) || words.has(`${noun}s`));
}

/** The plant's noun, from the collection path: its last literal segment in the singular (/plants: plant). */
function resourceNoun(path: string): string {
  const segment =
    path
      .split('/')
      .filter((part) => part !== '' && !part.startsWith('{'))
      .at(-1) ?? 'plant';
  const word = wordsOf(segment).at(-1) ?? 'plant';
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

type Located = { value: unknown; pointer: string };

/** The JSON body a webhook operation declares: its media type and schema, or why the server cannot send it. */
function jsonBody(
  document: OpenApiDocument,
  operation: OperationObject,
  pointer: string,
): { mediaType?: string; schema?: Located; problem?: string } {
  if (operation.requestBody === undefined) return { problem: 'it declares no request body' };
  const { value: requestBody, pointer: bodyPointer } = resolveReference(
    document,
    operation.requestBody,
    childPointer(pointer, 'requestBody'),
  );
  const content = isSchemaObject(requestBody.content) ? requestBody.content : {};
  const mediaType = Object.keys(content).find((type) => isJsonMediaType(type));
  if (mediaType === undefined)
    return {
      problem: `it declares no JSON body (${Object.keys(content).join(', ') || 'no media type'}): the server sends JSON`,
    };
  const schema = content[mediaType]?.schema;
  if (schema === undefined) return { mediaType, problem: `its body (${mediaType}) has no schema` };
  return {
    mediaType,
    schema: resolveReference(document, schema, childPointer(bodyPointer, 'content', mediaType, 'schema')),
  };
}

function isJsonMediaType(type: string): boolean {
  const essence = mediaTypeEssence(type);
  return essence === 'application/json' || (essence?.endsWith('+json') ?? false);
}

/** Two schemas (their references followed) are one when they are at one place, or written alike. */
function isSameSchema(one: Located, other: Located): boolean {
  return one.pointer === other.pointer || isDeepStrictEqual(one.value, other.value);
}
