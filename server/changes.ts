// The one place where a change of a stored item (a plant, or an item of any
// resource) is known to have committed: the store answered it (a database
// store once it committed), and the answer is on its way. Each operation
// that changes an item tells the feed, after the store and before the
// answer (the create operation tells `created`); whoever needs to act on
// committed changes (the webhooks, sent to receivers) subscribes here and
// touches no operation.
//
// Listeners run synchronously, in the request that made the change: a
// listener takes note and does its work later (the webhooks queue a
// delivery and send it on a later turn of the event loop), so that none
// slows or fails the answer. One that throws is reported; the others still
// hear the change.
export type PlantChangeEvent = 'created' | 'replaced' | 'merged' | 'deleted';

export interface PlantChange {
  event: PlantChangeEvent;
  /** The item's resource (its store key: '' for the plant resource) and parent (store.ts, Place). */
  resource: string;
  parent: string;
  /** The item's id: an integer id's exact decimal digits, a string id as sent. */
  id: string;
  /** The item's JSON text as stored now; for 'deleted', as it was. */
  json: string;
}

export type ChangeListener = (change: PlantChange) => void;

export class PlantChanges {
  private readonly listeners: ChangeListener[] = [];
  /** The events some operation tells, of each resource (`resource` NUL `event`). */
  private readonly told = new Set<string>();

  /** `failed` hears what a listener throws: a committed change is answered as committed whatever a listener does. */
  constructor(private readonly failed: (error: unknown, change: PlantChange) => void = () => {}) {}

  /** Calls `listener` with every change committed from now on, in the order committed. */
  subscribe(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  committed(change: PlantChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.failed(error, change);
      }
    }
  }

  /** Whether anyone listens (the create path skips making a change nobody hears). */
  get heard(): boolean {
    return this.listeners.length > 0;
  }

  /** Said by each operation that tells `event` of `resource`'s items, as the app is built: a listener can then name what never comes. */
  tells(event: PlantChangeEvent, resource = ''): void {
    this.told.add(`${resource}\u0000${event}`);
  }

  /** Whether some operation of the app tells `event` of `resource`'s items. */
  isTold(event: PlantChangeEvent, resource = ''): boolean {
    return this.told.has(`${resource}\u0000${event}`);
  }
}
