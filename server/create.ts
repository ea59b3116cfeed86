// The create rule: a NewPlant (the request body) becomes a stored plant.
// One mapping, used by the operation's route (one plant) and by the initial
// plants and the stub's controls (a list, all or none).
import type { FastifyReply } from 'fastify';
import { readBody } from './body.js';
import type { PlantChanges } from './changes.js';
import { ApiError } from './errors.js';
import type { JsonObject, JsonValue } from './json.js';
import type { OperationHandler } from './pipeline.js';
import type { CreateAllResult, CreateResult, MaybePromise, PlantEntry, PlantStore } from './store.js';
import { itemPositions, storedPlantText, type SentJson, type SentPlant } from './stored-plant.js';
import type { OperationContract } from './validation.js';

/** A valid NewPlant, ready for the store: its id as an exact decimal string and the plant's JSON text (the answer). */
export type PlantToStore = PlantEntry;

/** How storeAll refuses a list: `fail` makes the error, whose message names the list's source; its kind is 'full' when the list does not fit. */
export type ListFailure = (message: string, kind: 'invalid' | 'full') => Error;

export interface CreateRule {
  /**
   * The plant a request body asks to store; throws the 400 for a missing
   * body or one that is not a NewPlant. `sent` is the text it was parsed
   * from (body.ts), whose values the stored plant keeps as sent.
   */
  fromBody(body: JsonValue | undefined, sent?: SentJson): PlantToStore;
  /**
   * Stores one plant; throws (or rejects with) the 400 for a taken id, the
   * 507 for a full store. Answers at once when the store does, so the
   * in-memory store's hot path makes no promise. The create operation's
   * handler (createHandler) tells the change feed once the store has it.
   */
  store(entry: PlantToStore): MaybePromise<void>;
  /**
   * Validates every record of a list as a NewPlant and checks that no id
   * repeats in it, then stores them all or none (the count cap and the
   * byte budget included) and answers how many were stored. A list whose
   * every id is stored already is, with `alreadyStored: 'skip'`, left as it
   * is and answers 0: a replica or a restart on a shared database finds
   * the initial plants stored. `sent` is the text the list was parsed from,
   * when it was (a request body, a file).
   */
  storeAll(
    list: JsonValue,
    source: string,
    fail: ListFailure,
    options?: { alreadyStored?: 'refuse' | 'skip'; sent?: SentJson | undefined },
  ): Promise<number>;
}

/**
 * The rule, storing into `store`. It tells no change feed: the create
 * operation's handler does, while the lists of storeAll (the initial
 * plants, the stub's controls) set a test up and are not changes anyone is
 * told of.
 */
export function createRule(contract: OperationContract, store: PlantStore): CreateRule {
  const answer = (result: CreateResult, { id }: PlantToStore): void => {
    if (result === 'exists') throw new ApiError('DUPLICATE_ID', `A plant with id ${id} already exists.`);
    if (result === 'full') throw new ApiError('STORE_FULL');
  };
  /**
   * The mapping, for a record the NewPlant schema accepted: its id, and the
   * plant's JSON text, made once, here (stored-plant.ts): the store keeps it
   * and the answer is it.
   */
  const plantToStore = (newPlant: JsonObject, sent: SentPlant | undefined): PlantToStore => ({
    // The NewPlant schema accepted it: an integer (number or bigint), whose digits are the store's key.
    id: (newPlant.id as number | bigint).toString(),
    json: storedPlantText(contract.plant, newPlant, sent),
  });
  return {
    fromBody(body, sent) {
      if (body === undefined) throw new ApiError('BODY_REQUIRED');
      const violations = contract.validateRequestBody(body);
      if (violations.length > 0) {
        throw new ApiError('INVALID_NEW_PLANT', `Request body is not a valid NewPlant: ${violations.join('; ')}.`);
      }
      return plantToStore(body as JsonObject, sent && { sent, at: 0 });
    },
    store(entry) {
      const result = store.create(entry.id, entry.json);
      return result instanceof Promise ? result.then((settled) => answer(settled, entry)) : answer(result, entry);
    },
    async storeAll(list, source, fail, { alreadyStored = 'refuse', sent } = {}) {
      if (!Array.isArray(list)) throw fail(`${source} must be a JSON array of NewPlant records`, 'invalid');
      const entries: PlantToStore[] = [];
      const seen = new Set<string>();
      const positions = sent === undefined ? undefined : itemPositions(sent.text);
      list.forEach((item, index) => {
        const violations = contract.validateRequestBody(item);
        if (violations.length > 0)
          throw fail(`${source}: item ${index} is not a valid NewPlant: ${violations.join('; ')}`, 'invalid');
        const entry = plantToStore(item as JsonObject, sent && positions && { sent, at: positions[index]! });
        if (seen.has(entry.id)) throw fail(`${source}: item ${index} repeats the id ${entry.id}`, 'invalid');
        seen.add(entry.id);
        entries.push(entry);
      });
      const result: CreateAllResult = await store.createAll(entries);
      if (result === 'created') return entries.length;
      if (result === 'full') {
        const { plants, bytes } = await store.usage();
        throw fail(
          `${source}: the ${entries.length} plants do not fit in the store, which holds ${plants} plants (${bytes} bytes); none was stored`,
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

/**
 * The create operation's handler steps (pipeline.ts): the body judged as a
 * NewPlant, the plant stored (then the change is committed), and `status`
 * (the document's success status) with the stored plant, whose JSON text
 * the create rule made once for the store and the answer.
 */
export function createHandler(
  rule: CreateRule,
  changes: PlantChanges,
  status: number,
): OperationHandler<PlantToStore, void> {
  changes.tells('created');
  const committed = (plant: PlantToStore): void => {
    if (changes.heard) changes.committed({ event: 'created', id: plant.id, json: plant.json });
  };
  return {
    schema(request) {
      const body = readBody(request); // JSON: the stage JSON syntax let it through
      return rule.fromBody(body?.value, body);
    },
    store(plant) {
      const stored = rule.store(plant);
      if (stored === undefined) return committed(plant);
      return stored.then(() => committed(plant));
    },
    answer: (plant, _stored, reply: FastifyReply) =>
      reply.code(status).type('application/json; charset=utf-8').send(plant.json),
  };
}
