// State: what the store keeps between requests.
import { noteText } from '../model/json.js';
import { describe, noAnswer } from './grades.js';
import { errorBodyProblem, gradeAccepted } from './body-grades.js';
import { idsDoublesMerge } from '../cases/bodies.js';
import { createRequest, idField, preferring, stringFields, validPlant, type Body } from './requests.js';
import { PLANT_STORE_SPEC } from './sources.js';
import { MAX_BATCH, type CaseExchange, type Check, type ExchangeCheck, type Verdict } from './types.js';
import { createOf } from '../model/spec-model.js';
import { operationName } from '../model/operation-model.js';
import { bodyNoun, declaredAnswerProblem } from './declared.js';
import { stateReadChecks } from './state-read.js';
import { stateUpdateChecks } from './state-update.js';
import { stateNestedChecks } from './state-nested.js';
import { stateGoneChecks } from './state-gone.js';
import { errorCovers, errorStatusText } from '../model/create-model.js';

const duplicateId: ExchangeCheck<Body> = {
  kind: 'exchange',
  id: 'PS-STATE-001',
  family: 'a repeated id',
  title: 'A second create with the same id is rejected',
  level: 'SHOULD',
  source: { document: 'Reference server decision', section: 'docs/server.md, Behaviour: id already stored' },
  // The specification is silent on state ("States of a plant: not shown"),
  // so a second 200 is our decision broken, not the specification's:
  // non-strict.
  requirement:
    'id already stored: 400, error 40004. The specification declares only 400 for errors, so a duplicate is 400 (not 409). Where a document declares 409 for its create, RFC 9110 §15.5.10: "The 409 (Conflict) status code indicates that the request could not be completed due to a conflict with the current state of the target resource."',
  grading:
    'SHOULD: the specification is silent on state ("States of a plant: not shown"), so refusing a repeated id is our decision: a second 200 is non-strict. A refusal with the declared 400 must carry an Error body (Errors, rule 1: MUST). Where the create declares 409 (the document names the conflict), a second 2xx fails, 409 with its declared body passes, another 4xx is non-strict. Where the server assigns ids: skip (no id to repeat).',
  evidence:
    'A fresh create answered 200 with the Plant, then, after a create of another id, the same id with another name refused (400 with an Error body for a pass).',
  // The same id again with another name (a target that refuses a repeated name is not one that refuses a
  // repeated id), after a create of another id (nor is one that remembers only the last id).
  cases: (ctx) => {
    idField(ctx);
    const name = stringFields(ctx).required[0];
    const first = name ? preferring(ctx, validPlant(ctx), { [name]: 'first' }) : validPlant(ctx);
    const between = name ? preferring(ctx, validPlant(ctx), { [name]: 'between' }) : validPlant(ctx);
    const second = name ? preferring(ctx, first, { [name]: 'second' }) : first;
    return [
      { request: createRequest(ctx, first, { note: 'a fresh id' }), sent: first },
      { request: createRequest(ctx, between, { note: 'another fresh id' }), sent: between },
      { request: createRequest(ctx, second, { note: 'the first id again' }), sent: second },
    ];
  },
  verify: (cases, ctx) => {
    const [first, between, again] = cases as [CaseExchange<Body>, CaseExchange<Body>, CaseExchange<Body>];
    for (const [i, c] of [first, between].entries()) {
      const v = gradeAccepted(ctx, c.exchange, c.sent);
      if (v.outcome !== 'pass') return { ...v, exchange: i };
    }
    const b = again.exchange;
    const missing = noAnswer(b);
    if (missing) return { ...missing, exchange: 2 };
    const status = b.response!.status;
    const conflict = createOf(ctx.model).responses.get('409');
    if (conflict) {
      // The document declares the conflict: its 409 is the answer (RFC 9110 §15.5.10), held to its declaration.
      const expected = `409 with the body ${operationName(createOf(ctx.model))} declares for it`;
      if (status === 409) {
        const problem = declaredAnswerProblem(conflict, b);
        return problem
          ? { outcome: 'fail', expected, actual: `${problem}: ${describe(b)}`, exchange: 2 }
          : { outcome: 'pass' };
      }
      return {
        outcome: status >= 200 && status < 300 ? 'fail' : 'non-strict',
        expected,
        actual: describe(b),
        exchange: 2,
        cause:
          status < 300
            ? `a create of an id already stored is accepted, where ${operationName(createOf(ctx.model))} declares 409`
            : `a create of an id already stored is answered ${status}, not the 409 declared`,
      };
    }
    const create = createOf(ctx.model);
    const expected = `${errorStatusText(create.error)} with ${bodyNoun(create.error)}`;
    if (errorCovers(create, status)) {
      const problem = errorBodyProblem(ctx, b);
      // Plant Store specification, Errors rule 1 binds every 400, whatever its cause.
      return problem
        ? { outcome: 'fail', expected, actual: `${problem}: ${describe(b)}`, exchange: 2 }
        : { outcome: 'pass' };
    }
    return { outcome: 'non-strict', expected, actual: describe(b), exchange: 2 };
  },
};

const exactIds: ExchangeCheck<Body> = {
  kind: 'exchange',
  id: 'PS-STATE-002',
  family: 'ids above 2^53',
  title:
    "Ids above 2^53 are exact: n, n+1 and n+2 (n = 2^53 + 4k; steps of the id's multipleOf where it has one) are three different plants",
  level: 'MUST',
  source: { document: PLANT_STORE_SPEC, section: 'NewPlant: id integer, format int64' },
  requirement:
    'id | integer | int64 | yes | Identification number of the plant. (An int64 is exact: a server that reads ids as doubles merges n+1 into a neighbour, since no odd integer between 2^53 and 2^54 is a double.)',
  grading:
    "MUST: three valid int64 ids are three valid NewPlants, so rule 1 binds each create; a refusal of one as another's duplicate fails.",
  evidence:
    'Three creates of ids a double cannot tell apart, each answered 200 with its Plant, by a target that refuses a known duplicate (the second id sent again, with another name): only then does a merge show. A target that accepts the duplicate: skip; a document that allows no such ids: skip.',
  cases: (ctx) => {
    // n, n+s and n+2s (s: the smallest step the id's keywords allow, 1 for
    // int64) above 2^53, where doubles are at least 2s apart and n is a
    // multiple of twice their gap, with a run-unique offset: IEEE
    // round-half-to-even maps n+s to n, truncation too; either way two
    // creates collide on a server that keeps ids as doubles
    // (bodies.ts idsDoublesMerge; RuledOut when the document allows no such ids).
    const { ids } = idsDoublesMerge(ctx.model, ctx.ids, 3);
    const name = stringFields(ctx).required[0];
    const bodies = ids.map((id) => {
      const body = validPlant(ctx, { [idField(ctx)]: id });
      return name ? preferring(ctx, body, { [name]: `exact ${id}` }) : body;
    });
    return [
      ...bodies.map((b) => ({ request: createRequest(ctx, b, { note: `id ${noteText(b[idField(ctx)])}` }), sent: b })),
      // Another name: a target that refuses a repeated name, not a repeated id, would hide merged ids.
      {
        request: createRequest(
          ctx,
          name
            ? preferring(ctx, bodies[1]!, { [name]: `exact ${noteText(bodies[1]![idField(ctx)])} again` })
            : { ...bodies[1]! },
          { note: 'the second id again: does the target reject a duplicate?' },
        ),
        sent: bodies[1]!,
      },
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
      if (v.outcome !== 'pass')
        return {
          ...v,
          exchange: i,
          expected: `${v.expected} (id ${noteText(sent[idField(ctx)])} is a plant of its own)`,
        };
    }
    return { outcome: 'pass' };
  },
};

/** Creates of one id sent at once: a whole batch. */
const RACE_SIZE = MAX_BATCH;

const concurrentDuplicates: ExchangeCheck<Body> = {
  kind: 'exchange',
  id: 'PS-STATE-003',
  family: 'creates of one id at once',
  // Eight creates at once: a flood for some servers. After every ordinary check, alone.
  stage: 'load',
  title: `Creates of one id sent at once (${RACE_SIZE}) are treated as sent one after the other: a target that refuses a repeated id accepts exactly one`,
  level: 'SHOULD',
  source: { document: 'Reference server decision', section: 'docs/server.md, Behaviour: id already stored' },
  // The specification says nothing of state, so refusing a repeated id is
  // each server's decision (PS-STATE-001). But a server that refuses it when
  // sent twice in a row and stores it twice when sent at once contradicts
  // itself: its answers depend on timing. That is reported as non-strict,
  // with the counts, since no binding rule is broken.
  requirement:
    'id already stored: 400, error 40004 (a reference server decision). Whatever a server decides, its answer to a create does not depend on whether another create of the same id is in flight: of concurrent creates of one fresh id, a server that refuses repeated ids accepts exactly one.',
  grading:
    'SHOULD: no binding rule forbids a race; a target that refuses a repeated id sent after the first was answered but accepts it twice when sent at once, or answers the creates sent at once otherwise than the repeat (a 5xx where the repeat got 400, say), contradicts itself: non-strict, with the counts.',
  evidence:
    'A fresh create accepted, the same id refused when sent after it, then of 8 concurrent creates of another fresh id exactly one accepted with its Plant, the others answered with the status the repeat got. A target that accepts repeated ids: skip.',
  cases: (ctx) => {
    idField(ctx);
    const name = stringFields(ctx).required[0];
    const named = (text: string) => (name ? preferring(ctx, validPlant(ctx), { [name]: text }) : validPlant(ctx));
    const first = named('one after the other');
    const race = named('at once');
    return [
      { request: createRequest(ctx, first, { note: 'a fresh id' }), sent: first },
      { request: createRequest(ctx, first, { note: 'the same id again, after the answer' }), sent: first },
      ...Array.from({ length: RACE_SIZE }, (_, i) => ({
        request: createRequest(ctx, race, { note: `another fresh id, create ${i + 1} of ${RACE_SIZE} sent at once` }),
        sent: race,
        batch: 1,
      })),
    ];
  },
  verify: (cases, ctx) => {
    const answered = (i: number) => cases[i]!.exchange.response?.status;
    const ok = (status: number | undefined) => status !== undefined && status >= 200 && status < 300;
    const missing = [0, 1].map((i) => noAnswer(cases[i]!.exchange)).find(Boolean);
    if (missing) return missing;
    const accepted = gradeAccepted(ctx, cases[0]!.exchange, cases[0]!.sent);
    if (accepted.outcome !== 'pass') return { ...accepted, exchange: 0 };
    if (ok(answered(1)))
      return {
        outcome: 'skip',
        exchange: 1,
        actual: `the target accepts a repeated id sent after the first was answered (${describe(cases[1]!.exchange)}): nothing to compare concurrent creates with`,
      };
    const race = cases.slice(2);
    const winners = race.map((c, i) => ({ c, i: i + 2 })).filter(({ c }) => ok(c.exchange.response?.status));
    if (winners.length === 0) {
      const v = gradeAccepted(ctx, race[0]!.exchange, race[0]!.sent);
      return { ...v, exchange: 2, expected: `${v.expected} (one of ${RACE_SIZE} concurrent creates of a fresh id)` };
    }
    const v = gradeAccepted(ctx, winners[0]!.c.exchange, winners[0]!.c.sent);
    if (v.outcome !== 'pass') return { ...v, exchange: winners[0]!.i };
    const expected = `exactly 1 of ${RACE_SIZE} concurrent creates of one fresh id accepted, the others refused as the same id sent after the first was answered (${answered(1)})`;
    if (winners.length > 1) {
      return {
        outcome: 'non-strict',
        exchange: winners[1]!.i,
        expected,
        actual: `${winners.length} of ${RACE_SIZE} accepted: the target stores one id more than once when the creates overlap (a check-then-insert race)`,
      };
    }
    // The losers: refused as the repeat sent after the first was, not with a 5xx or a dropped connection (a unique constraint that caught the race, say).
    const unlike = race
      .map((c, i) => ({ c, i: i + 2 }))
      .filter(({ c }) => !ok(c.exchange.response?.status) && c.exchange.response?.status !== answered(1));
    if (unlike.length > 0) {
      return {
        outcome: 'non-strict',
        exchange: unlike[0]!.i,
        expected,
        actual: `${unlike.length} of ${RACE_SIZE} answered otherwise than the repeat: ${describe(unlike[0]!.c.exchange)}`,
      };
    }
    return { outcome: 'pass' };
  },
};

// PS-STATE-004 to 009, every resource's state, are in state-read.ts, state-gone.ts, state-update.ts and state-nested.ts.
export const stateChecks: Check[] = [
  duplicateId,
  exactIds,
  concurrentDuplicates,
  ...stateReadChecks,
  ...stateGoneChecks,
  ...stateUpdateChecks,
  ...stateNestedChecks,
];
