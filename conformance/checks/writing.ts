// Every way of writing a valid request. RFC 8259 and RFC 9110 leave a client
// freedoms in how it writes the same request: whitespace, member order and
// escapes in the JSON text; letter case and parameters in the media type;
// the letter case of field names; the transfer coding of the body; the
// spaces after the auth scheme. A valid NewPlant written any of these ways
// is the same request, and must get the same answer, with the same echo, as
// its plain form (Plant Store specification, Create plant rule 1).
import { escapeEvery, escapeShort, writeJson, type Writing } from '../json-writing.js';
import { mediaTypeEssence } from '../../lib/http-syntax.js';
import { ACCEPT_EVIDENCE, ACCEPT_GRADING, each, gradeAccepted } from './grades.js';
import { createRequest, idField, preferring, stringFields, validPlant, type Body } from './requests.js';
import { rfc } from './sources.js';
import type { Case, Check, CheckContext, ExchangeCheck } from './types.js';

const RULE1 = 'Plant Store specification, Create plant rule 1: When the request body is a valid NewPlant record, then the service answers 200 with a Plant record.';

/**
 * A valid body with a fresh id and every property of the document's richest
 * example, its strings made unique where the document allows (an answer
 * that echoes a fixed example, as a mock does, is then told apart).
 */
function richPlant(ctx: CheckContext): Body {
  const plant = validPlant(ctx, {}, 'full');
  const { required, optional } = stringFields(ctx);
  const unique = Object.fromEntries([...required, ...optional].map((name) => [name, `${name} ${String(plant[idField(ctx)])}`]));
  return preferring(ctx, plant, unique);
}

/**
 * The rich plant with string values that have something to escape (a quote,
 * a backslash, a solidus, control characters, a letter outside ASCII, a
 * character outside the BMP), where the document allows them.
 */
function plantWithSpecials(ctx: CheckContext): Body {
  const { required, optional } = stringFields(ctx);
  // NUL and the other C0 controls must be escaped in JSON text (RFC 8259 §7) and are valid in a string all the same.
  const specials = Object.fromEntries([...required, ...optional].map((name) => [name, `Ficus "lyrata" / \\ \t\n é \u0000 \u001f \u007f \u2028 🌱 ${name}`]));
  return preferring(ctx, richPlant(ctx), specials);
}

interface Variant {
  note: string;
  writing: Writing;
}

/** A check whose every case is a valid plant written another legal way: each is graded as its plain form would be (rule 1, echo included). */
function sameAnswerCheck(options: Omit<ExchangeCheck<Body>, 'kind' | 'level' | 'verify' | 'grading' | 'evidence'>): ExchangeCheck<Body> {
  return {
    ...options,
    kind: 'exchange',
    level: 'MUST',
    grading: `MUST: the RFC quoted lets a client write the request this way, so it is the same valid NewPlant, and rule 1 binds its answer as the plain form's. ${ACCEPT_GRADING}`,
    evidence: ACCEPT_EVIDENCE,
    verify: (cases, ctx) => each(cases, (c) => gradeAccepted(ctx, c.exchange, c.sent)),
  };
}

/** A check that sends one valid plant per variant of its JSON text. */
function writtenCheck(options: Omit<ExchangeCheck<Body>, 'kind' | 'cases' | 'verify' | 'level' | 'grading' | 'evidence'> & { variants: Variant[]; body: (ctx: CheckContext) => Body }): ExchangeCheck<Body> {
  const { variants, body, ...rest } = options;
  return sameAnswerCheck({
    ...rest,
    cases: (ctx) =>
      variants.map(({ note, writing }) => {
        const sent = body(ctx);
        return { request: createRequest(ctx, { raw: writeJson(sent, writing) }, { note }), sent };
      }),
  });
}

const indent = (unit: string, newline: string) => (depth: number) => (depth === 0 ? newline : `${newline}${unit.repeat(depth)}`);

const whitespace = writtenCheck({
  id: 'PS-JSON-001',
  title: 'Insignificant whitespace (space, tab, CR, LF) anywhere the JSON grammar allows it is accepted',
  source: rfc(8259, '§2 JSON Grammar', 'section-2'),
  requirement: `Insignificant whitespace is allowed before or after any of the six structural characters. ws = *( %x20 / %x09 / %x0A / %x0D ); JSON-text = ws value ws. §9: A JSON parser MUST accept all texts that conform to the JSON grammar. ${RULE1}`,
  body: richPlant,
  variants: [
    { note: 'indented with two spaces, LF line ends', writing: { space: indent('  ', '\n') } },
    { note: 'indented with tabs, CRLF line ends', writing: { space: indent('\t', '\r\n') } },
    { note: 'space, tab, CR and LF around every structural character and the text', writing: { space: () => ' \t\r\n' } },
  ],
});

const memberOrder = writtenCheck({
  id: 'PS-JSON-002',
  title: 'Members in any order are accepted (the id last, the optional fields first)',
  source: rfc(8259, '§4 Objects', 'section-4'),
  requirement: `An object is an unordered collection of zero or more name/value pairs. §9: A JSON parser MUST accept all texts that conform to the JSON grammar. ${RULE1}`,
  body: richPlant,
  variants: [{ note: 'members in reverse order', writing: { space: () => '', order: (names) => [...names].reverse() } }],
});

const escapes = writtenCheck({
  id: 'PS-JSON-003',
  title: 'Escaped characters in names and values are accepted and echoed decoded (\\uXXXX in either case, surrogate pairs, \\/ and the short escapes)',
  source: rfc(8259, '§7 Strings', 'section-7'),
  requirement: `Any character may be escaped. ... If the character is in the Basic Multilingual Plane ... then it may be represented as a six-character sequence: a reverse solidus, followed by the lowercase letter u, followed by four hexadecimal digits ... The hexadecimal letters A through F can be uppercase or lowercase. ... To escape an extended character that is not in the Basic Multilingual Plane, the character is represented as a 12-character sequence, encoding the UTF-16 surrogate pair. ${RULE1}`,
  body: plantWithSpecials,
  variants: [
    { note: 'every character of every name and value as \\uXXXX, lowercase hex', writing: { space: () => '', string: (t) => escapeEvery(t) } },
    { note: 'every character of every name and value as \\uXXXX, uppercase hex', writing: { space: () => '', string: (t) => escapeEvery(t, true) } },
    { note: 'short escapes (\\" \\\\ \\/ \\t \\n) in names and values', writing: { space: () => '', string: escapeShort } },
  ],
});

/** The ways RFC 9110 lets a client write the request's media type, for the document's request content type. */
function mediaTypeVariants(declared: string): Array<[contentType: string, note: string]> {
  const essence = mediaTypeEssence(declared) ?? declared;
  const capitalized = essence.replace(/(^|[/.+-])([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());
  const variants: Array<[string, string]> = [
    [essence.toUpperCase(), 'type and subtype in upper case'],
    [capitalized, 'type and subtype capitalized'],
  ];
  // RFC 8259 §11: no charset parameter is defined for application/json;
  // "adding one really has no effect on compliant recipients".
  if (essence === 'application/json' || essence.endsWith('+json')) {
    variants.push(
      [`${essence}; charset=utf-8`, 'charset=utf-8 parameter'],
      [`${essence};charset=UTF-8`, 'charset=UTF-8 without a space'],
      [`${essence} ; charset="utf-8"`, 'space before ";" and a quoted parameter value'],
    );
  }
  return variants;
}

const mediaTypeWriting = sameAnswerCheck({
  id: 'PS-HTTP-003',
  title: 'The request media type in any letter case, with a charset=utf-8 parameter, is accepted',
  source: rfc(9110, '§8.3.1 Media Type', 'section-8.3.1'),
  requirement: `The type and subtype tokens are case-insensitive. media-type = type "/" subtype parameters; parameters = *( OWS ";" OWS [ parameter ] ); parameter-value = ( token / quoted-string ). RFC 8259 §11: No "charset" parameter is defined for this registration. Adding one really has no effect on compliant recipients. ${RULE1}`,
  cases: (ctx) =>
    mediaTypeVariants(ctx.model.create.requestContentTypes[0]!).map(([contentType, note]) => {
      const sent = validPlant(ctx);
      return { request: createRequest(ctx, sent, { contentType, note: `Content-Type: ${contentType} (${note})` }), sent };
    }),
});

/** The body's bytes cut into pieces, one cut inside the first character written in more than one byte (where there is one). */
function piecesOf(body: Buffer): Buffer[] {
  const multibyte = body.findIndex((b) => b >= 0x80);
  const cuts = multibyte > 0 ? [multibyte + 1, Math.max(multibyte + 2, Math.floor(body.length * 0.75))] : [Math.floor(body.length / 3), Math.floor((2 * body.length) / 3)];
  const out: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < body.length), body.length]) {
    if (cut > from) out.push(body.subarray(from, cut));
    from = cut;
  }
  return out;
}

const chunked = sameAnswerCheck({
  id: 'PS-HTTP-004',
  title: 'A body sent with the chunked transfer coding is accepted, in one chunk or cut inside a UTF-8 character',
  source: rfc(9112, '§7.1 Chunked Transfer Coding', 'section-7.1'),
  requirement: `A recipient MUST be able to parse and decode the chunked transfer coding. (RFC 9112 §6.1: a request body may be sent with Transfer-Encoding instead of Content-Length.) ${RULE1}`,
  cases: (ctx) => {
    const whole = validPlant(ctx);
    const cut = plantWithSpecials(ctx);
    const text = (b: Body) => Buffer.from(writeJson(b, { space: () => '' }), 'utf8');
    const chunkedCase = (sent: Body, chunks: Buffer[], note: string): Case<Body> => ({
      request: { ...createRequest(ctx, { raw: Buffer.concat(chunks) }, { note }), chunks },
      sent,
    });
    const pieces = piecesOf(text(cut));
    return [chunkedCase(whole, [text(whole)], 'Transfer-Encoding: chunked, one chunk'), chunkedCase(cut, pieces, `Transfer-Encoding: chunked, ${pieces.length} chunks cut inside a multibyte character`)];
  },
});

const fieldNameCase = sameAnswerCheck({
  id: 'PS-HTTP-005',
  title: 'Header field names in any letter case are accepted (AUTHORIZATION, Content-Type)',
  source: rfc(9110, '§5.1 Field Names', 'section-5.1'),
  requirement: `Field names are case-insensitive. ${RULE1}`,
  cases: (ctx) =>
    [(n: string) => n.toUpperCase(), (n: string) => n.replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase())].map((rename, i) => {
      const sent = validPlant(ctx);
      const request = createRequest(ctx, sent, { note: i === 0 ? 'field names in upper case' : 'field names capitalized' });
      return { request: { ...request, headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [rename(k), v])) }, sent };
    }),
});

/**
 * Accept values that allow the answer the document declares: content
 * negotiation (RFC 9110 §12) then has nothing to refuse, and rule 1 binds
 * the answer as without them.
 */
function acceptVariants(declared: string): Array<[accept: string, note: string]> {
  const [type] = declared.split('/');
  return [
    [declared, 'the declared media type'],
    ['*/*', 'any media type'],
    [`${type}/*`, 'any subtype of the declared type'],
    [`text/html;q=0.9, ${declared};q=0.5`, 'the declared media type with a lower weight than another'],
    [`${declared.toUpperCase()}; charset=utf-8, text/plain;q=0.1`, 'the declared media type in upper case with a parameter'],
  ];
}

const acceptAllowsJson = sameAnswerCheck({
  id: 'PS-HTTP-006',
  title: 'An Accept header that allows the declared media type changes nothing (application/json, */*, weights, letter case)',
  source: rfc(9110, '§12.5.1 Accept', 'section-12.5.1'),
  requirement: `The "Accept" header field can be used by user agents to specify their preferences regarding response media types. ... media-range = ( "*/*" / ( type "/" "*" ) / ( type "/" subtype ) ) parameters. (An Accept that allows the declared answer's media type leaves nothing to negotiate.) ${RULE1}`,
  cases: (ctx) =>
    acceptVariants(ctx.model.create.success.contentTypes[0] ?? 'application/json').map(([accept, note]) => {
      const sent = validPlant(ctx);
      const request = createRequest(ctx, sent, { note: `Accept: ${accept} (${note})` });
      return { request: { ...request, headers: { ...request.headers, accept } }, sent };
    }),
});

const spacesAfterScheme = sameAnswerCheck({
  id: 'PS-AUTH-008',
  title: 'Several spaces between Bearer and the token are accepted',
  source: rfc(6750, '§2.1 Authorization Request Header Field', 'section-2.1'),
  requirement: `credentials = "Bearer" 1*SP b64token (RFC 9110 §11.4: credentials = auth-scheme [ 1*SP ( token68 / #auth-param ) ]). ${RULE1}`,
  cases: (ctx) =>
    [2, 4].map((spaces) => {
      const sent = validPlant(ctx);
      return { request: createRequest(ctx, sent, { auth: `Bearer${' '.repeat(spaces)}${ctx.target.token}`, note: `${spaces} spaces after Bearer` }), sent };
    }),
});

export const writingChecks: Check[] = [whitespace, memberOrder, escapes, mediaTypeWriting, chunked, fieldNameCase, acceptAllowsJson, spacesAfterScheme];
