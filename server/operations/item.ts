// The operations on one plant (RFC 9110 §9.3), each as handler steps of the
// pipeline (pipeline.ts): read (GET), replace (PUT), merge (PATCH, RFC 7396)
// and delete (DELETE). The plant is the one whose id the path's id
// parameter names (read exactly by the stage `parameters`); one that is not
// stored is 404 with the Error record (RFC 9110 §15.5.5). A change that
// commits is told to the change feed (changes.ts) before it is answered.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Validate } from '../../spec/validator.js';
import type { ParsedBody } from '../body.js';
import type { PlantChangeEvent, PlantChanges } from '../changes.js';
import { ApiError } from '../errors.js';
import { NonIntegralNumber, parseJson, type JsonObject, type JsonValue } from '../json.js';
import type { OperationHandler } from '../pipeline.js';
import type { MaybePromise, PlantStore, UpdateResult } from '../store.js';
import { storedPlantText } from '../stored-plant.js';
import { describe, type PlantShape } from '../validation.js';
import { judgedBody, type BodyRule } from './body-rule.js';
import { mergePatch } from './merge-patch.js';
import { ID_PROPERTY, type PlantRole } from './resource.js';

/** An operation's success answer: its status, and its Content-Type when the document declares content for it. */
export interface SuccessAnswer {
  status: number;
  contentType: string | undefined;
}

export interface ItemContext {
  store: PlantStore;
  changes: PlantChanges;
  /** The path parameter that carries the id. */
  idParameter: string;
  success: SuccessAnswer;
  /** What the stored plant keeps of a body (the properties Plant declares), and Plant's validator. */
  plant: PlantShape;
  validatePlant: Validate;
  /** The request body's rule (replace, merge); a replace without one judges the body as a Plant. */
  body: BodyRule | undefined;
}

type ItemHandler = OperationHandler<
  { id: string; text?: string; patch?: ParsedBody },
  // A read's stored text (or undefined) and an update's outcome ('missing' and 'full' among them) share the result.
  // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents
  string | UpdateResult | undefined
>;

/** The handler of an operation on one plant. */
export function itemHandler(role: Exclude<PlantRole, 'list'>, context: ItemContext): ItemHandler {
  const { store, changes, success } = context;
  // A replacement is judged by its declared schema, else as a Plant.
  const replacement: BodyRule =
    context.body?.validate !== undefined
      ? context.body
      : {
          mediaTypes: [],
          json: true,
          required: true,
          ...context.body,
          validate: context.validatePlant,
          named: 'Plant',
        };
  // The id parameter is read as an exact int64 (parameters.ts): a number, or a bigint beyond 2^53.
  const idOf = (request: FastifyRequest): string =>
    (request.parameterValues!.path[context.idParameter] as number | bigint).toString();
  const committed = (event: PlantChangeEvent, id: string, json: string) => changes.committed({ event, id, json });
  // Said as the app is built, so that a listener (the webhooks) can name at start what is never told.
  const TOLD = { replace: 'replaced', merge: 'merged', delete: 'deleted' } as const;
  if (role !== 'read') changes.tells(TOLD[role]);
  const send = (reply: FastifyReply, json: string): FastifyReply => {
    reply.code(success.status);
    return success.contentType === undefined ? reply.send() : reply.type(success.contentType).send(json);
  };
  switch (role) {
    case 'read':
      return {
        schema: (request) => ({ id: idOf(request) }),
        store: ({ id }) => store.read(id),
        answer: ({ id }, json, reply) => send(reply, found(id, json as string | undefined)),
      };
    case 'replace':
      return {
        schema(request) {
          const id = idOf(request);
          const body = judgedBody(request, replacement, true)!;
          if (!isObject(body.value))
            throw new ApiError('INVALID_BODY', 'Request body is not a valid Plant: it must be a JSON object.');
          checkSameId(body.value, id);
          return { id, text: storedPlantText(context.plant, body.value, { sent: body, at: 0 }) };
        },
        store: ({ id, text }) =>
          changed(
            store.update(id, () => text!),
            (json) => committed('replaced', id, json),
          ),
        answer: ({ id }, result, reply) => send(reply, updated(id, result as UpdateResult)),
      };
    case 'merge':
      return {
        schema(request) {
          const id = idOf(request);
          const patch = judgedBody(request, context.body!, true)!;
          checkSameId(patch.value, id, 'merge');
          return { id, patch };
        },
        store: ({ id, patch }) =>
          changed(
            store.update(id, (old) => mergedPlant(context, old, patch!.text)),
            (json) => committed('merged', id, json),
          ),
        answer: ({ id }, result, reply) => send(reply, updated(id, result as UpdateResult)),
      };
    case 'delete':
      return {
        schema: (request) => ({ id: idOf(request) }),
        store: ({ id }) => {
          const removed = store.remove(id);
          const tell = (json: string | undefined) => {
            if (json !== undefined) committed('deleted', id, json);
            return json;
          };
          return removed instanceof Promise ? removed.then(tell) : tell(removed);
        },
        answer: ({ id }, json, reply) => send(reply, found(id, json as string | undefined)),
      };
  }
}

/** The store's update, with `committed` told of the new text once it is stored. */
function changed(result: MaybePromise<UpdateResult>, committed: (json: string) => void): MaybePromise<UpdateResult> {
  const tell = (settled: UpdateResult) => {
    if (typeof settled === 'object') committed(settled.updated);
    return settled;
  };
  return result instanceof Promise ? result.then(tell) : tell(result);
}

function found(id: string, json: string | undefined): string {
  if (json === undefined) throw notFound(id);
  return json;
}

function updated(id: string, result: UpdateResult): string {
  if (result === 'missing') throw notFound(id);
  if (result === 'full')
    throw new ApiError('STORE_FULL', 'The store is full: the plant would pass its byte budget; nothing was changed.');
  return result.updated;
}

function notFound(id: string): ApiError {
  return new ApiError('PLANT_NOT_FOUND', `No plant has the id ${id}.`);
}

/**
 * The id a body or a patch names, when it names one, must be the path's:
 * a replace or a merge does not move a plant to another id (400).
 */
/** A body member's value as an error message quotes it: a number's or string's own text, else its JSON type. */
function describedValue(value: JsonValue): string {
  if (value instanceof NonIntegralNumber) return JSON.stringify(value.numeral);
  if (typeof value === 'object' && value !== null) return Array.isArray(value) ? 'an array' : 'an object';
  return JSON.stringify(String(value));
}

function checkSameId(value: JsonValue, id: string, what: 'replace' | 'merge' = 'replace'): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, ID_PROPERTY)) return;
  const named = (value as JsonObject)[ID_PROPERTY]!;
  const same =
    (typeof named === 'number' || typeof named === 'bigint') &&
    Number.isInteger(Number(named)) &&
    BigInt(named) === BigInt(id);
  if (!same) {
    const verb = what === 'merge' ? 'A merge patch cannot change' : 'A replacement cannot change';
    throw new ApiError(
      'ID_MISMATCH',
      `${verb} the plant's id: the body's ${ID_PROPERTY} is ${describedValue(named)}, the path names ${id}.`,
    );
  }
}

/** The stored plant `old` with the patch applied (RFC 7396), judged as a Plant (400, nothing changed), keeping what Plant declares. */
function mergedPlant(context: ItemContext, old: string, patch: string): string {
  const text = mergePatch(old, patch);
  const topLevelNames: string[] = [];
  const value = parseJson(text, { topLevelNames });
  refuseInvalidPlant(context.validatePlant, value, 'The merged plant is not a valid Plant');
  if (!isObject(value))
    throw new ApiError('INVALID_BODY', 'The merged plant is not a valid Plant: it must be a JSON object.');
  return storedPlantText(context.plant, value, { sent: { text, topLevelNames }, at: 0 });
}

function isObject(value: JsonValue): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof NonIntegralNumber);
}

function refuseInvalidPlant(validatePlant: Validate, value: JsonValue, what: string): void {
  const violations = validatePlant(value);
  if (violations.length > 0) throw new ApiError('INVALID_BODY', `${what}: ${describe(violations).join('; ')}.`);
}
