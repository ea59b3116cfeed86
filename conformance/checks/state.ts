// State: what the store keeps between requests.
import type { Exchange } from '../http.js';
import type { JsonValue } from '../json.js';
import { create, describe, errorBodyProblem, gradeAccepted, idField, noAnswer, validPlant } from './grades.js';
import type { CheckContext, ExchangeCheck, Verdict } from './types.js';

// One map per check: both checks run with the same context.
const dupBodies = new WeakMap<CheckContext, Array<Record<string, JsonValue>>>();
const exactBodies = new WeakMap<CheckContext, Array<Record<string, JsonValue>>>();

export const stateChecks: ExchangeCheck[] = [
  {
    kind: 'exchange',
    id: 'PS-STATE-001',
    title: 'A second create with the same id is rejected',
    level: 'SHOULD',
    source: { document: 'README (reference server decision)', section: 'Behaviour: id already stored' },
    // The seed is silent on state ("States of a plant: not shown"), so a
    // second 200 is our decision broken, not the seed's: non-strict.
    requirement: 'id already stored: 400, error 40004. The specification declares only 400 for errors, so a duplicate is 400 (not 409).',
    requests: (ctx) => {
      const first = validPlant(ctx, { name: 'first' });
      const second = { ...first, name: 'second' };
      dupBodies.set(ctx, [first, second]);
      return [create(ctx, first, { note: 'a fresh id' }), create(ctx, second, { note: 'the same id again' })];
    },
    verify: (exchanges, ctx) => {
      const [a, b] = exchanges as [Exchange, Exchange];
      const v = gradeAccepted(ctx, a, dupBodies.get(ctx)![0]!);
      if (v.outcome !== 'pass') return { ...v, exchange: 0 };
      const missing = noAnswer(b);
      if (missing) return { ...missing, exchange: 1 };
      const status = b.response!.status;
      const expected = `${ctx.model.create.error.status} with an ${ctx.model.create.error.schemaName} body`;
      if (String(status) === ctx.model.create.error.status) {
        const problem = errorBodyProblem(ctx, b);
        // Seed, Errors rule 1 binds every 400, whatever its cause.
        return problem ? { outcome: 'fail', expected, actual: `${problem}: ${describe(b)}`, exchange: 1 } : { outcome: 'pass' };
      }
      return { outcome: 'non-strict', expected, actual: describe(b), exchange: 1 };
    },
  },
  {
    kind: 'exchange',
    id: 'PS-STATE-002',
    title: 'Ids above 2^53 are exact: n, n+1 and n+2 (n = 2^53 + 4k) are three different plants',
    level: 'MUST',
    source: { document: 'Plant Store specification', section: 'NewPlant: id integer, format int64' },
    requirement:
      'id | integer | int64 | yes | Identification number of the plant. (An int64 is exact: a server that reads ids as doubles merges n+1 into a neighbour, since no odd integer between 2^53 and 2^54 is a double.)',
    requests: (ctx) => {
      // n = 2^53 + 4k with a run-unique k, so a rerun meets fresh ids. With
      // n divisible by 4, IEEE round-half-to-even maps n+1 to n and n+3 to
      // n+4; truncation maps n+1 to n; either way two creates collide.
      const n = 2n ** 53n + 4n * ctx.ids.offset;
      const list = [n, n + 1n, n + 2n].map((id) => validPlant(ctx, { [idField(ctx)]: id, name: `exact ${id}` }));
      exactBodies.set(ctx, list);
      return [
        ...list.map((b) => create(ctx, b, { note: `id ${String(b[idField(ctx)])}` })),
        create(ctx, { ...list[1]! }, { note: 'n+1 again: does the target reject a duplicate?' }),
      ];
    },
    verify: (exchanges, ctx): Verdict => {
      const list = exactBodies.get(ctx)!;
      const probe = exchanges[3]!;
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
        const v = gradeAccepted(ctx, exchanges[i]!, list[i]!);
        if (v.outcome !== 'pass') return { ...v, exchange: i, expected: `${v.expected} (id ${String(list[i]![idField(ctx)])} is a plant of its own)` };
      }
      return { outcome: 'pass' };
    },
  },
];
