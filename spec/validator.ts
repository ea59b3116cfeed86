// Validators for the schemas of the document, one construction for the server (request bodies) and the harness (its
// own candidate bodies, and every answer). Ajv checks JSON Schema 2020-12; the keywords it cannot check exactly are
// taken over by one keyword of ours (exact-keyword.ts):
// - `type`, because an integer beyond 2^53 arrives as a bigint and a numeral like 1e-400 as an object that stands for
//   it, neither of which Ajv counts as a number;
// - minimum, maximum, exclusiveMinimum, exclusiveMaximum and multipleOf, and enum and const holding numbers, compared
//   on exact rationals (exact-number.ts); Ajv compares doubles and skips bigints;
// - the integer formats with a range (int32, int64: spec/formats.ts).
// A format that neither this keyword nor ajv-formats knows is an annotation (JSON Schema 2020-12 §7.2.1) and is
// reported as such.
//
// A validator is compiled when asked for (schemaValidators), or generated as an ES module at build time
// (validatorModule) and wrapped when loaded (validatorOf): the two report the same violations. Each schema is first
// checked against the dialect's meta-schema (meta-schema.ts).
import type { ErrorObject, ValidateFunction } from 'ajv';
import { compiledSchema, rememberCompiled, schemaKey } from './compiled-schemas.js';
import { ajvModules } from './ajv.js';
import { generatedMetaSchemaValidator, metaSchemaErrors } from './meta-schema.js';
import { rationalOf } from './exact-number.js';
import { integerRange } from './formats.js';
import {
  EXACT,
  exactKeyword,
  NUMERIC_KEYWORDS,
  STANDALONE_IMPORT,
  type ExactRules,
  type ValidationContext,
} from './exact-keyword.js';
import { ajvRegExp, patternProblem, STANDALONE_PATTERN_IMPORT } from './linear-pattern.js';
import { bundleSchema, DocumentError, documentPointer, type OpenApiDocument } from './openapi.js';
import {
  childPointer,
  isSchemaObject,
  keywordInfo,
  keywordUses,
  type JsonSchema,
  type KeywordUse,
} from './schema-keywords.js';

type Ajv = InstanceType<ReturnType<typeof ajvModules>['ajv']['default']>;

/**
 * The pointer in the document of the schema object holding it: every schema
 * object the validators compile carries its own, so that an error of Ajv's
 * (whose parentSchema is that object, also in generated code, where the
 * schema is a copy) maps back to the document.
 */
const POINTER = 'x-plantstore-pointer';
const JSON_TYPES = ['null', 'boolean', 'object', 'array', 'number', 'string', 'integer'];
export interface Violation {
  /** Where in the instance, as a JSON pointer ('' for the whole value). */
  instancePath: string;
  keyword: string;
  message: string;
  /** The keyword's pointer in the document. */
  pointer: string;
  /** What the keyword found, as data (Ajv's params: the missingProperty of `required`, the limit of `maxLength`, …). */
  params?: Record<string, unknown>;
}

export type Validate = (value: unknown) => Violation[];

/**
 * A violation in words, at the edge where a report or a message shows it:
 * where in the instance, what is wrong, and with `at`, which keyword of the
 * document at which pointer. Until then, violations stay data.
 */
export function describeViolation(v: Violation, { at = false }: { at?: boolean } = {}): string {
  return `${v.instancePath || '/'} ${v.message}${at ? ` (${v.keyword} at ${v.pointer})` : ''}`;
}

export interface ValidatorOptions extends ValidationContext {
  /**
   * A keyword that is neither JSON Schema 2020-12 nor OpenAPI 3.1 nor an
   * `x-` extension: 'refuse' throws a DocumentError naming it (the server:
   * a misspelt `maxLenght` must not pass for no bound at all); 'ignore' leaves
   * it out (the harness, which reports it as not exercised).
   */
  unknownKeywords: 'refuse' | 'ignore';
}

/** A format the validators treat as an annotation, and where. */
export interface UncheckedFormat {
  format: string;
  pointer: string;
}

export interface SchemaValidators {
  /** The validator of the schema at `pointer`; `without` leaves out the keywords at these pointers (the harness's "valid but for this keyword"). */
  compile(schema: unknown, pointer: string, without?: ReadonlySet<string>): Validate;
  /** Formats no validator here checks, found while compiling. */
  uncheckedFormats: () => UncheckedFormat[];
}

/** Formats ajv-formats asserts on strings (its "full" mode); the number formats among its list are ours or annotations. */
const STRING_FORMATS = new Set([
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
]);

/** The string formats the validators assert (the harness draws a valid and an invalid string of each). */
export function checkedStringFormats(): string[] {
  return [...STRING_FORMATS];
}

/** Whether `format` is asserted by the validators (and so can be exercised). */
export function isCheckedFormat(format: string): boolean {
  return STRING_FORMATS.has(format) || integerRange(format) !== undefined;
}

/**
 * Validators for the schemas of `doc`. Every keyword of every schema is
 * checked once, here, for the server and the harness alike: a value a
 * validator cannot use (a `minimum` that is not a number, a `pattern` that is
 * not a regular expression) is a DocumentError naming it and its pointer.
 */
export function schemaValidators(doc: OpenApiDocument, options: ValidatorOptions): SchemaValidators {
  const compiler = ajvCompiler(doc, options, false);
  return {
    compile: (schema, pointer, without) => validatorOf(compiler.compile(schema, pointer, without), pointer, options),
    uncheckedFormats: compiler.uncheckedFormats,
  };
}

/** A validator generated by validatorModule, or compiled here: Ajv's function with the caller's context. */
export function validatorOf(validate: ValidateFunction, pointer: string, context: ValidationContext): Validate {
  const self: ValidationContext = { numeral: context.numeral };
  return (value) => (validate.call(self, value) ? [] : violations(validate.errors ?? [], pointer));
}

/**
 * The validator of the schema at `pointer` as the text of an ES module (Ajv's
 * standalone code), to be written into dist/spec/ beside exact-keyword.js:
 * `validate` (Ajv's function: wrap it with validatorOf) and
 * `uncheckedFormats`. Loading it compiles nothing, and needs none of Ajv's
 * compiler: only the few functions of Ajv's runtime that the schema uses.
 * Its schema must hold no integer beyond 2^53 outside the numeric keywords:
 * generated code writes the schema out as JSON, and such a schema is a
 * DocumentError.
 */
export function validatorModule(
  doc: OpenApiDocument,
  schema: unknown,
  pointer: string,
  options: ValidatorOptions,
): string {
  const compiler = ajvCompiler(doc, options, true);
  const validate = compiler.compile(schema, pointer);
  const code = ajvModules().standaloneCode(compiler.ajv, validate);
  return [
    STANDALONE_IMPORT,
    STANDALONE_PATTERN_IMPORT,
    importsForRequires(code),
    `export const uncheckedFormats = ${JSON.stringify(compiler.uncheckedFormats())};`,
    '',
  ].join('\n');
}

/**
 * Ajv's standalone code reaches its runtime helpers (ucs2length for
 * maxLength, equal for enum, ajv-formats' formats) by require(), which an ES
 * module does not have: each becomes an import. They are CommonJS, whose
 * module.exports an ES module imports as its default.
 */
function importsForRequires(code: string): string {
  const imports = new Map<string, string>();
  const body = code.replace(/require\("([^"]+)"\)/g, (_call, specifier: string) => {
    // A package's file needs its extension when imported (these packages map no exports).
    const file =
      /^(@[^/]+\/)?[^/]+\/.*[^/]$/.test(specifier) && !/\.[cm]?js$/.test(specifier) ? `${specifier}.js` : specifier;
    if (!imports.has(file)) imports.set(file, `ajvRuntime${imports.size}`);
    return imports.get(file)!;
  });
  return [...[...imports].map(([file, name]) => `import ${name} from ${JSON.stringify(file)};`), body].join('\n');
}

interface AjvCompiler {
  ajv: Ajv;
  compile(schema: unknown, pointer: string, without?: ReadonlySet<string>): ValidateFunction;
  uncheckedFormats: () => UncheckedFormat[];
}

/** A new Ajv with our options, formats and keyword. */
function newAjv(standalone: boolean): Ajv {
  const { ajv: ajvModule, addFormats } = ajvModules();
  // Unknown keywords are refused or left out before Ajv sees them (`prepare`);
  // what strict mode would add is refusing keywords 2020-12 says to ignore
  // (`then` without `if`), which a valid document may hold.
  // verbose: each error carries its schema object, whose POINTER locates it in the document.
  // passContext: the caller's ValidationContext reaches our keyword as `this`.
  // code.regExp: `pattern` runs on a linear-time engine (linear-pattern.ts), never V8's backtracking one.
  const ajv: Ajv = new ajvModule.default({
    allErrors: true,
    strict: false,
    logger: false,
    verbose: true,
    passContext: true,
    validateSchema: generatedMetaSchemaValidator() === null, // compile checks it (meta-schema.ts)
    code: { regExp: ajvRegExp, ...(standalone ? { source: true, esm: true } : {}) },
  });
  addFormats(ajv, [...STRING_FORMATS] as Parameters<typeof addFormats>[1]);
  ajv.addKeyword(exactKeyword());
  return ajv;
}

function ajvCompiler(doc: OpenApiDocument, options: ValidatorOptions, standalone: boolean): AjvCompiler {
  // Made when a schema is not among those compiled already (always for standalone code, which needs its Ajv).
  let instance: Ajv | undefined;
  const ajvOf = () => (instance ??= newAjv(standalone));
  const unchecked = new Map<string, UncheckedFormat>();

  const prepare =
    (without: ReadonlySet<string>) =>
    (node: JsonSchema, pointer: string): JsonSchema => {
      const out: JsonSchema = {};
      for (const [keyword, value] of Object.entries(node)) {
        const at = childPointer(pointer, keyword);
        if (without.has(at)) continue;
        if (keywordInfo(keyword) === undefined) {
          if (options.unknownKeywords === 'refuse')
            throw new DocumentError(
              at,
              keyword,
              'not a keyword of JSON Schema 2020-12 or OpenAPI 3.1 (extensions start with x-)',
            );
          continue;
        }
        if (keyword === '$ref' && !isLocalSchemaReference(value)) {
          throw new DocumentError(
            at,
            keyword,
            `${JSON.stringify(value)}: only references to #/components/schemas/… of this document are read`,
          );
        }
        out[keyword] = value;
      }
      return { ...takeOverExactKeywords(out, pointer, unchecked), [POINTER]: pointer };
    };

  return {
    get ajv() {
      return ajvOf();
    },
    compile(schema, pointer, without = new Set()) {
      const bundled = bundleSchema(doc, schema, pointer, prepare(without));
      const key = standalone ? undefined : schemaKey(bundled);
      const known = key === undefined ? undefined : compiledSchema(key);
      if (known !== undefined) return known;
      const ajv = ajvOf();
      const invalid = metaSchemaErrors(ajv, bundled);
      if (invalid !== undefined) {
        const first = invalid[0];
        const at = documentPointer(first?.instancePath ?? '', pointer);
        throw new DocumentError(
          at,
          at.split('/').pop(),
          `not a valid JSON Schema 2020-12 value: ${first?.message ?? 'invalid'}`,
        );
      }
      try {
        const validate = ajv.compile(bundled);
        if (key !== undefined) rememberCompiled(key, validate);
        return validate;
      } catch (error) {
        // Ajv speaks of the bundled schema (#/$defs/X); the author wrote #/components/schemas/X.
        throw new DocumentError(
          pointer,
          undefined,
          `the schema cannot be compiled: ${(error as Error).message.replace(/#\/\$defs\//g, '#/components/schemas/')}`,
        );
      }
    },
    uncheckedFormats: () => [...unchecked.values()],
  };
}

/** Every keyword of the document's schemas, with its pointer (components and those written inline in paths). */
export function documentKeywordUses(doc: OpenApiDocument): KeywordUse[] {
  const uses: KeywordUse[] = [];
  for (const [name, schema] of Object.entries(doc.components.schemas))
    uses.push(...keywordUses(schema, childPointer('#/components/schemas', name)));
  const visit = (node: unknown, pointer: string): void => {
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const at = childPointer(pointer, key);
      if (key === 'schema') uses.push(...keywordUses(value, at));
      else if (key !== 'example' && key !== 'examples') visit(value, at);
    }
  };
  visit(doc.paths, '#/paths');
  return uses;
}

/** After bundleSchema: `#/$defs/…` (a component schema) or a plain-name fragment (`#anchor`). */
function isLocalSchemaReference(ref: unknown): boolean {
  return (
    typeof ref === 'string' && (ref.startsWith('#/$defs/') || /^#[A-Za-z_][-A-Za-z0-9._]*$/.test(ref) || ref === '#')
  );
}

/** Ajv's errors as violations; `rootPointer` stands for a schema that is not an object (`false`), which has no POINTER. */
function violations(errors: ErrorObject[], rootPointer: string): Violation[] {
  return errors.map((e) => {
    const { pointer, ...params } = e.params as { pointer?: string };
    return {
      instancePath: e.instancePath,
      keyword: e.keyword,
      message: e.message ?? 'is invalid',
      // Our keyword's errors name the keyword they stand for (minimum, type, ...) and its pointer.
      pointer:
        pointer ?? childPointer((e.parentSchema as JsonSchema | boolean)?.[POINTER as never] ?? rootPointer, e.keyword),
      ...(Object.keys(params).length > 0 ? { params } : {}),
    };
  });
}

/** Moves `type`, the numeric keywords, integer formats and numeric enum/const of one schema object into EXACT; checks their values. */
function takeOverExactKeywords(node: JsonSchema, pointer: string, unchecked: Map<string, UncheckedFormat>): JsonSchema {
  const rules: ExactRules = { at: pointer };
  const out: JsonSchema = { ...node };
  if ('type' in out) {
    const types = Array.isArray(out.type) ? out.type : [out.type];
    for (const t of types)
      if (typeof t !== 'string' || !JSON_TYPES.includes(t))
        throw new DocumentError(
          childPointer(pointer, 'type'),
          'type',
          `${JSON.stringify(t)} is not a JSON Schema type`,
        );
    rules.types = types as string[];
    delete out.type;
  }
  for (const keyword of NUMERIC_KEYWORDS) {
    if (!(keyword in out)) continue;
    const value = rationalOf(typeof out[keyword] === 'string' ? undefined : out[keyword]);
    if (!value || (keyword === 'multipleOf' && value.n <= 0n)) {
      throw new DocumentError(
        childPointer(pointer, keyword),
        keyword,
        `${JSON.stringify(String(out[keyword]))} is not ${keyword === 'multipleOf' ? 'a number above 0' : 'a number'}`,
      );
    }
    // Its numeral (a bigint's digits, a double's shortest form), which rationalOf reads back to the same value.
    (rules.bounds ??= {})[keyword] = String(out[keyword]);
    delete out[keyword];
  }
  if (typeof out.format === 'string') {
    if (integerRange(out.format) !== undefined) {
      rules.format = out.format;
      delete out.format;
    } else if (!STRING_FORMATS.has(out.format)) {
      const at = childPointer(pointer, 'format');
      unchecked.set(at, { format: out.format, pointer: at });
      delete out.format;
    }
  }
  if (Array.isArray(out.enum) && out.enum.some(holdsNumber)) {
    rules.enum = out.enum;
    delete out.enum;
  }
  if ('const' in out && holdsNumber(out.const)) {
    rules.const = { value: out.const };
    delete out.const;
  }
  if (typeof out.pattern === 'string') checkPattern(out.pattern, childPointer(pointer, 'pattern'), 'pattern');
  for (const key of isSchemaObject(out.patternProperties) ? Object.keys(out.patternProperties) : [])
    checkPattern(key, childPointer(pointer, 'patternProperties', key), 'patternProperties');
  if (Object.keys(rules).length > 1) out[EXACT] = rules;
  return out;
}

/** A pattern the linear-time engine cannot run is refused, naming why (linear-pattern.ts): none ever runs on a backtracking engine. */
function checkPattern(pattern: string, at: string, keyword: string): void {
  const problem = patternProblem(pattern);
  if (problem !== undefined) throw new DocumentError(at, keyword, problem);
}

function holdsNumber(value: unknown): boolean {
  if (typeof value === 'number' || typeof value === 'bigint') return true;
  if (Array.isArray(value)) return value.some(holdsNumber);
  return value !== null && typeof value === 'object' && Object.values(value).some(holdsNumber);
}
