// The plant store: an interface, and the in-memory implementation.

/** A stored plant: what the client sent, without the id (the Plant schema). */
export interface StoredPlant {
  name: string;
  tag?: string;
}

export type CreateResult = 'created' | 'exists' | 'full';

export interface PlantStore {
  /** Stores the plant under `id` (an exact int64 as a decimal string) unless the id is taken or the store is full. */
  create(id: string, plant: StoredPlant): CreateResult;
  get(id: string): StoredPlant | undefined;
  /** Every stored plant with its id, in insertion order. */
  list(): Array<{ id: string; plant: StoredPlant }>;
  clear(): void;
  readonly size: number;
}

export function createMemoryStore(maxPlants: number = 1_000_000): PlantStore {
  const plants = new Map<string, StoredPlant>();
  return {
    create(id, plant) {
      // Check and insert happen in one synchronous step, so concurrent
      // creates of one id cannot both succeed.
      if (plants.has(id)) return 'exists';
      if (plants.size >= maxPlants) return 'full';
      plants.set(id, plant);
      return 'created';
    },
    get: (id) => plants.get(id),
    list: () => Array.from(plants, ([id, plant]) => ({ id, plant })),
    clear: () => plants.clear(),
    get size() {
      return plants.size;
    },
  };
}
