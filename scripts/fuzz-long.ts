// The fuzz properties of test/robustness, run much longer than npm test does.
//
//   npm run fuzz:long -- [--requests 200000] [--connections 5000] [--seed N]
//
// --requests generated requests through app.inject(), --connections raw
// socket cases (each a connection with up to 4 pipelined requests). The seed
// defaults to FUZZ_SEED or the tests' seed. Prints the counts per status and
// exits 1 with the counterexample on the first failure.
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { StatusTally } from '../robustness/answers.js';
import { fuzzApp, injectFuzz } from '../robustness/properties.js';
import { FUZZ_SEED } from '../robustness/requests.js';
import { wireCaseArb, wireCaseProblems } from '../robustness/wire-requests.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '200000' },
    connections: { type: 'string', default: '5000' },
    seed: { type: 'string' },
  },
});
const requests = count('requests', values.requests);
const connections = count('connections', values.connections);
const seed = values.seed === undefined ? FUZZ_SEED : count('seed', values.seed);

function count(name: string, raw: string | undefined): number {
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) {
    console.error(`fuzz:long: --${name} must be a whole number, got ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return value;
}

console.log(`fuzz:long: ${requests} requests through inject, ${connections} socket connections, seed ${seed}`);
console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}`);
let failed = false;

// Progress every 10%, so a long run shows it is alive.
function progress(label: string, done: number, of: number, started: number, tally: StatusTally): void {
  if (of >= 10 && done % Math.ceil(of / 10) === 0) {
    console.log(
      `  ${label} ${done}/${of} after ${((performance.now() - started) / 1000).toFixed(0)} s: ${tally.toString()}`,
    );
  }
}

{
  const run = injectFuzz();
  const started = performance.now();
  let done = 0;
  const property = run.property.afterEach(() => progress('inject', ++done, requests, started, run.tally));
  try {
    await fc.assert(property, { numRuns: requests, seed, endOnFailure: true, includeErrorInReport: true });
    if ((await run.app.plantStore.usage()).plants !== run.created())
      throw new Error(
        `${run.created()} creates answered 200 but the store holds ${(await run.app.plantStore.usage()).plants} plants`,
      );
  } catch (error) {
    failed = true;
    console.error(`inject fuzz FAILED (seed ${seed}): ${(error as Error).message}`);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `inject: ${run.tally.total} requests in ${seconds.toFixed(1)} s (${(run.tally.total / seconds).toFixed(0)}/s); per status: ${run.tally.toString()}; creates answered 200: ${run.created()}, plants stored: ${(await run.app.plantStore.usage()).plants}`,
  );
  await run.app.close();
}

if (connections > 0) {
  const app = fuzzApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const tally = new StatusTally();
  const started = performance.now();
  let done = 0;
  let created = 0;
  const property = fc
    .asyncProperty(wireCaseArb, async (wireCase) => {
      const { problems, statuses, created: createdHere } = await wireCaseProblems(port, wireCase);
      created += createdHere;
      for (const status of statuses) tally.add(status);
      if (problems.length > 0)
        throw new Error(
          `${JSON.stringify(wireCase.bytes.toString('latin1').slice(0, 600))}:\n  ${problems.join('\n  ')}`,
        );
    })
    .afterEach(() => progress('sockets', ++done, connections, started, tally));
  try {
    await fc.assert(property, { numRuns: connections, seed, endOnFailure: true, includeErrorInReport: true });
    if ((await app.plantStore.usage()).plants !== created)
      throw new Error(
        `${created} creates answered 200 but the store holds ${(await app.plantStore.usage()).plants} plants`,
      );
  } catch (error) {
    failed = true;
    console.error(`socket fuzz FAILED (seed ${seed}): ${(error as Error).message}`);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `sockets: ${done} connections, ${tally.total} answers in ${seconds.toFixed(1)} s; per status: ${tally.toString()}; creates answered 200: ${created}, plants stored: ${(await app.plantStore.usage()).plants}`,
  );
  await app.close();
}

process.exit(failed ? 1 : 0);
