// What happens to the plants, told after it has happened: the one
// post-commit point of every operation that changes the store. The create
// rule emits `created` once the store has answered 'created' (a database
// store answers so after its COMMIT); whoever needs to know (the webhooks)
// listens here, and the rule knows nothing of them.
//
// Listeners run synchronously, in the request that caused the event, before
// its answer is sent: a listener takes note and does its work later (the
// webhooks queue a delivery and send it on a later turn of the event loop),
// so that no listener slows or fails the answer. One that throws is reported
// and the others still run.

/**
 * The kinds of event on a plant. `created` is emitted by the create
 * operation; an operation that replaces, merges or deletes a plant emits
 * `updated` or `deleted` through the same point once it is served.
 */
export const PLANT_EVENT_TYPES = ['created', 'updated', 'deleted'] as const;
export type PlantEventType = (typeof PLANT_EVENT_TYPES)[number];

export interface PlantEvent {
  type: PlantEventType;
  /** The plant's id, an exact int64 as a decimal string. */
  id: string;
  /** The plant's JSON text as stored (the Plant the API answers); for `deleted`, as it was. */
  plant: string;
}

export type PlantEventListener = (event: PlantEvent) => void;

export class PlantEvents {
  private listeners: PlantEventListener[] = [];
  private readonly emitters = new Set<PlantEventType>();

  /** `report` is told of a listener's error (buildApp logs it); the event is not emitted again. */
  constructor(private readonly report: (error: unknown, event: PlantEvent) => void = () => {}) {}

  /** Says that the app emits `type` (the create rule says `created`), so a listener can tell an event that never comes. */
  emits(type: PlantEventType): void {
    this.emitters.add(type);
  }

  /** Whether some part of the app emits `type`. */
  emitted(type: PlantEventType): boolean {
    return this.emitters.has(type);
  }

  /** Adds a listener; the function returned removes it. */
  on(listener: PlantEventListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((other) => other !== listener);
    };
  }

  /** Tells every listener, now; never throws. With no listener it costs one check. */
  emit(event: PlantEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.report(error, event);
      }
    }
  }
}
