// State: what the store keeps between requests.
import { describe, errorBodyProblem, gradeAccepted, noAnswer } from './grades.js';
import { createRequest, idField, validPlant, type Body } from './requests.js';
import { PLANT_STORE_SPEC } from './sources.js';
import type { CaseExchange, Check, ExchangeCheck, Verdict } from './types.js';

const duplicateId: ExchangeCheck<Body> = {
  kind: 'exchange',
  id: 'PS-STATE-001',
  title: 'A second create with the same id is rejected',
  level: 'SHOULD',
  source: { document: 'Reference server decision', section: 'docs/server.md, Behaviour: id already stored' },
  // The specification is silent on state ("States of a plant: not shown"),
  // so a second 200 is our decision broken, not the specification's:
  // non-strict.
  requirement: 'id already stored: 400, error 40004. The specification declares only 400 for errors, so a duplicate is 400 (not 409).',
  cases: (ctx) => {
    const first = validPlant(ctx, { name: 'first' });
    const second = { ...first, name: 'second' };
    return [
      { request: createRequest(ctx, first, { note: 'a fresh id' }), sent: first },
      { request: createRequest(ctx, second, { note: 'the same id again' }), sent: second },
    ];
  },
  verify: (cases, ctx) => {
    const [first, again] = cases as [CaseExchange<Body>, CaseExchange<Body>];
    const v = gradeAccepted(ctx, first.exchange, first.sent);
    if (v.outcome !== 'pass') return { ...v, exchange: 0 };
    const b = again.exchange;
    const missing = noAnswer(b);
    if (missing) return { ...missing, exchange: 1 };
    const status = b.response!.status;
    const expected = `${ctx.model.create.error.status} with an ${ctx.model.create.error.schemaName} body`;
    if (String(status) === ctx.model.create.error.status) {
      const problem = errorBodyProblem(ctx, b);
      // Plant Store specification, Errors rule 1 binds every 400, whatever its cause.
      return problem ? { outcome: 'fail', expected, actual: `${problem}: ${describe(b)}`, exchange: 1 } : { outcome: 'pass' };
    }
    return { outcome: 'non-strict', expected, actual: describe(b), exchange: 1 };
  },
};

const exactIds: ExchangeCheck<Body> = {
  kind: 'exchange',
  id: 'PS-STATE-002',
  title: 'Ids above 2^53 are exact: n, n+1 and n+2 (n = 2^53 + 4k) are three different plants',
  level: 'MUST',
  source: { document: PLANT_STORE_SPEC, section: 'NewPlant: id integer, format int64' },
  requirement:
    'id | integer | int64 | yes | Identification number of the plant. (An int64 is exact: a server that reads ids as doubles merges n+1 into a neighbour, since no odd integer between 2^53 and 2^54 is a double.)',
  cases: (ctx) => {
    // n = 2^53 + 4k with a run-unique k, so a rerun meets fresh ids. With
    // n divisible by 4, IEEE round-half-to-even maps n+1 to n and n+3 to
    // n+4; truncation maps n+1 to n; either way two creates collide.
    const n = 2n ** 53n + 4n * ctx.ids.offset;
    const bodies = [n, n + 1n, n + 2n].map((id) => validPlant(ctx, { [idField(ctx)]: id, name: `exact ${id}` }));
    return [
      ...bodies.map((b) => ({ request: createRequest(ctx, b, { note: `id ${String(b[idField(ctx)])}` }), sent: b })),
      { request: createRequest(ctx, { ...bodies[1]! }, { note: 'n+1 again: does the target reject a duplicate?' }), sent: bodies[1]! },
    ];
  },
  verify: (cases, ctx): Verdict => {
    const probe = cases[3]!.exchange;
    const missing = noAnswer(probe);
    if (missing) return { ...missing, exchange: 3 };
    if (probe.response!.status >= 200 && probe.response!.status < 300) {
      return {
        outcome: 'skip',
        exchange: 3,
        expected: 'a target that rejects a duplicate id (otherwise merged ids cannot be observed)',
        actual: `a second create of the same id was accepted: ${describe(probe)}`,
      };
    }
    for (let i = 0; i < 3; i++) {
      const { exchange, sent } = cases[i]!;
      const v = gradeAccepted(ctx, exchange, sent);
      if (v.outcome !== 'pass') return { ...v, exchange: i, expected: `${v.expected} (id ${String(sent[idField(ctx)])} is a plant of its own)` };
    }
    return { outcome: 'pass' };
  },
};

export const stateChecks: Check[] = [duplicateId, exactIds];
