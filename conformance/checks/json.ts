// PS-JSON-*: every way RFC 8259 lets a client write the same JSON text
// (white space, member order, escapes) is the same valid NewPlant.
import { escapeEvery, escapeShort, writeJson, type Writing } from '../cases/json-writing.js';
import { createRequest, type Body } from './requests.js';
import { plantWithSpecials, richPlant, RULE1, sameAnswerCheck } from './same-answer.js';
import { rfc } from './sources.js';
import type { Check, CheckContext, ExchangeCheck } from './types.js';

interface Variant {
  note: string;
  writing: Writing;
}

/** A check that sends one valid plant per variant of its JSON text. */
function writtenCheck(
  options: Omit<ExchangeCheck<Body>, 'kind' | 'cases' | 'verify' | 'level' | 'grading' | 'evidence'> & {
    variants: Variant[];
    body: (ctx: CheckContext) => Body;
  },
): ExchangeCheck<Body> {
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

const indent = (unit: string, newline: string) => (depth: number) =>
  depth === 0 ? newline : `${newline}${unit.repeat(depth)}`;

const whitespace = writtenCheck({
  id: 'PS-JSON-001',
  title: 'Insignificant whitespace (space, tab, CR, LF) anywhere the JSON grammar allows it is accepted',
  family: 'white space between tokens',
  source: rfc(8259, '§2 JSON Grammar', 'section-2'),
  requirement: `Insignificant whitespace is allowed before or after any of the six structural characters. ws = *( %x20 / %x09 / %x0A / %x0D ); JSON-text = ws value ws. §9: A JSON parser MUST accept all texts that conform to the JSON grammar. ${RULE1}`,
  body: richPlant,
  variants: [
    { note: 'indented with two spaces, LF line ends', writing: { space: indent('  ', '\n') } },
    { note: 'indented with tabs, CRLF line ends', writing: { space: indent('\t', '\r\n') } },
    {
      note: 'space, tab, CR and LF around every structural character and the text',
      writing: { space: () => ' \t\r\n' },
    },
  ],
});

const memberOrder = writtenCheck({
  id: 'PS-JSON-002',
  title: 'Members in any order are accepted (the id last, the optional fields first)',
  family: 'members in another order',
  source: rfc(8259, '§4 Objects', 'section-4'),
  requirement: `An object is an unordered collection of zero or more name/value pairs. §9: A JSON parser MUST accept all texts that conform to the JSON grammar. ${RULE1}`,
  body: richPlant,
  variants: [
    { note: 'members in reverse order', writing: { space: () => '', order: (names) => [...names].reverse() } },
  ],
});

const escapes = writtenCheck({
  id: 'PS-JSON-003',
  family: 'escapes',
  title:
    'Escaped characters in names and values are accepted and echoed decoded (\\uXXXX in either case, surrogate pairs, \\/ and the short escapes)',
  source: rfc(8259, '§7 Strings', 'section-7'),
  requirement: `Any character may be escaped. ... If the character is in the Basic Multilingual Plane ... then it may be represented as a six-character sequence: a reverse solidus, followed by the lowercase letter u, followed by four hexadecimal digits ... The hexadecimal letters A through F can be uppercase or lowercase. ... To escape an extended character that is not in the Basic Multilingual Plane, the character is represented as a 12-character sequence, encoding the UTF-16 surrogate pair. ${RULE1}`,
  body: plantWithSpecials,
  variants: [
    {
      note: 'every character of every name and value as \\uXXXX, lowercase hex',
      writing: { space: () => '', string: (t) => escapeEvery(t) },
    },
    {
      note: 'every character of every name and value as \\uXXXX, uppercase hex',
      writing: { space: () => '', string: (t) => escapeEvery(t, true) },
    },
    {
      note: 'short escapes (\\" \\\\ \\/ \\t \\n) in names and values',
      writing: { space: () => '', string: escapeShort },
    },
  ],
});

export const jsonChecks: Check[] = [whitespace, memberOrder, escapes];
