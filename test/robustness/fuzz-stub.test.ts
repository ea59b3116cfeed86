// Fuzzing the stub: delayed answers (who waits, the cap, nothing stored
// before the delay ends) and the journal's size and redaction
// (robustness/stub.ts). The seed is fixed; FUZZ_SEED replays another.
import { test } from 'node:test';
import fc from 'fast-check';
import { FUZZ_SEED } from '../../robustness/requests.js';
import { delayedAnswersProperty, journalSizeProperty } from '../../robustness/stub.js';

const replay = (error: Error): never => {
  throw new Error(`fuzz failed with seed ${FUZZ_SEED} (replay with FUZZ_SEED=${FUZZ_SEED}): ${error.message}`);
};

test(`delayed answers: only authenticated requests to the operation wait, at most the cap at once, nothing stored before the delay ends (seed ${FUZZ_SEED})`, async () => {
  await fc.assert(delayedAnswersProperty(), { numRuns: 150, seed: FUZZ_SEED, endOnFailure: true }).catch(replay);
});

test(`journal size: every page answers 200 within its bounds, the entries within the byte budget, no credential shown (seed ${FUZZ_SEED})`, async () => {
  await fc.assert(journalSizeProperty(), { numRuns: 100, seed: FUZZ_SEED, endOnFailure: true }).catch(replay);
});
