// Runs the memory-per-plant measurements in a process of its own, where
// global.gc exists and nothing else shares the heap:
//
//   node --expose-gc dist/robustness/memory-probe.js [--runs N] [--plain N] [--seed N]
//
// --runs cases of the property (robustness/memory.ts), --plain plain plants
// measured for the bytes per plant. Prints one JSON line
// {"property": "ok" | <the failure>, "plain": PlantMemory}; exits 1 when the
// property fails or plain plants retain more than the budget counts (plus
// the slack of HEAP_SLACK_BYTES over all of them).
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { measurePlantMemory, plainPlants, plantMemoryProperty, withinBudget } from './memory.js';
import { FUZZ_SEED } from './requests.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    plain: { type: 'string', default: '20000' },
    seed: { type: 'string' },
  },
});
const runs = Number(values.runs);
const seed = values.seed === undefined ? FUZZ_SEED : Number(values.seed);

let property = 'ok';
try {
  await fc.assert(plantMemoryProperty(), { numRuns: runs, seed, endOnFailure: true });
} catch (error) {
  property = (error as Error).message.split('\n').slice(0, 8).join('\n');
}
const plain = await measurePlantMemory(plainPlants(Number(values.plain)));
process.stdout.write(`${JSON.stringify({ property, plain, seed })}\n`);
process.exitCode = property === 'ok' && withinBudget(plain) ? 0 : 1;
