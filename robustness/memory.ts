// Memory per plant: what the server retains for the plants it stores,
// measured on the V8 heap and in buffers after full collections, against what the store's
// byte budget counts for them (plantBytes, server/store/store.ts). Needs
// global.gc: run with node --expose-gc (robustness/memory-probe.ts does).
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app.js';
import { memoryAfterCollection } from './collect.js';
import { FUZZ_TOKEN } from './requests.js';

/**
 * Heap a measurement may show besides the plants: what Fastify and V8
 * allocate on the side (caches, compiled code, feedback), not per plant. A
 * plant that kept its request text alive retains 100 KB or more (its
 * padding), so 30 of them pass this bound several times over.
 */
export const HEAP_SLACK_BYTES = 1024 * 1024;
/** Creates before a measurement starts: what the first requests build (compiled code, caches) is not the plants'. */
const WARM_UP_CREATES = 500;

export interface PlantMemory {
  plants: number;
  /** Heap growth after the creates, over the plants. */
  retainedPerPlant: number;
  /** What the byte budget counts, over the plants. */
  countedPerPlant: number;
}

/** A NewPlant as a request body: its name and tag, and the unnamed properties that pad its text. */
export interface PaddedPlant {
  name: string;
  tag: string | undefined;
  /** Characters of unnamed properties in the body, which the server must not keep. */
  padding: number;
}

/** Names and tags of the lengths where V8 makes substrings slices of their parent (13 characters and more), in any script. */
const fieldArb = fc.oneof(
  fc.string({ minLength: 13, maxLength: 60 }),
  fc.string({ unit: 'grapheme', minLength: 13, maxLength: 40 }),
  fc.string({ maxLength: 12 }),
);

export const paddedPlantArb: fc.Arbitrary<PaddedPlant> = fc.record({
  name: fieldArb,
  tag: fc.option(fieldArb, { nil: undefined }),
  padding: fc.integer({ min: 100_000, max: 300_000 }),
});

async function heapAfterCollection(): Promise<number> {
  // The heap and the buffers outside it (the in-memory store keeps its plant texts there).
  const { heapUsed, arrayBuffers } = await memoryAfterCollection();
  return heapUsed + arrayBuffers;
}

function body(id: bigint, plant: PaddedPlant): string {
  const tag = plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`;
  return `{"id":${id},"name":${JSON.stringify(plant.name)}${tag},"notes":"${'n'.repeat(plant.padding)}"}`;
}

async function create(app: FastifyInstance, id: bigint, plant: PaddedPlant): Promise<void> {
  const response = await app.inject({
    method: 'POST',
    url: '/plants',
    headers: { authorization: `Bearer ${FUZZ_TOKEN}`, 'content-type': 'application/json' },
    payload: body(id, plant),
  });
  if (response.statusCode !== 200)
    throw new Error(`create answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
}

export interface PlantToCreate {
  id: bigint;
  plant: PaddedPlant;
}

/** Creates the plants through app.inject() and measures what stays on the heap. */
export async function measurePlantMemory(plants: readonly PlantToCreate[]): Promise<PlantMemory> {
  const app = buildApp({ tokens: [FUZZ_TOKEN], maxBytes: Number.MAX_SAFE_INTEGER });
  try {
    // Negative ids: the plants measured have positive ones.
    for (let i = 1n; i <= WARM_UP_CREATES; i++)
      await create(app, -i, { name: `warm-up plant ${i}`, tag: 'warm-up', padding: 100 });
    const counted = (await app.plantStore.usage()).bytes;
    const before = await heapAfterCollection();
    for (const { id, plant } of plants) await create(app, id, plant);
    const retained = (await heapAfterCollection()) - before;
    return {
      plants: plants.length,
      retainedPerPlant: retained / plants.length,
      countedPerPlant: ((await app.plantStore.usage()).bytes - counted) / plants.length,
    };
  } finally {
    await app.close();
  }
}

/**
 * Property: whatever the plants and however much of their request text is
 * not theirs, the heap keeps no more than the byte budget counts for them
 * (plus HEAP_SLACK_BYTES). A stored field that kept its request text alive
 * would retain the padding: tens of kilobytes a plant.
 */
export function plantMemoryProperty(): fc.IAsyncProperty<[PaddedPlant[]]> {
  return fc.asyncProperty(fc.array(paddedPlantArb, { minLength: 30, maxLength: 40 }), async (plants) => {
    const memory = await measurePlantMemory(plants.map((plant, i) => ({ id: BigInt(i + 1), plant })));
    if (!withinBudget(memory)) {
      throw new Error(
        `${memory.plants} plants retained ${memory.retainedPerPlant.toFixed(0)} bytes each on the heap; the byte budget counts ${memory.countedPerPlant.toFixed(0)} (bound ${perPlantBound(memory).toFixed(0)})`,
      );
    }
  });
}

/** What a plant may retain in a measurement: what the budget counts, and its share of HEAP_SLACK_BYTES. */
function perPlantBound(memory: PlantMemory): number {
  return memory.countedPerPlant + HEAP_SLACK_BYTES / memory.plants;
}

/** True when the plants retained no more than the byte budget counts for them (plus the slack). */
export function withinBudget(memory: PlantMemory): boolean {
  return memory.retainedPerPlant <= perPlantBound(memory);
}

/** Plain plants (no padding) in each key range of the store: ids below 2^31, below 2^53, beyond 2^53. */
export function plainPlants(count: number): PlantToCreate[] {
  const starts = [1n, 2n ** 40n, 2n ** 60n];
  return Array.from({ length: count }, (_, i) => ({
    id: starts[i % 3]! + BigInt(i),
    plant: { name: `Plant number ${i}`, tag: i % 2 === 0 ? 'tropical' : undefined, padding: 0 },
  }));
}
