// fast-check generators of a hostile request's body: a NewPlant, valid with a
// fresh id or broken in one way; JSON text written by hand (repeated keys,
// huge numerals, prototype keys); nesting far past the parser's bound; long
// strings on both sides of the body limit; bytes that are not UTF-8.
import fc from 'fast-check';
import { INT64_MAX, INT64_MIN } from '../spec/formats.js';
import { FUZZ_BODY_LIMIT } from './fuzz-settings.js';

/** Strings with the Unicode a careless server trips on. */
const unusualString = (maxLength: number) =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.constantFrom(
      '',
      '\u0000',
      '\u202e\u202d',
      '\ufeff',
      '\ud83c\udf35',
      'e\u0301',
      '\u2028\u2029',
      '"quoted"',
      '\\',
      '<script>',
      '${x}',
      '%s%n',
      'null',
      'constructor',
      '__proto__',
    ),
  );

/** Keys that pollute prototypes in naive code, next to ordinary ones. */
const keyArb = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'id', 'name', 'tag', ''),
  fc.string({ maxLength: 12 }),
);

/** A JSON text built by hand, so it can hold repeated keys, bigints and odd numerals. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(
      'null',
      'true',
      'false',
      '0',
      '-0',
      '1.5',
      '1e400',
      '-1e-400',
      '5.0',
      '5e2',
      '9223372036854775807',
      '9223372036854775808',
      '-9223372036854775809',
      '1' + '0'.repeat(400),
    ),
    fc.bigInt({ min: INT64_MIN * 4n, max: INT64_MAX * 4n }).map(String),
    fc.double().filter(Number.isFinite).map(String),
    unusualString(30).map((s) => JSON.stringify(s)),
    fc.array(tie('value'), { maxLength: 5 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(keyArb, tie('value')), { maxLength: 5 })
      .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).value;

/** A NewPlant: valid (fresh id) or mutated in one way. */
function newPlantArb(freshId: () => bigint): fc.Arbitrary<{ text: string; plant?: { name: string; tag?: string } }> {
  const valid = fc
    .record({
      name: unusualString(40),
      tag: fc.option(unusualString(20), { nil: undefined }),
      extra: fc.uniqueArray(
        fc.tuple(
          fc.constantFrom('__proto__', 'constructor', 'extra', 'Id', 'NAME'),
          fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
        ),
        { maxLength: 2, selector: ([key]) => key },
      ),
    })
    .map(({ name, tag, extra }) => {
      const id = freshId();
      const members = [`"id":${id}`, `"name":${JSON.stringify(name)}`];
      if (tag !== undefined) members.push(`"tag":${JSON.stringify(tag)}`);
      for (const [key, value] of extra) members.push(`${JSON.stringify(key)}:${value}`);
      const plant = tag === undefined ? { name } : { name, tag };
      return { text: `{${members.join(',')}}`, plant };
    });
  const mutated = fc
    .record({
      id: fc.oneof(
        fc.constant(undefined),
        jsonText,
        fc.constantFrom('"7"', 'true', 'null', '1.5', '9223372036854775808', '[1]', '{}'),
      ),
      name: fc.oneof(
        fc.constant(undefined),
        jsonText,
        unusualString(10).map((s) => JSON.stringify(s)),
      ),
      tag: fc.oneof(fc.constant(undefined), jsonText),
      duplicate: fc.constantFrom(undefined, 'id', 'name', 'tag'),
    })
    .map(({ id, name, tag, duplicate }) => {
      const members: string[] = [];
      if (id !== undefined) members.push(`"id":${id}`);
      if (name !== undefined) members.push(`"name":${name}`);
      if (tag !== undefined) members.push(`"tag":${tag}`);
      if (duplicate !== undefined) members.push(`"${duplicate}":"again"`);
      return { text: `{${members.join(',')}}` };
    });
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: mutated });
}

/** Nesting far beyond the parser's bound (64), arrays, objects or both. */
const deepNesting = fc
  .record({ depth: fc.integer({ min: 60, max: 5000 }), kind: fc.constantFrom('array', 'object', 'mixed', 'unclosed') })
  .map(({ depth, kind }) => {
    if (kind === 'array') return '['.repeat(depth) + ']'.repeat(depth);
    if (kind === 'object') return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    if (kind === 'mixed') return '[{"a":'.repeat(depth) + '1' + '}]'.repeat(depth);
    return '['.repeat(depth);
  });

export const bodyArb = (
  freshId: () => bigint,
): fc.Arbitrary<{ bytes: Buffer; plant?: { name: string; tag?: string } }> =>
  fc.oneof(
    { weight: 6, arbitrary: newPlantArb(freshId).map(({ text, plant }) => ({ bytes: Buffer.from(text), plant })) },
    { weight: 2, arbitrary: jsonText.map((text) => ({ bytes: Buffer.from(text) })) },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => ({ bytes: Buffer.from(JSON.stringify(v) ?? 'null') })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((a) => ({ bytes: Buffer.from(a) })) },
    { weight: 1, arbitrary: deepNesting.map((text) => ({ bytes: Buffer.from(text) })) },
    {
      // Long strings: some under the body limit, some over it.
      weight: 1,
      arbitrary: fc
        .record({
          length: fc.integer({ min: 1000, max: FUZZ_BODY_LIMIT * 2 }),
          char: fc.constantFrom('a', '\u00e9', '\ud83c\udf35', '\\u0000'),
        })
        .map(({ length, char }) => ({
          bytes: Buffer.from(`{"id":1,"name":"${char.repeat(Math.ceil(length / Buffer.byteLength(char)))}"}`),
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '',
          ' ',
          '\ufeff{"id":1,"name":"a"}',
          '{"id":1,"name":"a"} x',
          '{"id":1,"name":"a"}{}',
          "{'id':1}",
          '{"id":1,"name":"\ud800"}',
          '{"id":01,"name":"a"}',
          '{"id":1,"name":"a",}',
          'NaN',
          '{"id":Infinity,"name":"a"}',
        )
        .map((text) => ({ bytes: Buffer.from(text) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          Buffer.from([0xff, 0xfe]),
          Buffer.from('{"id":1,"name":"\xc3\x28"}', 'latin1'),
          Buffer.from([0xc0, 0x80]),
          Buffer.from([0xed, 0xa0, 0x80]),
        )
        .map((bytes) => ({ bytes })),
    },
  );
