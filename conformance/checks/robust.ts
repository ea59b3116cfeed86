// No input earns a 5xx, and nothing a target refused is stored. The inputs a
// fragile server trips on: bytes that are not UTF-8, nesting far beyond any
// sensible depth, numbers of thousands of digits, bodies from a byte to the
// 1 MiB that is a common body limit.
import type { Exchange } from './exchange.js';
import { Numeral, toJson, type JsonValue } from '../model/json.js';
import { UNNAMED_PROPERTY } from '../cases/keyword-cases.js';
import { describe, each, hung, noAnswer, serverFailure } from './grades.js';
import { errorBodyProblem, gradeAccepted } from './body-grades.js';
import { RuledOut } from '../cases/draw.js';
import type { InstancePath } from '../cases/schema-values.js';
import { createRequest, idField, invalidPlant, stringFields, validPlant, whyInvalid, type Body } from './requests.js';
import { rfc, spec } from './sources.js';
import type { Check, CheckContext, ExchangeCheck, Verdict } from './types.js';
import { createOf } from '../model/spec-model.js';

const RFC9110_15_6 =
  'RFC 9110 §15.5: The 4xx (Client Error) class of status code indicates that the client seems to have erred. §15.6: The 5xx (Server Error) class of status code indicates that the server is aware that it has erred or is incapable of performing the requested method.';

/** What the harness knows of an input: not JSON at all, JSON that is not a valid body, or JSON whose meaning RFC 8259 leaves open. */
type Kind = 'not-json' | 'invalid' | 'unpredictable';

interface Hostile {
  kind: Kind;
  note: string;
}

const bytes = (...parts: Array<string | number[]>): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

/** What a hostile body is spliced into: the JSON text of a valid body, with a marker string where its first string field's value is. */
const MARKER = 'conformance-hostile-marker';

/**
 * The text of a valid body (fresh id) with `bytes` in place of the quoted
 * value of a string field (the required one first, else an optional one,
 * else a property the schema does not name): everything but the spliced
 * bytes is what the document allows. RuledOut when the body has no string
 * to splice into.
 */
function splicedIntoString(ctx: CheckContext, ...parts: Array<string | number[]>): Buffer {
  const { required, optional } = stringFields(ctx);
  const body = validPlant(ctx);
  const field = [...required, ...optional, UNNAMED_PROPERTY][0]!;
  const text = toJson({ ...body, [field]: MARKER });
  const at = text.indexOf(JSON.stringify(MARKER));
  return Buffer.concat([
    Buffer.from(text.slice(0, at), 'utf8'),
    bytes('"', ...parts, '"'),
    Buffer.from(text.slice(at + MARKER.length + 2), 'utf8'),
  ]);
}

/** A valid body's text with its first string member written again, with another value, after it. */
function duplicateMember(ctx: CheckContext): Buffer {
  const body = validPlant(ctx);
  const [name, value] = Object.entries(body).find(([, v]) => typeof v === 'string') ?? [
    idField(ctx),
    body[idField(ctx)]!,
  ];
  const text = toJson(body);
  return Buffer.from(
    `${text.slice(0, -1)},${JSON.stringify(name)}:${toJson(typeof value === 'string' ? `${value} again` : value)}}`,
    'utf8',
  );
}

/** The hostile bodies, each with a fresh id where it has one, and otherwise what the document allows. */
function hostileBodies(ctx: CheckContext): Array<{ raw: Buffer } & Hostile> {
  const id = idField(ctx);
  const invalidId = (text: string) => Buffer.from(toJson(invalidPlant(ctx, [id], new Numeral(text))), 'utf8');
  return [
    { kind: 'not-json', note: 'a byte 0xFF in a string (not UTF-8)', raw: splicedIntoString(ctx, 'ab', [0xff], 'cd') },
    {
      kind: 'not-json',
      note: 'an overlong UTF-8 encoding of "/" (0xC0 0xAF)',
      raw: splicedIntoString(ctx, 'ab', [0xc0, 0xaf], 'cd'),
    },
    {
      kind: 'not-json',
      note: 'a UTF-16 surrogate encoded as UTF-8 (0xED 0xA0 0x80)',
      raw: splicedIntoString(ctx, 'ab', [0xed, 0xa0, 0x80], 'cd'),
    },
    {
      kind: 'not-json',
      note: 'a UTF-8 sequence cut short before the closing quote (0xE2 0x82)',
      raw: splicedIntoString(ctx, 'ab', [0xe2, 0x82]),
    },
    {
      kind: 'unpredictable',
      note: 'an unpaired surrogate escape "\\ud800" (RFC 8259 §8.2: behaviour unpredictable)',
      raw: splicedIntoString(ctx, 'ab\\ud800cd'),
    },
    {
      kind: 'unpredictable',
      note: 'a byte order mark before the text (RFC 8259 §8.1: a parser MAY ignore it rather than treat it as an error)',
      raw: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(toJson(validPlant(ctx)), 'utf8')]),
    },
    {
      kind: 'unpredictable',
      note: 'a member name twice with two values (RFC 8259 §4: the names SHOULD be unique; the behaviour is unpredictable)',
      raw: duplicateMember(ctx),
    },
    { kind: 'not-json', note: '100 000 unclosed "["', raw: Buffer.alloc(100_000, '[') },
    { kind: 'not-json', note: '50 000 unclosed {"a":', raw: Buffer.from('{"a":'.repeat(50_000)) },
    { kind: 'not-json', note: '1 MiB of "[" (a common body limit, reached)', raw: Buffer.alloc(1024 * 1024, '[') },
    { kind: 'invalid', note: 'an id of 5 000 digits', raw: invalidId(`9${'0'.repeat(4999)}`) },
    { kind: 'invalid', note: 'an id of 1e999999999', raw: invalidId('1e999999999') },
    { kind: 'invalid', note: 'an id of -1e-999999999 (not an integer)', raw: invalidId('-1e-999999999') },
    ...['{', '"', '-', '\u0000', '{"', '{"a":1,'].map((text) => ({
      kind: 'not-json' as const,
      note: `the ${text.length}-byte body ${JSON.stringify(text)}`,
      raw: Buffer.from(text),
    })),
  ];
}

/**
 * A 4xx is right. A 2xx to JSON that is not a valid body breaks rule 2; to
 * bytes that are not JSON (RFC 8259 §9: a parser MAY accept non-JSON forms)
 * or to text whose meaning is unpredictable (§8.2), it is allowed.
 */
function gradeHostile(ex: Exchange, input: Hostile): Verdict {
  const failed = serverFailure(ex) ?? hung(ex);
  if (failed) return failed;
  const missing = noAnswer(ex);
  if (missing) return missing;
  const status = ex.response!.status;
  if (status >= 400 && status < 500) return { outcome: 'pass' };
  if (input.kind === 'unpredictable') return { outcome: 'pass' };
  const expected = 'a 4xx rejection';
  if (input.kind === 'invalid')
    return { outcome: 'fail', expected: `${expected} (Create plant, rule 2)`, actual: describe(ex) };
  return {
    outcome: 'non-strict',
    expected: `${expected} (RFC 8259 §9 lets a parser accept non-JSON forms)`,
    actual: describe(ex),
  };
}

const hostile: ExchangeCheck<Hostile> = {
  kind: 'exchange',
  id: 'PS-ROBUST-001',
  family: 'hostile bodies',
  // The inputs most likely to knock a server out: the very last, alone.
  stage: 'hostile',
  title:
    'Hostile bodies (not UTF-8, unclosed nesting, numbers of thousands of digits, 1 byte to 1 MiB) get a 4xx: never a 5xx or a dropped connection',
  level: 'MUST',
  source: rfc(9110, '§15.6 Server Error 5xx', 'section-15.6'),
  requirement: `${RFC9110_15_6} Plant Store specification, Create plant rule 2: When the request body is not a valid NewPlant record, then the service answers 400 with an Error record. RFC 8259 §8.1: JSON text ... MUST be encoded using UTF-8.`,
  grading:
    'MUST for JSON that is not a valid NewPlant (rule 2: a 2xx fails), and for a 5xx, a dropped connection or a hang on any input: the client erred (RFC 9110 §15.5), and the only error the specification declares is the 400 (Errors, rule 1). Bytes that are not JSON accepted are non-strict (RFC 8259 §9 lets a parser accept non-JSON forms); text whose meaning RFC 8259 leaves unpredictable (§8.2 a lone surrogate, §8.1 a byte order mark, §4 a repeated name) passes with any answer but a failure.',
  evidence:
    'An HTTP answer within the deadline: a 4xx, or for the unpredictable inputs any status below 500; each hostile body otherwise what the document allows, with a fresh id.',
  cases: (ctx) =>
    hostileBodies(ctx).map(({ raw, ...input }) => ({
      request: createRequest(ctx, { raw }, { note: input.note }),
      sent: input,
    })),
  verify: (cases) => each(cases, (c) => gradeHostile(c.exchange, c.sent)),
};

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
  if (String(status) === createOf(ctx.model).error.status && errorBodyProblem(ctx, ex) === undefined)
    return { outcome: 'pass' };
  if (status >= 400 && status < 500) {
    return {
      outcome: 'non-strict',
      expected: `200 with the plant, 413, or a declared ${createOf(ctx.model).error.status} with an ${createOf(ctx.model).error.schemaName} body for a limit RFC 8259 §9 allows`,
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

/** Request heads a fragile server trips on, each with a valid body: [header, value, note]. */
function hostileHeads(ctx: CheckContext): Array<[name: string, value: string, note: string]> {
  const json = createOf(ctx.model).requestContentTypes[0]!;
  return [
    ['authorization', `Bearer ${'a'.repeat(8 * 1024)}`, 'a bearer token of 8 KiB'],
    ['authorization', 'Bearer a b', 'two tokens after Bearer'],
    ['authorization', 'Bearer	token', 'a tab after Bearer'],
    ['content-type', `${json}; charset=iso-8859-1`, 'a charset the JSON media type does not allow'],
    ['content-type', `${json}; charset=utf-16`, 'charset=utf-16 with a UTF-8 body'],
    ['content-type', `${json}; =`, 'a parameter without a name'],
    ['content-type', `${json}, text/plain`, 'a list of media types'],
    ['content-type', json.split('/')[0]!, 'a type without a subtype'],
    ['content-type', '', 'an empty Content-Type'],
    ['accept', 'text/html', 'Accept: text/html only'],
  ];
}

const hostileHead: ExchangeCheck = {
  kind: 'exchange',
  id: 'PS-ROBUST-004',
  family: 'odd request heads',
  // An 8 KiB token, malformed media types: after every ordinary check, alone.
  stage: 'extreme',
  title:
    'Odd request heads (an 8 KiB token, two tokens, charsets, malformed media types) are answered: never a 5xx, a dropped connection or a hang',
  level: 'MUST',
  source: rfc(9110, '§15.6 Server Error 5xx', 'section-15.6'),
  requirement: `${RFC9110_15_6} (Any answer below 500 passes: accepting, 400, 401, 406 or 415 are each a server's own choice here; what they get right or wrong is graded by the other checks.)`,
  grading:
    "MUST only for a 5xx, a dropped connection or a hang (RFC 9110 §15.6: the server erred on a request a client may send); every answer below 500 is a server's own choice here, and passes.",
  evidence: 'An HTTP answer below 500 within the deadline to each odd head.',
  cases: (ctx) =>
    hostileHeads(ctx).map(([name, value, note]) => {
      const request = createRequest(ctx, validPlant(ctx), { note });
      return { request: { ...request, headers: { ...request.headers, [name]: value } }, sent: undefined };
    }),
  verify: (cases) =>
    each(cases, ({ exchange: ex }) => serverFailure(ex) ?? hung(ex) ?? noAnswer(ex) ?? { outcome: 'pass' }),
};

export const robustChecks: Check[] = [hostile, extreme, nothingStored, hostileHead];
