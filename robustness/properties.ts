// The fuzz properties, run by the tests with a bounded count and by
// scripts/fuzz-long.ts with a large one.
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app.js';
import { answerProblems, StatusTally } from './answers.js';
import { expectationFor, FUZZ_BODY_LIMIT, FUZZ_TOKEN, fuzzRequestArb, idSequence } from './requests.js';

export interface InjectFuzzRun {
  app: FastifyInstance;
  property: fc.IAsyncPropertyWithHooks<[import('./requests.js').FuzzRequest]>;
  tally: StatusTally;
  /** 200 answers to POST /plants: each must be a plant in the store. */
  created: () => number;
}

/** The app every fuzz run attacks: one accepted token, a small body limit. */
export function fuzzApp(): FastifyInstance {
  return buildApp({ tokens: [FUZZ_TOKEN], bodyLimit: FUZZ_BODY_LIMIT, maxPlants: 10_000_000 });
}

/**
 * Property: whatever the request, app.inject() resolves with a documented
 * status allowed for that request, a JSON body that is an Error record (or
 * the Plant sent), and no internals.
 */
export function injectFuzz(): InjectFuzzRun {
  const app = fuzzApp();
  const tally = new StatusTally();
  let created = 0;
  const property = fc.asyncProperty(fuzzRequestArb(idSequence(1n)), async (request) => {
    const expectation = expectationFor(request);
    const response = await app.inject({
      method: request.method as 'POST',
      url: request.url,
      headers: request.headers,
      ...(request.payload !== undefined ? { payload: request.payload } : {}),
    });
    tally.add(response.statusCode);
    if (response.statusCode === 200 && !expectation.health) created++;
    const problems = answerProblems(
      {
        status: response.statusCode,
        headers: response.headers as Record<string, string | string[] | undefined>,
        body: response.body,
      },
      expectation,
    );
    if (problems.length > 0) {
      throw new Error(
        `${request.method} ${request.url} ${JSON.stringify(request.headers)} body ${JSON.stringify(request.payload?.toString('latin1').slice(0, 300))}:\n  ${problems.join('\n  ')}`,
      );
    }
  });
  return { app, property, tally, created: () => created };
}
