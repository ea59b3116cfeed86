// The linear-time engine for `pattern` (spec/linear-pattern.ts): the same
// strings match as with V8's ECMA-262 engine (u flag), on generated patterns
// and strings; what needs backtracking is refused with the reason; and a
// catastrophic pattern answers at once instead of hanging.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { linearPattern, PatternError, translatePattern } from '../../spec/linear-pattern.js';

/** Characters where the two engines' meanings differ: line terminators, Unicode spaces, astral, word and non-word. */
const ALPHABET = [
  'a',
  'b',
  'Z',
  '0',
  '7',
  '_',
  '-',
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\u3000',
  '\ufeff',
  'é',
  'Ω',
  '😀',
  '.',
  '/',
  '[',
  ']',
  '\\',
  '^',
  '$',
  ':',
  '{',
  '}',
];
const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 8 }).map((chars) => chars.join(''));

/** Patterns in ECMA-262 u-mode syntax, built from the constructs the translation rewrites. */
const pattern: fc.Arbitrary<string> = fc.letrec<{
  alternation: string;
  sequence: string;
  atom: string;
  quantified: string;
  klass: string;
  classItem: string;
}>((tie) => ({
  alternation: fc.array(tie('sequence'), { minLength: 1, maxLength: 3 }).map((items) => items.join('|')),
  sequence: fc.array(tie('quantified'), { maxLength: 4 }).map((items) => items.join('')),
  quantified: fc
    .tuple(tie('atom'), fc.constantFrom('', '', '*', '+', '?', '{2}', '{0,2}', '{1,}', '*?', '+?'))
    .map(([atom, q]) => atom + q),
  atom: fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom('a', 'b', 'Z', '0', '_', '-', ' ', 'é', '😀', ':', ',', '/', '=', '<', '!', '#'),
    },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        '.',
        '\\s',
        '\\S',
        '\\d',
        '\\D',
        '\\w',
        '\\W',
        '\\n',
        '\\r',
        '\\t',
        '\\v',
        '\\f',
        '\\0',
        '\\u00e9',
        '\\u{1F600}',
        '\\uD83D\\uDE00',
        '\\x41',
        '\\cJ',
        '\\.',
        '\\/',
        '\\[',
        '\\]',
        '\\{',
        '\\}',
        '\\\\',
        '\\^',
        '\\$',
        '\\|',
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '^',
        '$',
        '\\b',
        '\\B',
        '\\p{L}',
        '\\P{L}',
        '\\p{Lu}',
        '\\p{Letter}',
        '\\p{Script=Greek}',
        '\\p{gc=Nd}',
      ),
    },
    { weight: 2, arbitrary: tie('klass') },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('(', '(?:', '(?<name>'), tie('alternation'))
        .map(([open, inner]) => `${open}${inner})`),
    },
  ),
  klass: fc
    .tuple(fc.boolean(), fc.array(tie('classItem'), { maxLength: 4 }))
    .map(([negated, items]) => `[${negated ? '^' : ''}${items.join('')}]`),
  classItem: fc.constantFrom(
    'a',
    'a-z',
    'A-Z',
    '0-9',
    '\\s',
    '\\S',
    '\\d',
    '\\w',
    '\\W',
    '\\b',
    '\\-',
    '\\]',
    '\\\\',
    '[',
    ':',
    '.',
    '^',
    '$',
    '|',
    '(',
    ')',
    '*',
    '\\u00a0',
    '\\u{1F600}',
    '😀',
    'é',
    '\\p{L}',
    '\\n',
    '-',
  ),
})).alternation;

test(
  'on generated patterns and strings, the linear-time engine matches exactly what V8 matches with the u flag',
  { timeout: 300_000 },
  () => {
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 6 }), (source, values) => {
        let ecma: RegExp;
        try {
          ecma = new RegExp(source, 'u');
        } catch {
          return; // not ECMA-262 (a quantified assertion, a reversed range): refused as such elsewhere
        }
        const linear = linearPattern(source);
        for (const value of values)
          assert.equal(
            linear.test(value),
            ecma.test(value),
            `/${source}/u on ${JSON.stringify(value)} (RE2: ${translatePattern(source)})`,
          );
      }),
      { numRuns: 3000, seed: 35 },
    );
  },
);

test(
  'the constructs whose meaning differs between the engines are translated to the ECMA-262 meaning',
  { timeout: 60_000 },
  () => {
    const cases: Array<[string, string, boolean]> = [
      ['^.$', '\r', false], // RE2's . takes \r
      ['^.$', '\u2028', false],
      ['^.$', '😀', true],
      ['^\\s$', '\u00a0', true], // RE2's \s is ASCII only
      ['^\\s$', '\ufeff', true],
      ['^\\S$', '\u3000', false],
      ['^[\\S]$', 'x', true],
      ['^[^\\s]$', '\u2029', false],
      ['^\\u0041$', 'A', true],
      ['^\\u{1F600}$', '😀', true],
      ['^\\uD83D\\uDE00$', '😀', true],
      ['^\\cJ$', '\n', true],
      ['^[\\b]$', '\b', true],
      ['^[^]$', '\n', true],
      ['[]', 'anything', false],
      ['^a$', 'a\n', false], // $ is the end of the input, not of a line
      ['^[[:alpha:]+$', ':a', true],
      ['^\\p{Letter}+$', 'héllo', true],
      ['^(?<word>\\w+)$', 'abc', true],
    ];
    for (const [source, value, expected] of cases) {
      assert.equal(new RegExp(source, 'u').test(value), expected, `V8: /${source}/u on ${JSON.stringify(value)}`);
      assert.equal(linearPattern(source).test(value), expected, `RE2: /${source}/u on ${JSON.stringify(value)}`);
    }
  },
);

test('lookaround, backreferences and modifier groups are refused with the reason', { timeout: 60_000 }, () => {
  const refused: Array<[string, RegExp]> = [
    ['^(?=.*[A-Z]).{8,}$', /lookahead and lookbehind/],
    ['^(?!admin)', /lookahead and lookbehind/],
    ['(?<=a)b', /lookahead and lookbehind/],
    ['(?<!a)b', /lookahead and lookbehind/],
    ['(a)\\1', /backreference \(\\1\)/],
    ['(?<n>a)\\k<n>', /backreference \(\\k<name>\)/],
    ['a{1,5000}', /linear-time engine \(RE2\) cannot run it/],
    ['(', /not an ECMA-262 regular expression/],
  ];
  for (const [source, reason] of refused)
    assert.throws(
      () => linearPattern(source),
      (error: unknown) => error instanceof PatternError && reason.test(error.message),
      source,
    );
  // ECMAScript 2025's modifiers, which Node 20's V8 does not know yet: refused by the translation wherever V8 takes them.
  assert.throws(() => translatePattern('(?i:a)b'), /modifier groups/);
});

test(
  'the catastrophic pattern of the review answers at once on a 32-character string, where V8 backtracks for hours',
  { timeout: 60_000 },
  () => {
    const evil = linearPattern('^([\\s\\S]+)+X$');
    for (const length of [32, 1000, 100_000]) assert.equal(evil.test('a'.repeat(length)), false);
    assert.equal(evil.test(`${'a'.repeat(31)}X`), true);
  },
);
