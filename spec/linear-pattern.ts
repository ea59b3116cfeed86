// `pattern` (and the keys of `patternProperties`) run on a linear-time
// engine: RE2, through re2js, its pure-JavaScript port (no native build, so
// it installs wherever Node 20 does). V8's own engine backtracks: a pattern
// like `^([\s\S]+)+X$` takes exponential time on a 32-character string, and
// a document is input the server and the harness do not control
// (PLANTSTORE_SPEC, compat's --head, the Action's document).
//
// JSON Schema patterns are ECMA-262 regular expressions (2020-12 §6.4), and
// Ajv compiles them with the `u` flag. RE2's syntax and meaning differ in
// places, so each pattern is translated first, to the RE2 pattern that
// matches the same strings (test/spec/linear-pattern.test.ts compares the two
// engines on generated patterns and strings):
//   .          ECMA: anything but \n \r \u2028 \u2029; RE2: anything but \n
//   \s \S      ECMA: the Unicode white space and line terminators; RE2: 6 ASCII characters
//   \uHHHH \u{H} \cX \0 [\b] [^] []   not RE2 syntax: written as \x{H}, or as classes
//   (x) (?<n>x) become (?:x): only whether a string matches is asked
// What has no linear-time equivalent is refused, with the reason: lookahead
// and lookbehind, backreferences (RE2 leaves them out for that reason), and
// modifier groups ((?i:...), which this translation does not follow).
import { createRequire } from 'node:module';
import type * as Re2js from 're2js';

/** A pattern the linear-time engine cannot run: `reason` says why, in words for a DocumentError. */
export class PatternError extends Error {
  override readonly name = 'PatternError';
}

/** ECMA-262's WhiteSpace and LineTerminator code points (§22.2.2.9, CharacterClassEscape `s`), as ranges. */
const SPACE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const MAX_CODE_POINT = 0x10ffff;

const hex = (codePoint: number) => `\\x{${codePoint.toString(16)}}`;
const rangesText = (ranges: ReadonlyArray<readonly [number, number]>) =>
  ranges.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)).join('');
/** Every code point outside `ranges` (sorted, disjoint), as ranges. */
function complement(ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [from, to] of ranges) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}
const SPACE = rangesText(SPACE_RANGES);
const NOT_SPACE = rangesText(complement(SPACE_RANGES));
const LINE_TERMINATORS = `${hex(0x0a)}${hex(0x0d)}${hex(0x2028)}${hex(0x2029)}`;
const ANY = `${hex(0)}-${hex(MAX_CODE_POINT)}`;
/** A literal code point as RE2 text: letters and digits as they are, anything else by its number, which RE2 cannot read as syntax. */
const literal = (c: string) => (/^[A-Za-z0-9_]$/.test(c) ? c : hex(c.codePointAt(0) as number));

/** ECMA-262's long General_Category names (and the `gc=` / `Script=` forms) as RE2 knows them: the one- and two-letter names. */
const CATEGORY_NAMES: Record<string, string> = {
  Letter: 'L',
  Cased_Letter: 'LC',
  Uppercase_Letter: 'Lu',
  Lowercase_Letter: 'Ll',
  Titlecase_Letter: 'Lt',
  Modifier_Letter: 'Lm',
  Other_Letter: 'Lo',
  Mark: 'M',
  Combining_Mark: 'M',
  Nonspacing_Mark: 'Mn',
  Spacing_Mark: 'Mc',
  Enclosing_Mark: 'Me',
  Number: 'N',
  Decimal_Number: 'Nd',
  digit: 'Nd',
  Letter_Number: 'Nl',
  Other_Number: 'No',
  Punctuation: 'P',
  punct: 'P',
  Connector_Punctuation: 'Pc',
  Dash_Punctuation: 'Pd',
  Open_Punctuation: 'Ps',
  Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi',
  Final_Punctuation: 'Pf',
  Other_Punctuation: 'Po',
  Symbol: 'S',
  Math_Symbol: 'Sm',
  Currency_Symbol: 'Sc',
  Modifier_Symbol: 'Sk',
  Other_Symbol: 'So',
  Separator: 'Z',
  Space_Separator: 'Zs',
  Line_Separator: 'Zl',
  Paragraph_Separator: 'Zp',
  Other: 'C',
  Control: 'Cc',
  cntrl: 'Cc',
  Format: 'Cf',
  Surrogate: 'Cs',
  Private_Use: 'Co',
  Unassigned: 'Cn',
};

/**
 * The RE2 pattern that matches the strings `source` matches as an ECMA-262
 * regular expression with the `u` flag; throws a PatternError for what has
 * no linear-time equivalent. `source` must be valid ECMA-262 (`new
 * RegExp(source, 'u')` accepts it): the translation reads it as such.
 */
export function translatePattern(source: string): string {
  const chars = [...source]; // code points: a surrogate pair is one literal
  let at = 0;
  let out = '';
  const peek = (offset = 0) => chars[at + offset];
  /** `\` read: the escape after it, as RE2 text; `inClass` for the meanings inside [...]. */
  const escape = (inClass: boolean): string => {
    const c = chars[at++] as string;
    switch (c) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
        return `\\${c}`;
      case 'b':
      case 'B':
        return inClass ? hex(8) : `\\${c}`;
      case 's':
        return inClass ? SPACE : `[${SPACE}]`;
      case 'S':
        return inClass ? NOT_SPACE : `[${NOT_SPACE}]`;
      case 'f':
        return hex(0x0c);
      case 'n':
        return hex(0x0a);
      case 'r':
        return hex(0x0d);
      case 't':
        return hex(0x09);
      case 'v':
        return hex(0x0b);
      case '0':
        return hex(0); // in u-mode \0 is never followed by a digit
      case 'c':
        return hex((chars[at++] as string).charCodeAt(0) % 32);
      case 'x': {
        const digits = chars.slice(at, at + 2).join('');
        at += 2;
        return hex(parseInt(digits, 16));
      }
      case 'u':
        return hex(unicodeEscape());
      case 'p':
      case 'P':
        return property(c === 'P');
      case 'k':
        throw new PatternError('a backreference (\\k<name>) needs a backtracking engine; write the pattern without it');
      default:
        if (/[1-9]/.test(c))
          throw new PatternError(`a backreference (\\${c}) needs a backtracking engine; write the pattern without it`);
        return literal(c); // an identity escape: in u-mode only a syntax character, / or (in a class) -
    }
  };
  /** After `\u`: `{H...}`, or HHHH (with its trail surrogate's \uHHHH when it is a lead surrogate: one code point in u-mode). */
  const unicodeEscape = (): number => {
    if (peek() === '{') {
      const end = chars.indexOf('}', at);
      const value = parseInt(chars.slice(at + 1, end).join(''), 16);
      at = end + 1;
      return value;
    }
    const value = parseInt(chars.slice(at, at + 4).join(''), 16);
    at += 4;
    if (value >= 0xd800 && value <= 0xdbff && peek() === '\\' && peek(1) === 'u' && peek(2) !== '{') {
      const trail = parseInt(chars.slice(at + 2, at + 6).join(''), 16);
      if (trail >= 0xdc00 && trail <= 0xdfff) {
        at += 6;
        return 0x10000 + ((value - 0xd800) << 10) + (trail - 0xdc00);
      }
    }
    return value;
  };
  /** After `\p` or `\P`: `{Name}` or `{Name=Value}`. */
  const property = (negated: boolean): string => {
    const end = chars.indexOf('}', at);
    const body = chars.slice(at + 1, end).join('');
    at = end + 1;
    const [name, value] = body.includes('=') ? body.split('=') : [undefined, body];
    if (name !== undefined && !['General_Category', 'gc', 'Script', 'sc'].includes(name)) {
      throw new PatternError(
        `the property escape \\p{${body}} has no equivalent in the linear-time engine (RE2 knows general categories and scripts)`,
      );
    }
    return `\\${negated ? 'P' : 'p'}{${CATEGORY_NAMES[value] ?? value}}`;
  };
  const characterClass = (): string => {
    // `[` read. [^] is any code point, [] none.
    if (peek() === ']') return (void at++, `[^${ANY}]`);
    if (peek() === '^' && peek(1) === ']') return (void (at += 2), `[${ANY}]`);
    let text = '[';
    if (peek() === '^') text += chars[at++];
    while (peek() !== ']') {
      const c = chars[at++] as string;
      if (c === '\\') text += escape(true);
      else text += c === '-' ? '-' : literal(c); // a range's dash, or a literal (then never [:alpha:] or a nested [ to RE2)
    }
    at++;
    return `${text}]`;
  };
  const group = (): string => {
    // `(` read.
    if (peek() !== '?') return '(?:';
    const next = peek(1);
    if (next === ':') return (void (at += 2), '(?:');
    if (next === '=' || next === '!' || (next === '<' && (peek(2) === '=' || peek(2) === '!'))) {
      throw new PatternError(
        'lookahead and lookbehind ((?=, (?!, (?<=, (?<!) need a backtracking engine; write the pattern without them',
      );
    }
    if (next === '<') {
      at = chars.indexOf('>', at) + 1;
      return '(?:';
    }
    throw new PatternError('modifier groups ((?i:...)) are not read; write the pattern without them');
  };
  while (at < chars.length) {
    const c = chars[at++] as string;
    if (c === '\\') out += escape(false);
    else if (c === '.') out += `[^${LINE_TERMINATORS}]`;
    else if (c === '[') out += characterClass();
    else if (c === '(') out += group();
    else if (c === '{') {
      // In u-mode a brace is always a quantifier: {n}, {n,}, {n,m}.
      const end = chars.indexOf('}', at);
      out += `{${chars.slice(at, end + 1).join('')}`;
      at = end + 1;
    } else if ('^$|)*+?'.includes(c)) out += c;
    else out += literal(c); // syntax characters are escaped in u-mode: anything else stands for itself
  }
  return out;
}

/** Ajv's code.regExp: what it calls `test` on. */
export interface PatternTester {
  test(value: string): boolean;
  toString(): string;
}

const requireFromHere = createRequire(import.meta.url);
let engine: typeof Re2js.RE2JS | undefined;
const compiled = new Map<string, PatternTester>();

/**
 * The pattern compiled for the linear-time engine; throws a PatternError
 * when it cannot run there (or is not ECMA-262 at all). re2js is loaded the
 * first time, as Ajv is (spec/ajv.ts): the server serving the shipped
 * document, which has no pattern, never loads it.
 */
export function linearPattern(source: string): PatternTester {
  const known = compiled.get(source);
  if (known !== undefined) return known;
  try {
    new RegExp(source, 'u'); // the syntax check only: nothing is matched with it
  } catch (error) {
    throw new PatternError(`not an ECMA-262 regular expression: ${(error as Error).message}`);
  }
  const translated = translatePattern(source);
  engine ??= (requireFromHere('re2js') as typeof Re2js).RE2JS;
  let regex: Re2js.RE2JS;
  try {
    regex = engine.compile(translated);
  } catch (error) {
    throw new PatternError(`the linear-time engine (RE2) cannot run it: ${(error as Error).message}`);
  }
  const tester: PatternTester = { test: (value) => regex.test(value), toString: () => `/${source}/u` };
  compiled.set(source, tester);
  return tester;
}

/** Why the linear-time engine cannot run `source` (linearPattern's PatternError), or undefined when it can. */
export function patternProblem(source: string): string | undefined {
  try {
    linearPattern(source);
    return undefined;
  } catch (error) {
    if (error instanceof PatternError) return error.message;
    throw error;
  }
}

/**
 * Ajv's `code.regExp` option: every `pattern` and `patternProperties` key
 * runs on the linear-time engine. `code` is how generated (standalone) code
 * reaches it: STANDALONE_PATTERN_IMPORT names this module so.
 */
export const ajvRegExp = Object.assign((source: string) => linearPattern(source), { code: 'linearPattern.ajvRegExp' });
export const STANDALONE_PATTERN_IMPORT = "import * as linearPattern from './linear-pattern.js';";
