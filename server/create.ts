// The create rule: a NewPlant (the request body) becomes a stored plant.
// One mapping, used by the operation's route (one plant) and by the initial
// plants and the stub's controls (a list, all or none).
import { ApiError } from './errors.js';
import { NonIntegralNumber, type JsonObject, type JsonValue } from './json.js';
import type { PlantEntry, PlantStore, StoredPlant } from './store.js';
import type { OperationContract } from './validation.js';

/** A valid NewPlant, ready for the store: its id as an exact decimal string, and the plant. */
export type PlantToStore = PlantEntry;

export interface CreateRule {
  /** The plant a request body asks to store; throws the 400 for a missing body or one that is not a NewPlant. */
  fromBody(body: JsonValue | undefined): PlantToStore;
  /** Stores one plant; throws the 400 for a taken id, the 507 for a full store. */
  store(entry: PlantToStore): void;
  /**
   * Validates every record of a list as a NewPlant and checks the ids
   * (unique in the list, not yet stored) before storing any, then stores
   * them in order; `fail` makes the error for a problem, whose message names
   * `source`, and whose kind is 'full' when the list does not fit in the
   * store (its count cap or its byte budget). All or none: a bad list, or
   * one that does not fit, stores nothing.
   */
  storeAll(list: JsonValue, source: string, fail: (message: string, kind: 'invalid' | 'full') => Error): number;
}

export function createRule(contract: OperationContract, store: PlantStore): CreateRule {
  return {
    fromBody(body) {
      if (body === undefined) throw new ApiError('BODY_REQUIRED');
      const violations = contract.validateRequestBody(body);
      if (violations.length > 0) {
        throw new ApiError('INVALID_NEW_PLANT', `Request body is not a valid NewPlant: ${violations.join('; ')}.`);
      }
      return plantToStore(body as JsonObject);
    },
    store({ id, plant }) {
      const result = store.create(id, plant);
      if (result === 'exists') throw new ApiError('DUPLICATE_ID', `A plant with id ${id} already exists.`);
      if (result === 'full') throw new ApiError('STORE_FULL');
    },
    storeAll(list, source, fail) {
      if (!Array.isArray(list)) throw fail(`${source} must be a JSON array of NewPlant records`, 'invalid');
      const entries: PlantToStore[] = [];
      const seen = new Set<string>();
      list.forEach((item, index) => {
        const violations = contract.validateRequestBody(item);
        if (violations.length > 0) throw fail(`${source}: item ${index} is not a valid NewPlant: ${violations.join('; ')}`, 'invalid');
        const entry = plantToStore(item as JsonObject);
        if (seen.has(entry.id) || store.get(entry.id) !== undefined) throw fail(`${source}: item ${index} repeats the id ${entry.id}`, 'invalid');
        seen.add(entry.id);
        entries.push(entry);
      });
      const result = store.createAll(entries);
      if (result === 'full') {
        throw fail(`${source}: the ${entries.length} plants do not fit in the store, which holds ${store.size} plants (${store.bytes} bytes); none was stored`, 'full');
      }
      // Ids were checked above; a store that still finds one taken was changed in between.
      if (result === 'exists') throw fail(`${source}: an id was stored meanwhile; none was stored`, 'invalid');
      return entries.length;
    },
  };
}

/**
 * The mapping, for a record the NewPlant schema accepted: only the fields of
 * Plant are kept (and echoed); other properties are accepted and dropped.
 * The fields are copied (ownCopy): the store keeps what it counts.
 */
function plantToStore(newPlant: JsonObject): PlantToStore {
  const plant: StoredPlant = { name: ownCopyOf(newPlant.name!) as string };
  if (newPlant.tag !== undefined) plant.tag = ownCopyOf(newPlant.tag) as string;
  return { id: String(newPlant.id as number | bigint), plant };
}

const LATIN1 = /^[\u0000-\u00ff]*$/;

/**
 * `text` in a string of its own. A string the parser cut from the request
 * (json.ts, text.slice) may be a V8 slice, which keeps its whole parent
 * alive: a 25-character name would hold a megabyte of request text for as
 * long as the plant is stored. Re-encoding makes a new flat string, in one
 * byte per character where it can (UTF-16 keeps lone surrogates intact).
 */
export function ownCopy(text: string): string {
  const encoding = LATIN1.test(text) ? 'latin1' : 'utf16le';
  return Buffer.from(text, encoding).toString(encoding);
}

/**
 * A field with every string in it copied (ownCopy). A field is a string in
 * the shipped document, but an evolved one may make it nullable, or an
 * array or object of strings.
 */
function ownCopyOf(value: JsonValue): JsonValue {
  if (typeof value === 'string') return ownCopy(value);
  if (Array.isArray(value)) return value.map(ownCopyOf);
  if (value instanceof NonIntegralNumber) return new NonIntegralNumber(ownCopy(value.numeral));
  if (value === null || typeof value !== 'object') return value;
  const copy: JsonObject = Object.create(null);
  for (const [name, member] of Object.entries(value)) copy[ownCopy(name)] = ownCopyOf(member);
  return copy;
}
