// The create operation's handler (pipeline.ts): the body judged by the
// resource's create schema, then, in the store step, the parent the path
// names and the items the body names checked (404, the declared 4xx), the
// item stored (its id made where the server picks it), the change told to
// the feed; the answer is the declared success status with the stored item
// and the headers the document declares for it (Location, ETag).
import type { FastifyReply } from 'fastify';
import { readBody } from '../http/body.js';
import type { PlantChanges } from '../changes.js';
import type { CreateRule, NewItem } from './create.js';
import type { OperationHandler } from '../http/pipeline.js';
import { andThen, PLANTS, type MaybePromise, type Place, type PlantEntry } from '../store/store.js';
import type { ResourcePlaces } from './places.js';

export interface CreateOptions {
  /** The declared success status. */
  status: number;
  places: ResourcePlaces;
  /** Throws (or rejects with) the declared 4xx where a body member names an item the store does not hold. */
  checkReferences: ((item: NewItem) => MaybePromise<void>) | undefined;
  /** The headers the answer carries for the stored item (Location, ETag), where the document declares any. */
  headers: ((entry: PlantEntry, place: Place) => Record<string, string>) | undefined;
}

/** The created entry, and where. */
interface Created {
  entry: PlantEntry;
  place: Place;
}

export function createHandler(
  rule: CreateRule,
  changes: PlantChanges,
  { status, places, checkReferences, headers }: CreateOptions,
): OperationHandler<NewItem, PlantEntry | Created> {
  const resource = rule.kind.resource.key;
  changes.tells('created', resource);
  const committed = (entry: PlantEntry, place: Place): void => {
    if (changes.heard)
      changes.committed({ event: 'created', resource, parent: place.parent, id: entry.id, json: entry.json });
  };
  const send = (reply: FastifyReply, entry: PlantEntry, place: Place): FastifyReply => {
    if (headers !== undefined) reply.headers(headers(entry, place));
    return reply.code(status).type('application/json; charset=utf-8').send(entry.json);
  };
  const simple =
    resource === '' && places.resource.scope.length === 0 && checkReferences === undefined && headers === undefined;
  if (simple) {
    // The plant resource's top level, nothing to check before or to add after: the shipped document's path, as fast as it was.
    return {
      schema(request) {
        const body = readBody(request); // JSON: the stage JSON syntax let it through
        return rule.fromBody(body?.value, body);
      },
      store(item) {
        const stored = rule.store(item);
        if (stored instanceof Promise)
          return stored.then((entry) => {
            committed(entry, PLANTS);
            return entry;
          });
        committed(stored, PLANTS);
        return stored;
      },
      answer: (_item, entry, reply) => send(reply, entry as PlantEntry, PLANTS),
    };
  }
  return {
    schema(request) {
      const body = readBody(request);
      const item = rule.fromBody(body?.value, body);
      item.place = places.placeOf(request);
      return item;
    },
    store(item) {
      const place = item.place!;
      return andThen(places.checkParent(place), () =>
        andThen(checkReferences?.(item), () =>
          andThen(rule.store(item, places.itemsAt(place)), (entry): Created => {
            committed(entry, place);
            return { entry, place };
          }),
        ),
      );
    },
    answer: (_item, created, reply) => send(reply, (created as Created).entry, (created as Created).place),
  };
}
