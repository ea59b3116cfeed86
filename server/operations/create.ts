// The create rule: a create's body (a NewPlant, or any resource's) becomes
// a stored item. One mapping per resource, used by its create operation's
// route (one item) and, for the plant resource, by the initial plants and
// the stub's controls (a list, all or none). Where the server picks ids
// (operations/resource-ids.ts), it makes one from the resource's sequence,
// and the item's text gets it as its first member when the item declares it.
import { ApiError, type ErrorCode } from '../http/errors.js';
import { jsonText } from '../store/store.js';
import type { JsonObject, JsonValue } from '../json/json.js';
import type { ItemKind } from './item-kind.js';
import { idJson, idOfValue, type IdMaker } from './resource-ids.js';
import {
  andThen,
  type CreateAllResult,
  type CreateResult,
  type ItemStore,
  type MaybePromise,
  type Place,
  type PlantEntry,
  type PlantStore,
} from '../store/store.js';
import { itemPositions, storedPlantText, withoutMember, type SentJson, type SentPlant } from './stored-plant.js';

/** A valid NewPlant, ready for the store: its id as an exact decimal string and the plant's JSON text (the answer). */
export type PlantToStore = PlantEntry;

/** A valid create body, ready for the store: its id (undefined where the server picks it) and the item's JSON text. */
export interface NewItem {
  id: string | undefined;
  json: string;
  /** Its place, for any but the plant resource's top level. */
  place?: Place;
  /** The body, where its members name items of other resources that must be stored. */
  value?: JsonObject;
}

/** How storeAll refuses a list: `fail` makes the error, whose message names the list's source; its kind is 'full' when the list does not fit. */
export type ListFailure = (message: string, kind: 'invalid' | 'full') => Error;

/** Most ids made for one create before the server gives up (each taken by then): a pattern with few strings runs out. */
const MOST_ID_TRIES = 16;

export interface CreateRule {
  kind: ItemKind;
  /**
   * The item a request body asks to store; throws the 400 for a missing
   * body or one its schema refuses. `sent` is the text it was parsed from
   * (body.ts), whose values the stored item keeps as sent.
   */
  fromBody(body: JsonValue | undefined, sent?: SentJson): NewItem;
  /**
   * Stores one item in `items` (the plant resource's top level unless
   * given); throws (or rejects with) the 400 or 409 for a taken id, the 507
   * for a full store. Answers the stored entry (with the id the server made
   * where it picks them), at once when the store does, so the in-memory
   * store's hot path makes no promise. The create operation's handler tells
   * the change feed once the store has it.
   */
  store(item: NewItem, items?: ItemStore): MaybePromise<PlantEntry>;
  /**
   * Validates every record of a list as a create body and checks that no id
   * repeats in it, then stores them all or none in the resource's top level
   * (the count cap and the byte budget included) and answers how many were
   * stored. A list whose every id is stored already (or, where the server
   * picks ids, a list given to a place that holds items) is, with
   * `alreadyStored: 'skip'`, left as it is and answers 0: a replica or a
   * restart on a shared database finds the initial plants stored. `sent` is
   * the text the list was parsed from, when it was (a request body, a file).
   */
  storeAll(
    list: JsonValue,
    source: string,
    fail: ListFailure,
    options?: { alreadyStored?: 'refuse' | 'skip'; sent?: SentJson | undefined },
  ): Promise<number>;
}

/**
 * The rule of `kind`'s items, storing into `store`. It tells no change feed:
 * the create operation's handler does, while the lists of storeAll (the
 * initial plants, the stub's controls) set a test up and are not changes
 * anyone is told of. `conflict` is the create's declared status for a taken
 * id (409 where it declares one, RFC 9110 §15.5.10; else 400).
 */
export function createRule(kind: ItemKind, store: PlantStore, conflict: 400 | 409 = 400): CreateRule {
  const { resource } = kind;
  const idRule = resource.id;
  const noun = resource.noun;
  const duplicate: ErrorCode = conflict === 409 ? 'DUPLICATE_CONFLICT' : 'DUPLICATE_ID';
  const answer = (result: CreateResult, id: string): void => {
    if (result === 'exists') throw new ApiError(duplicate, `${article(noun)} with id ${id} already exists.`);
    if (result === 'full') throw new ApiError('STORE_FULL');
  };
  const maker = kind.ids !== undefined && 'make' in kind.ids ? kind.ids : undefined;
  /** The item's text with the id the server made, first, where the item declares its id member. */
  const keepsId = idRule.property !== undefined && kind.shape.keeps(idRule.property);
  const withId = (json: string, id: string): string =>
    keepsId
      ? `{${JSON.stringify(idRule.property)}:${idJson(id, idRule.kind)}${json === '{}' ? '' : `,${json.slice(1, -1)}`}}`
      : json;
  const madeId = (ids: IdMaker, n: number): string => {
    const id = ids.make(n);
    if (id === undefined) throw new ApiError('NO_ID_LEFT', `No ${noun} id is left: the server makes ${ids.how}.`);
    return id;
  };
  const assigned = (item: NewItem, items: ItemStore, tries: number): MaybePromise<PlantEntry> => {
    if (maker === undefined)
      throw new ApiError(
        'NO_ID_LEFT',
        `No ${noun} id can be made: ${(kind.ids as { unmakeable: string }).unmakeable}.`,
      );
    return andThen(store.nextNumbers(resource.key, 1), (n) => {
      const id = madeId(maker, n);
      const json = withId(item.json, id);
      return andThen(items.create(id, json), (result) => {
        // A client may have chosen the id (ids of either kind): the next number.
        if (result === 'exists' && tries < MOST_ID_TRIES) return assigned(item, items, tries + 1);
        answer(result, id);
        return { id, json };
      });
    });
  };
  const fromValue = (value: JsonObject, sent: SentPlant | undefined): NewItem => {
    // The body's schema accepted it: an id of the rule's kind, where it carries one and the client may choose it.
    const id =
      idRule.property === undefined || idRule.chosenBy === 'server'
        ? undefined
        : idOfValue(value[idRule.property], idRule.kind);
    // The schema accepted an id the server cannot keep (a fraction where the id is `type: number`): refused, never
    // stored under an id the server makes in its place.
    const named = idRule.property;
    if (named !== undefined && id === undefined && idRule.chosenBy !== 'server' && Object.hasOwn(value, named))
      throw new ApiError(
        'INVALID_NEW_PLANT',
        `The ${noun}'s ${named} must be ${idRule.kind === 'integer' ? 'an integer (the server keeps number ids that are integers)' : 'a string or an integer'}, got ${jsonText(value[named]!)}.`,
      );
    const kept = storedPlantText(kind.shape, value, sent);
    // An id the server picks replaces one a client sent anyway (readOnly: OpenAPI 3.1 §4.8.24.1).
    const json =
      id === undefined && keepsId && Object.hasOwn(value, idRule.property!)
        ? withoutMember(kept, idRule.property!)
        : kept;
    return resource.references.length === 0 ? { id, json } : { id, json, value };
  };
  const validated = (value: JsonValue, what: string): JsonObject => {
    const violations = kind.validateCreate(value);
    if (violations.length > 0) throw new ApiError('INVALID_NEW_PLANT', `${what}: ${violations.join('; ')}.`);
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new ApiError('INVALID_NEW_PLANT', `${what}: it must be a JSON object.`);
    return value as JsonObject;
  };
  const named =
    kind.createNamed === 'the declared schema' ? 'valid against the declared schema' : `a valid ${kind.createNamed}`;
  return {
    kind,
    fromBody(body, sent) {
      if (body === undefined)
        throw new ApiError(
          'BODY_REQUIRED',
          kind.createNamed === 'NewPlant' ? undefined : `Request body is required: send ${bodyOf(kind.createNamed)}.`,
        );
      return fromValue(validated(body, `Request body is not ${named}`), sent && { sent, at: 0 });
    },
    store(item, items = store) {
      if (item.id === undefined) return assigned(item, items, 0);
      const id = item.id;
      const result = items.create(id, item.json);
      if (result instanceof Promise)
        return result.then((settled) => {
          answer(settled, id);
          return item as PlantEntry;
        });
      answer(result, id);
      return item as PlantEntry;
    },
    async storeAll(list, source, fail, { alreadyStored = 'refuse', sent } = {}) {
      if (!Array.isArray(list)) throw fail(`${source} must be a JSON array of ${kind.createNamed} records`, 'invalid');
      // Items of a nested resource live under a parent a list does not name.
      if (resource.scope.length > 0)
        throw fail(
          `${source}: the ${noun}s live under the ${resource.scope.join(', ')} of ${resource.collectionPath}, which a list does not give: create them through the API`,
          'invalid',
        );
      const items: NewItem[] = [];
      const seen = new Set<string>();
      const positions = sent === undefined ? undefined : itemPositions(sent.text);
      list.forEach((value, index) => {
        let item: NewItem;
        try {
          item = fromValue(
            validated(value, `item ${index} is not a valid ${kind.createNamed}`),
            sent && positions && { sent, at: positions[index]! },
          );
        } catch (error) {
          if (error instanceof ApiError) throw fail(`${source}: ${error.message.replace(/\.$/, '')}`, 'invalid');
          throw error;
        }
        if (item.id !== undefined && seen.has(item.id))
          throw fail(`${source}: item ${index} repeats the id ${item.id}`, 'invalid');
        if (item.id !== undefined) seen.add(item.id);
        items.push(item);
      });
      const unnamed = items.filter(({ id }) => id === undefined).length;
      if (unnamed > 0 && alreadyStored === 'skip' && (await store.count()) > 0) return 0;
      if (unnamed > 0 && maker === undefined)
        throw fail(
          `${source}: no ${noun} id can be made: ${(kind.ids as { unmakeable: string }).unmakeable}`,
          'invalid',
        );
      let next = unnamed === 0 ? 0 : await store.nextNumbers(resource.key, unnamed);
      const entries = items.map(({ id, json }): PlantEntry => {
        if (id !== undefined) return { id, json };
        const made = madeId(maker!, next++);
        return { id: made, json: withId(json, made) };
      });
      const result: CreateAllResult = await store.createAll(entries);
      if (result === 'created') return entries.length;
      if (result === 'full') {
        const { plants, bytes } = await store.usage();
        throw fail(
          `${source}: the ${entries.length} ${noun}s do not fit in the store, which holds ${plants} ${noun === 'plant' ? 'plants' : 'items'} (${bytes} bytes); none was stored`,
          'full',
        );
      }
      if (alreadyStored === 'skip' && result.taken.length === entries.length) return 0;
      const index = entries.findIndex(({ id }) => result.taken.includes(id));
      throw fail(
        `${source}: item ${index} has the id ${entries[index]?.id ?? result.taken[0]}, which is stored already; none was stored`,
        'invalid',
      );
    },
  };
}

/** "A plant", "An order". */
export function article(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'An' : 'A'} ${noun}`;
}

function bodyOf(named: string): string {
  return named === 'the declared schema' ? 'a body of the declared schema' : `a ${named} record`;
}
