// The operations on one item of a resource (RFC 9110 §9.3), each as handler
// steps of the pipeline (pipeline.ts): read (GET), replace (PUT), merge
// (PATCH, RFC 7396) and delete (DELETE). The item is the one whose id the
// path's id parameter names (read exactly by the stage `parameters`), under
// the parent its path names (places.ts: the parent's 404 first); one that is
// not stored is 404 with the Error record (RFC 9110 §15.5.5), and a PUT
// whose operation declares 201 creates it there (§9.3.4). Preconditions
// (If-Match, If-None-Match: conditional.ts) are judged in the store's step
// that changes the item; a change that commits is told to the change feed
// (changes.ts) before it is answered.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ParsedBody } from '../http/body.js';
import type { PlantChangeEvent, PlantChanges } from '../changes.js';
import type { NewItem } from './create.js';
import { ApiError } from '../http/errors.js';
import type { JsonObject } from '../json/json.js';
import type { OperationHandler } from '../http/pipeline.js';
import { andThen, type ItemStore, type MaybePromise, type Place, type UpdateResult } from '../store/store.js';
import { storedPlantText } from './stored-plant.js';
import { judgedBody, type BodyRule } from './body-rule.js';
import {
  entityTag,
  isConditional,
  judgePreconditions,
  preconditionRequired,
  preconditionsOf,
  type Preconditions,
} from './conditional.js';
import { checkSameId, isObject, mergedItem, withIdMember } from './item-body.js';
import type { ItemKind } from './item-kind.js';
import type { ResourcePlaces } from './places.js';
import { valueText } from './places.js';
import type { ItemRole } from './resources.js';

/** An operation's success answer: its status, and its Content-Type when the document declares content for it. */
export interface SuccessAnswer {
  status: number;
  contentType: string | undefined;
}

export interface ItemContext {
  changes: PlantChanges;
  places: ResourcePlaces;
  /** The path parameter that carries the id. */
  idParameter: string;
  success: SuccessAnswer;
  /** What the item keeps of a body, its validator, its id rule. */
  kind: ItemKind;
  /** The request body's rule (replace, merge); a replace without one judges the body as the item. */
  body: BodyRule | undefined;
  /** The PUT's declared 201, where a PUT on an id not stored creates the item there. */
  creates: { status: number } | undefined;
  /** The declared 4xx where a body member names an item the store does not hold. */
  checkReferences: ((item: NewItem) => MaybePromise<void>) | undefined;
  /** Whether a change must be conditional (the operation declares 428). */
  preconditionRequired: boolean;
  /** Whether the answer carries the item's ETag (the document declares it). */
  sendsEtag: boolean;
}

interface ItemInput {
  id: string;
  place: Place;
  conditions: Preconditions;
  text?: string;
  patch?: ParsedBody;
  value?: JsonObject;
}

/** What the store step found or did: the item's text (undefined: none), and how to answer. */
interface ItemResult {
  json: string;
  status: number;
  notModified?: boolean;
}

/** The handler of an operation on one item. */
export function itemHandler(role: ItemRole, context: ItemContext): OperationHandler<ItemInput, ItemResult> {
  const { changes, success, places, kind } = context;
  const { noun } = kind.resource;
  const idRule = kind.resource.id;
  // A replacement is judged by its declared schema, else as the item.
  const replacement: BodyRule =
    context.body?.validate !== undefined
      ? context.body
      : {
          mediaTypes: [],
          json: true,
          required: true,
          ...context.body,
          validate: kind.validateItem(),
          named: noun === 'plant' ? 'Plant' : 'the declared schema',
        };
  const inputOf = (request: FastifyRequest): ItemInput => ({
    id: valueText(request.parameterValues!.path[context.idParameter]),
    place: places.placeOf(request),
    conditions: preconditionsOf(request.headers),
  });
  const committed = (event: PlantChangeEvent, { place, id }: ItemInput, json: string) =>
    changes.committed({ event, resource: kind.resource.key, parent: place.parent, id, json });
  // Said as the app is built, so that a listener (the webhooks) can name at start what is never told.
  const TOLD = { replace: 'replaced', merge: 'merged', delete: 'deleted' } as const;
  if (role !== 'read') changes.tells(TOLD[role], kind.resource.key);
  if (context.creates !== undefined) changes.tells('created', kind.resource.key);
  const send = (reply: FastifyReply, { json, status, notModified }: ItemResult): FastifyReply => {
    if (context.sendsEtag) reply.header('etag', entityTag(json));
    // RFC 9110 §15.4.5: a 304 has no content, and carries the ETag a 200 would.
    if (notModified) return reply.code(304).send();
    reply.code(status);
    return success.contentType === undefined ? reply.send() : reply.type(success.contentType).send(json);
  };
  const items = (input: ItemInput): ItemStore => places.itemsAt(input.place);
  /** The parent first (404), then the precondition the operation requires (428), then `work`. */
  const guarded =
    kind.resource.parent === undefined && !context.preconditionRequired
      ? <T>(_input: ItemInput, _change: boolean, work: () => MaybePromise<T>): MaybePromise<T> => work()
      : <T>(input: ItemInput, change: boolean, work: () => MaybePromise<T>): MaybePromise<T> =>
          andThen(places.checkParent(input.place), () => {
            if (change && context.preconditionRequired && !isConditional(input.conditions))
              throw preconditionRequired(noun);
            return work();
          });
  const notFound = (id: string): ApiError => new ApiError('PLANT_NOT_FOUND', `No ${noun} has the id ${id}.`);
  const judge = (input: ItemInput) => (json: string) => void judgePreconditions(input.conditions, json, false);
  switch (role) {
    case 'read':
      return {
        schema: inputOf,
        store: (input) =>
          guarded(input, false, () =>
            andThen(items(input).read(input.id), (json) => {
              if (json === undefined) {
                // §13.1.1: If-Match is false where there is no current representation.
                if (input.conditions.ifMatch !== undefined) judgePreconditions(input.conditions, undefined, true);
                throw notFound(input.id);
              }
              const { notModified } = judgePreconditions(input.conditions, json, true);
              return { json, status: success.status, notModified };
            }),
          ),
        answer: (_input, result, reply) => send(reply, result),
      };
    case 'replace':
      return {
        schema(request) {
          const input = inputOf(request);
          const body = judgedBody(request, replacement, true)!;
          if (!isObject(body.value))
            throw new ApiError(
              'INVALID_BODY',
              `Request body is not a valid ${replacement.named}: it must be a JSON object.`,
            );
          checkSameId(body.value, input.id, idRule, noun);
          const text = withIdMember(
            kind,
            storedPlantText(kind.shape, body.value, { sent: body, at: 0 }),
            input.id,
            body.value,
          );
          return { ...input, text, value: body.value };
        },
        store: (input) =>
          guarded(input, true, () =>
            andThen(context.checkReferences?.({ id: input.id, json: input.text!, value: input.value }), () =>
              andThen(
                items(input).update(input.id, (old) => {
                  judge(input)(old);
                  return input.text!;
                }),
                (result) => replacedOrCreated(input, result),
              ),
            ),
          ),
        answer: (_input, result, reply) => send(reply, result),
      };
    case 'merge':
      return {
        schema(request) {
          const input = inputOf(request);
          const patch = judgedBody(request, context.body!, true)!;
          checkSameId(patch.value, input.id, idRule, noun, 'merge');
          return { ...input, patch, value: isObject(patch.value) ? patch.value : undefined };
        },
        store: (input) =>
          guarded(input, true, () =>
            andThen(context.checkReferences?.({ id: input.id, json: '', value: input.value }), () =>
              andThen(
                items(input).update(input.id, (old) => {
                  judge(input)(old);
                  return mergedItem(kind, old, input.patch!.text);
                }),
                (result) => changed(input, 'merged', result),
              ),
            ),
          ),
        answer: (_input, result, reply) => send(reply, result),
      };
    case 'delete':
      return {
        schema: inputOf,
        store: (input) =>
          guarded(input, true, () =>
            andThen(
              items(input).remove(input.id, isConditional(input.conditions) ? judge(input) : undefined),
              (json) => {
                if (json === undefined) {
                  if (input.conditions.ifMatch !== undefined) judgePreconditions(input.conditions, undefined, false);
                  throw notFound(input.id);
                }
                return andThen(places.removeBelow(input.place, input.id), () => {
                  committed('deleted', input, json);
                  return { json, status: success.status };
                });
              },
            ),
          ),
        answer: (_input, result, reply) => send(reply, result),
      };
  }

  /** An update's outcome told and answered: the new text, or the 404 or 507. */
  function changed(input: ItemInput, event: PlantChangeEvent, result: UpdateResult): ItemResult {
    if (result === 'missing') {
      if (input.conditions.ifMatch !== undefined) judgePreconditions(input.conditions, undefined, false);
      throw notFound(input.id);
    }
    if (result === 'full')
      throw new ApiError(
        'STORE_FULL',
        `The store is full: the ${noun} would pass its byte budget; nothing was changed.`,
      );
    committed(event, input, result.updated);
    return { json: result.updated, status: success.status };
  }

  /** A replace's outcome; where the item is not stored and the PUT creates, it is created at the path's id (201). */
  function replacedOrCreated(input: ItemInput, result: UpdateResult): MaybePromise<ItemResult> {
    if (result !== 'missing' || context.creates === undefined) return changed(input, 'replaced', result);
    // §13.1.1: If-Match is false where there is no current representation: a conditional replace creates nothing.
    judgePreconditions(input.conditions, undefined, false);
    return andThen(items(input).create(input.id, input.text!), (created) => {
      // Created by another request since the update looked: that one's item is replaced now.
      if (created === 'exists')
        return andThen(
          items(input).update(input.id, (old) => {
            judge(input)(old);
            return input.text!;
          }),
          (again) => changed(input, 'replaced', again),
        );
      if (created === 'full') throw new ApiError('STORE_FULL');
      committed('created', input, input.text!);
      return { json: input.text!, status: context.creates!.status };
    });
  }
}
