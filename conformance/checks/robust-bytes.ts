// PS-ROBUST-001: bytes a fragile server trips on, sent as a create's body:
// not UTF-8, nesting left open far beyond any sensible depth, numbers of
// thousands of digits, bodies from a byte to the 1 MiB that is a common body
// limit. None may earn a 5xx, a dropped connection or a hang.
import type { Exchange } from './exchange.js';
import { Numeral, toJson } from '../model/json.js';
import { UNNAMED_PROPERTY } from '../cases/keyword-cases.js';
import { describe, each, hung, noAnswer, serverFailure } from './grades.js';
import { createRequest, idField, invalidPlant, stringFields, validPlant } from './requests.js';
import { rfc, RFC9110_15_6 } from './sources.js';
import type { Check, CheckContext, ExchangeCheck, Verdict } from './types.js';

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
    // Each family of hostile characters in both forms (issue 44): the raw bytes above, the JSON escapes here.
    {
      kind: 'unpredictable',
      note: 'an unpaired low surrogate escape "\\udc00" (RFC 8259 §8.2: behaviour unpredictable)',
      raw: splicedIntoString(ctx, 'ab\\udc00cd'),
    },
    {
      kind: 'unpredictable',
      note: 'surrogate escapes in reverse order "\\udc00\\ud800" (RFC 8259 §8.2: behaviour unpredictable)',
      raw: splicedIntoString(ctx, 'ab\\udc00\\ud800cd'),
    },
    {
      kind: 'not-json',
      note: 'a low surrogate encoded as UTF-8 (0xED 0xB0 0x80)',
      raw: splicedIntoString(ctx, 'ab', [0xed, 0xb0, 0x80], 'cd'),
    },
    // RFC 8259 §7: control characters (U+0000 to U+001F) MUST be escaped; raw, they are not JSON.
    { kind: 'not-json', note: 'a raw NUL byte in a string (0x00)', raw: splicedIntoString(ctx, 'ab', [0x00], 'cd') },
    {
      kind: 'not-json',
      note: 'raw control characters in a string (0x01 0x1F)',
      raw: splicedIntoString(ctx, 'ab', [0x01, 0x1f], 'cd'),
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
    'MUST for JSON that is not a valid NewPlant (rule 2: a 2xx fails), and for a 5xx, a dropped connection or a hang on any input: the client erred (RFC 9110 §15.5), and the only error the specification declares is the 400 (Errors, rule 1). Bytes that are not JSON accepted are non-strict (RFC 8259 §9 lets a parser accept non-JSON forms); text whose meaning RFC 8259 leaves unpredictable (§8.2 a lone surrogate escape, high or low or in reverse order; §8.1 a byte order mark; §4 a repeated name) passes with any answer but a failure: nothing binds what it is answered, so a declared 400 passes and so does a 2xx. Each family of hostile characters is sent in both forms: raw (surrogates encoded as UTF-8, control characters unescaped: not JSON) and as JSON escapes (a lone surrogate here; noncharacters and NUL, which are valid, in PS-ACCEPT-013).',
  evidence:
    'An HTTP answer within the deadline: a 4xx, or for the unpredictable inputs any status below 500; each hostile body otherwise what the document allows, with a fresh id.',
  cases: (ctx) =>
    hostileBodies(ctx).map(({ raw, ...input }) => ({
      request: createRequest(ctx, { raw }, { note: input.note }),
      sent: input,
    })),
  verify: (cases) => each(cases, (c) => gradeHostile(c.exchange, c.sent)),
};

export const robustByteChecks: Check[] = [hostile];
