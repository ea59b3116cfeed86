// Fuzzing through app.inject(): 10,000 generated requests per run (random
// JSON and bytes, mutated Authorization / Content-Type / Content-Length,
// deep nesting, long strings, unusual Unicode, repeated and __proto__ keys,
// odd methods and paths). The seed is fixed; FUZZ_SEED replays another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { injectFuzz } from '../../robustness/properties.js';
import { FUZZ_SEED } from '../../robustness/requests.js';

const RUNS = 10_000;

test(`${RUNS} generated requests: documented statuses, Error bodies, no internals, every 200 stored (seed ${FUZZ_SEED})`, async () => {
  const run = injectFuzz();
  try {
    await fc
      .assert(run.property, { numRuns: RUNS, seed: FUZZ_SEED, endOnFailure: true, includeErrorInReport: true })
      .catch((error: Error) => {
        throw new Error(`fuzz failed with seed ${FUZZ_SEED} (replay with FUZZ_SEED=${FUZZ_SEED}): ${error.message}`);
      });
    assert.equal(run.tally.total, RUNS);
    // Every 200 to POST /plants is a plant the store holds: nothing accepted is lost.
    assert.equal((await run.app.plantStore.usage()).plants, run.created());
    // The generators reach every check of the order of checks (docs/server.md), or the run proves little.
    for (const status of ['200', '400', '401', '404', '405', '413', '415']) {
      assert.ok((run.tally.counts.get(status) ?? 0) > 0, `no ${status} in ${run.tally.toString()}`);
    }
    console.log(`fuzz (inject, seed ${FUZZ_SEED}): ${run.tally.toString()}`);
  } finally {
    await run.app.close();
  }
});
