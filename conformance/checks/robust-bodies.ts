// PS-ROBUST-002 and 003: bodies that are JSON, sent to create. Valid ones
// with an extreme value (nesting 10 000 deep, 5 000 digits, 1 MiB) must be
// accepted, or refused within what RFC 8259 §9 lets a parser limit; an
// invalid one carrying a fresh id must store nothing, so that its id can be
// created next.
import { bodyNoun } from './declared.js';
import type { Exchange } from './exchange.js';
import { Numeral, toJson, type JsonValue } from '../model/json.js';
import { UNNAMED_PROPERTY } from '../cases/keyword-cases.js';
import { describe, each, hung, noAnswer, serverFailure } from './grades.js';
import { errorBodyProblem, gradeAccepted } from './body-grades.js';
import { RuledOut } from '../cases/draw.js';
import type { InstancePath } from '../cases/schema-values.js';
import { createRequest, idField, invalidPlant, stringFields, validPlant, whyInvalid, type Body } from './requests.js';
import { rfc, RFC9110_15_6, spec } from './sources.js';
import type { Check, CheckContext, ExchangeCheck, Verdict } from './types.js';
import { createOf } from '../model/spec-model.js';
import { errorCovers, errorStatusText } from '../model/create-model.js';

interface Extreme {
  note: string;
  /** The body as graded (what must come back); the sent text has the extreme value spliced in. */
  plant: Body;
  /** Why the document refuses the body (so a rejection is right), or undefined when it is valid. */
  invalid: string | undefined;
}

/**
 * The valid plant with the unnamed property holding `proxy` (a small value of
 * the same type, for the validator), written with `text` in its place. Where
 * the extreme value is given as `exact`, it is graded too: an answer that
 * echoes the property must carry it back as sent.
 */
function extremeCase(
  ctx: CheckContext,
  note: string,
  proxy: JsonValue,
  text: string,
  exact?: JsonValue,
): { raw: string; sent: Extreme } {
  const plant = validPlant(ctx);
  const marker = '"__conformance_extreme__"';
  const raw = toJson({ ...plant, [UNNAMED_PROPERTY]: '__conformance_extreme__' }).replace(marker, text);
  const graded = exact === undefined ? plant : { ...plant, [UNNAMED_PROPERTY]: exact };
  return { raw, sent: { note, plant: graded, invalid: whyInvalid(ctx, { ...plant, [UNNAMED_PROPERTY]: proxy }) } };
}

function extremeBodies(ctx: CheckContext): Array<{ raw: string; sent: Extreme }> {
  const depth = 10_000;
  const out = [
    extremeCase(
      ctx,
      `arrays nested ${depth} deep in an unnamed property`,
      [],
      `${'['.repeat(depth)}${']'.repeat(depth)}`,
    ),
    extremeCase(
      ctx,
      `objects nested ${depth} deep in an unnamed property`,
      {},
      `${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}`,
    ),
    extremeCase(
      ctx,
      'a number of 5 000 digits in an unnamed property',
      0,
      `1${'0'.repeat(4999)}`,
      new Numeral(`1${'0'.repeat(4999)}`),
    ),
    extremeCase(ctx, 'a number beyond any double (1e400) in an unnamed property', 0, '1e400', new Numeral('1e400')),
    extremeCase(
      ctx,
      'a string of 100 000 escapes (\\u00e9) in an unnamed property',
      'x',
      `"${'\\u00e9'.repeat(100_000)}"`,
      '\u00e9'.repeat(100_000),
    ),
  ];
  // A body just under 1 MiB, padded with whitespace (a large valid body: 200 or 413, RFC 9110 §15.5.14).
  const plant = validPlant(ctx);
  const text = toJson(plant);
  out.push({
    raw: `${text.slice(0, -1)}${' '.repeat(1024 * 1024 - text.length - 1)}}`,
    sent: { note: 'a valid body of 1 MiB, mostly whitespace', plant, invalid: undefined },
  });
  return out;
}

/**
 * RFC 8259 §9 lets a parser limit depth, length and number range: a limit
 * answered with the declared error (400 and an Error body) passes, another
 * 4xx is allowed but not declared (non-strict), and 413 is the RFC's answer
 * to a body too large (RFC 9110 §15.5.14). A 2xx must be the answer to the
 * plant sent (rule 1). A 5xx or a dropped connection fails.
 */
function gradeExtreme(ctx: CheckContext, ex: Exchange, sent: Extreme): Verdict {
  const failed = serverFailure(ex) ?? hung(ex);
  if (failed) return failed;
  const missing = noAnswer(ex);
  if (missing) return missing;
  const status = ex.response!.status;
  if (sent.invalid !== undefined) {
    return status >= 400 && status < 500
      ? { outcome: 'pass' }
      : { outcome: 'fail', expected: `a 4xx rejection (${sent.invalid})`, actual: describe(ex) };
  }
  if (status >= 200 && status < 300) return gradeAccepted(ctx, ex, sent.plant);
  if (status === 413) return { outcome: 'pass' };
  // A limit RFC 8259 §9 allows, answered as the document declares errors (the reference server's depth bound is one).
  if (errorCovers(createOf(ctx.model), status) && errorBodyProblem(ctx, ex) === undefined) return { outcome: 'pass' };
  if (status >= 400 && status < 500) {
    return {
      outcome: 'non-strict',
      expected: `200 with the plant, 413, or a declared ${errorStatusText(createOf(ctx.model).error)} with ${bodyNoun(createOf(ctx.model).error)} for a limit RFC 8259 §9 allows`,
      actual: describe(ex),
    };
  }
  return { outcome: 'fail', expected: '200 with the plant, or 413', actual: describe(ex) };
}

const extreme: ExchangeCheck<Extreme> = {
  kind: 'exchange',
  id: 'PS-ROBUST-002',
  family: 'valid but extreme bodies',
  // Nesting 10 000 deep, 1 MiB: after every ordinary check, alone.
  stage: 'extreme',
  title:
    'Valid but extreme bodies (nesting 10 000 deep, 5 000 digits, 1 MiB) get 200 with the plant, or 413: never a 5xx or a dropped connection',
  level: 'MUST',
  source: rfc(9110, '§15.5.14 413 Content Too Large', 'section-15.5.14'),
  grading:
    'MUST: a valid body must get 200 with the plant (rule 1), or 413 (RFC 9110 §15.5.14), or the declared 400 with an Error body for a limit RFC 8259 §9 allows (depth, size, number range); another 4xx for such a limit is non-strict; a 5xx, a dropped connection or a hang fails.',
  evidence:
    'The answer to each extreme body, valid but for the extreme value (or refused where the document rules the extreme value out): 200 with the plant, 413, or the declared 400 with an Error body.',
  requirement: `The 413 (Content Too Large) status code indicates that the server is refusing to process a request because the request content is larger than the server is willing or able to process. RFC 8259 §9: An implementation may set limits on the size of texts that it accepts ... on the maximum depth of nesting ... on the range and precision of numbers. ${RFC9110_15_6}`,
  // An unnamed property must be allowed for the extreme values to be valid; a document that forbids it makes each a plain rejection.
  cases: (ctx) =>
    extremeBodies(ctx).map(({ raw, sent }) => ({ request: createRequest(ctx, { raw }, { note: sent.note }), sent })),
  verify: (cases, ctx) => each(cases, (c) => gradeExtreme(ctx, c.exchange, c.sent)),
};

/**
 * Invalid bodies that carry a fresh, valid id (given with each), each valid
 * but for one change (bodies.ts plantBrokenBy): a target that stores before
 * it validates keeps the id. Changes the document allows are not sent.
 */
function invalidWithId(ctx: CheckContext): Array<{ body: JsonValue | { raw: string }; id: JsonValue; note: string }> {
  const { required, optional } = stringFields(ctx);
  const id = idField(ctx);
  const out: Array<{ body: JsonValue | { raw: string }; id: JsonValue; note: string }> = [];
  const broken = (path: InstancePath, value: JsonValue | undefined, note: string) => {
    try {
      const body = invalidPlant(ctx, path, value) as Body;
      out.push({ body, id: body[id]!, note });
    } catch (err) {
      if (!(err instanceof RuledOut)) throw err;
    }
  };
  for (const name of [...required, ...optional]) broken([name], 12345, `${name} is a number`);
  for (const name of createOf(ctx.model).request.required.filter((n) => n !== id))
    broken([name], undefined, `${name} is missing`);
  const plant = validPlant(ctx);
  out.push({ body: { raw: `${toJson(plant)} garbage` }, id: plant[id]!, note: 'a valid plant followed by garbage' });
  return out;
}

interface Pair {
  /** The valid plant sent second, with the id of the refused one. */
  body: Body;
  note: string;
}

const nothingStored: ExchangeCheck<Pair> = {
  kind: 'exchange',
  id: 'PS-ROBUST-003',
  family: "a refused body's id created next",
  title: 'A refused body stores nothing: its id can then be created',
  level: 'MUST',
  source: spec('Create plant, rules 1 and 2'),
  requirement:
    'When the request body is not a valid NewPlant record, then the service answers 400 with an Error record. When the request body is a valid NewPlant record, then the service answers 200 with a Plant record. (A refused request has no effect: the id it carried was never stored, so a valid create of it is answered 200.)',
  grading:
    'MUST: after a refusal the id is still fresh, so the valid create of it is bound by rule 1: anything but 200 with the Plant fails.',
  evidence:
    'Each invalid body (valid but for one change, with a fresh id) refused with a 4xx, then a valid create of the same id answered 200 with the Plant: the state shows that the refusal stored nothing. No body refused: skip.',
  cases: (ctx) =>
    invalidWithId(ctx).flatMap(({ body, id, note }) => {
      const sent = { body: validPlant(ctx, { [idField(ctx)]: id }), note };
      return [
        { request: createRequest(ctx, body, { note: `refused first: ${note}` }), sent },
        { request: createRequest(ctx, sent.body, { note: `then a valid create of its id (after: ${note})` }), sent },
      ];
    }),
  verify: (cases, ctx) => {
    const verdicts: Verdict[] = [];
    let applicable = 0;
    for (let i = 0; i + 1 < cases.length; i += 2) {
      const refused = cases[i]!;
      const then = cases[i + 1]!;
      const status = refused.exchange.response?.status;
      // Accepting the invalid body is graded by the PS-REJECT checks; then the id is rightly taken.
      if (status === undefined || status < 400 || status >= 500) continue;
      applicable++;
      const v = gradeAccepted(ctx, then.exchange, then.sent.body);
      if (v.outcome !== 'pass')
        verdicts.push({
          ...v,
          exchange: i + 1,
          expected: `${v.expected} (the refused request before it, ${then.sent.note}, stored nothing)`,
        });
    }
    if (applicable === 0)
      return { outcome: 'skip', actual: 'the target refused none of the invalid bodies with a 4xx' };
    return verdicts[0] ?? { outcome: 'pass' };
  },
};

export const robustBodyChecks: Check[] = [extreme, nothingStored];
