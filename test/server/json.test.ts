// The exact JSON parser (server/json/json.ts), against RFC 8259 and JSON.parse.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { JsonSyntaxError, NonIntegralNumber, parseJson } from '../../server/json/json.js';

test('parses what JSON.parse parses, to the same value, when no integer exceeds 2^53', { timeout: 60_000 }, () => {
  // Generated JSON without big integers: both parsers must agree exactly.
  fc.assert(
    fc.property(fc.json({ depthSize: 'small', noUnicodeString: false }), (text) => {
      let expected: unknown;
      try {
        expected = JSON.parse(text);
      } catch {
        return true;
      }
      // Integers beyond 2^53 are where the parsers differ on purpose (tested below).
      if (hasUnsafeInteger(expected)) return true;
      const actual = parseJson(text, { maxDepth: 1000 });
      assert.deepEqual(
        JSON.parse(JSON.stringify(actual, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))),
        expected,
      );
    }),
    { seed: 20261121, numRuns: 500 },
  );
});

function hasUnsafeInteger(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (value !== null && typeof value === 'object') return Object.values(value).some(hasUnsafeInteger);
  return false;
}

test('refuses what JSON.parse refuses', { timeout: 60_000 }, () => {
  for (const text of [
    '',
    '{',
    '[1,]',
    '{"a":1,}',
    'tru',
    'nul',
    '01',
    '1.',
    '.5',
    '1e',
    '"\\u00g0"',
    '"a',
    '[1 2]',
    '{"a" 1}',
    '1 2',
    'NaN',
    '-',
    '"\u0001"',
  ]) {
    assert.throws(() => JSON.parse(text), SyntaxError, text);
    assert.throws(() => parseJson(text), JsonSyntaxError, text);
  }
});

test('integers beyond 2^53 come back exact as bigints; safe ones as numbers', { timeout: 60_000 }, () => {
  assert.equal(parseJson('9007199254740991'), 9007199254740991);
  assert.equal(parseJson('9007199254740993'), 9007199254740993n);
  assert.equal(parseJson('-9223372036854775808'), -9223372036854775808n);
  assert.equal(parseJson('1e2'), 100);
  assert.equal(parseJson('2.50e1'), 25);
  assert.equal(parseJson('1E+20'), 100000000000000000000n);
  assert.equal(Object.is(parseJson('-0'), 0), true);
  assert.equal(Object.is(parseJson('-0.0e5'), 0), true);
});

test('non-integral numerals stay non-integral even when their double is an integer', { timeout: 60_000 }, () => {
  assert.equal(parseJson('1.5'), 1.5);
  assert.ok(parseJson('1e-400') instanceof NonIntegralNumber);
  assert.ok(parseJson('1.0000000000000000001') instanceof NonIntegralNumber);
  assert.equal(JSON.stringify(parseJson('[1e-400]')), '[0]');
});

test('enormous exponents do not hang or allocate: they clamp far outside int64', { timeout: 60_000 }, () => {
  const value = parseJson('1e999999999999');
  assert.equal(typeof value, 'bigint');
  assert.ok((value as bigint) > 2n ** 63n);
  assert.ok((parseJson('-1e999999999999') as bigint) < -(2n ** 63n));
  assert.equal(parseJson('0e999999999999'), 0);
});

test('objects have no prototype: __proto__ is an own member', { timeout: 60_000 }, () => {
  const value = parseJson('{"__proto__": {"x": 1}, "constructor": 2}') as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(value), null);
  assert.deepEqual(Object.keys(value), ['__proto__', 'constructor']);
  assert.equal(({} as Record<string, unknown>).x, undefined);
});

test('errors name the position and the reason', { timeout: 60_000 }, () => {
  assert.throws(() => parseJson('{"a": 1} x'), {
    message: 'Malformed JSON at position 9: unexpected data after the JSON value.',
  });
  assert.throws(() => parseJson('[[[1]]]', { maxDepth: 2 }), /nesting deeper than 2 levels/);
});

test(
  'strings with escapes decode as JSON.parse decodes them: every escape, runs of thousands, lone surrogates, escapes between long runs',
  { timeout: 60_000 },
  () => {
    const pieces = [
      '\\n',
      '\\"',
      '\\\\',
      '\\/',
      '\\b',
      '\\f',
      '\\r',
      '\\t',
      '\\u0041',
      '\\u00e9',
      '\\uD83C\\uDF35',
      '\\ud800',
      '\\udfff',
      '\\u0000',
      'a',
      'é',
      '🌵',
      'x'.repeat(100),
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 200 }),
        fc.integer({ min: 0, max: 20_000 }),
        (chosen, run) => {
          // A run of escapes long enough to fill the parser's buffer of code units several times over, then the chosen pieces.
          const text = `"${'\\n'.repeat(run)}${chosen.join('')}"`;
          assert.equal(parseJson(text), JSON.parse(text));
          assert.equal(
            (parseJson(`{"k${chosen.join('')}":${text}}`) as Record<string, string>)[
              JSON.parse(`"k${chosen.join('')}"`)
            ],
            JSON.parse(text),
          );
        },
      ),
      { seed: 20261125, numRuns: 200 },
    );
    for (const length of [8191, 8192, 8193, 3 * 8192]) {
      const text = `"a${'\\u00ff'.repeat(length)}b"`;
      assert.equal(parseJson(text), JSON.parse(text), `${length} escapes`);
    }
  },
);

test(
  'a bad escape, a control character or the end of the text after an escape is refused where it stands',
  { timeout: 60_000 },
  () => {
    const at = (text: string) => {
      try {
        parseJson(text);
      } catch (error) {
        return (error as Error).message;
      }
      return 'parsed';
    };
    assert.equal(at('"ab\\x"'), 'Malformed JSON at position 3: invalid escape in a string.');
    assert.equal(at('"\\n\\n\\x"'), 'Malformed JSON at position 5: invalid escape in a string.');
    assert.equal(
      at('"\\n\\u00g0"'),
      'Malformed JSON at position 3: invalid \\u escape, four hexadecimal digits were expected.',
    );
    assert.equal(
      at('"\\n\\u00'),
      'Malformed JSON at position 3: invalid \\u escape, four hexadecimal digits were expected.',
    );
    assert.equal(at('"\\n\\'), 'Malformed JSON at position 3: invalid escape in a string.');
    assert.equal(at('"\\na\u0001"'), 'Malformed JSON at position 4: unescaped control character in a string.');
    assert.equal(at('"\\nab'), 'Malformed JSON at position 5: unterminated string.');
    assert.equal(at('"ab'), 'Malformed JSON at position 3: unterminated string.');
    assert.equal(at('"\\é"'), 'Malformed JSON at position 1: invalid escape in a string.');
  },
);

test(
  'topLevelNames: the member names of the top-level object in the order written, none of nested objects or of other values',
  { timeout: 60_000 },
  () => {
    const names = (text: string) => {
      const out: string[] = [];
      parseJson(text, { topLevelNames: out });
      return out;
    };
    assert.deepEqual(names('{"tag": "t", "2": 1, "n\\u0061me": {"inner": 1}, "1": [{"deep": 2}], "__proto__": null}'), [
      'tag',
      '2',
      'name',
      '1',
      '__proto__',
    ]);
    assert.deepEqual(names('[{"a": 1}, {"b": 2}]'), []);
    assert.deepEqual(names('"text"'), []);
    assert.deepEqual(names('{}'), []);
    assert.deepEqual(
      Object.keys(parseJson('{"tag": "t", "2": 1}') as object),
      ['2', 'tag'],
      'what enumerating the object gives instead',
    );
  },
);
