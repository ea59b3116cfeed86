// The two stores the PlantStore contract runs on: in memory, and on a real
// PostgreSQL (a throwaway cluster per test file, test/support/postgres.ts),
// each made fresh for a test with the caps it asks for.
import { after } from 'node:test';
import { createMemoryStore } from '../../server/store/memory-store.js';
import { openPostgresStore } from '../../server/store/postgres-store.js';
import { plantJson, type PlantStore, type StoredPlant } from '../../server/store/store.js';
import { POSTGRES_MISSING, useTestDatabases, type TestDatabases } from '../support/postgres.js';

/** A plant's JSON text, as the create rule makes it. */
export const text = (plant: StoredPlant): string => plantJson(plant);
/** A store's entry for a plant. */
export const entry = (id: string, plant: StoredPlant) => ({ id, json: text(plant) });

export type MakeStore = (maxPlants?: number, maxBytes?: number) => Promise<PlantStore>;

export interface StoreKinds {
  databases: TestDatabases;
  /** A PostgreSQL store on a fresh database, or on `url`; closed after the file's tests. */
  postgres: (maxPlants?: number, maxBytes?: number, url?: string) => Promise<PlantStore>;
  /** Each kind: its name, a maker, and the test options that skip it where PostgreSQL is missing. */
  kinds: Array<[string, MakeStore, { skip: string | false }]>;
}

/** Call once per test file, at its top level. */
export function useStoreKinds(): StoreKinds {
  const databases = useTestDatabases();
  const opened: PlantStore[] = [];
  after(async () => {
    await Promise.all(opened.map(async (store) => store.close()));
  });
  const postgres = async (maxPlants = 1_000_000, maxBytes = 256 * 1024 * 1024, url?: string): Promise<PlantStore> => {
    // Waits far past the server's defaults: under a loaded machine a connection
    // or a statement may take seconds, and the contract's verdicts must not
    // depend on the scheduler (the 503 on a wait is tested on its own).
    const store = await openPostgresStore({
      url: url ?? (await databases.fresh()),
      maxPlants,
      maxBytes,
      connectTimeoutMs: 60_000,
      statementTimeoutMs: 60_000,
    });
    opened.push(store);
    return store;
  };
  return {
    databases,
    postgres,
    kinds: [
      ['memory', async (maxPlants, maxBytes) => createMemoryStore(maxPlants, maxBytes), { skip: false }],
      ['postgresql', (maxPlants, maxBytes) => postgres(maxPlants, maxBytes), { skip: POSTGRES_MISSING }],
    ],
  };
}
