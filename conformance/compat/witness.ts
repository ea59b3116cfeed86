// A witness of a rule: one exchange that one document allows and the other
// refuses, in the direction the rule says (a request existing clients send
// that the new document refuses, an answer the new document allows that the
// old one ruled out, …). A rule names a candidate; the witness shows it from
// the documents themselves, and the report gives it as the change's one-line
// example. For a schema, the witness is a body, built at the place the
// changed keyword applies in an example of the document, judged by each
// document's own validator; for an operation, a parameter, a status, a media
// type or a security scheme, it is the exchange one document declares and
// the other does not (witness-exchange.ts). No request is sent.
import { rationalOf } from '../../spec/exact-number.js';
import { INTEGER_FORMAT_RANGES } from '../../spec/formats.js';
import type { OpenApiDocument } from '../../spec/openapi.js';
import { isSchemaObject } from '../../spec/schema-keywords.js';
import { MAX_MADE_BYTES, MAX_MADE_VALUES } from '../../spec/value-budget.js';
import { documentKeywordUses, schemaValidators } from '../../spec/validator.js';
import { repair, schemaAtPointer } from '../cases/draw.js';
import { samplesOf } from '../cases/schema-values.js';
import { Numeral, type JsonValue } from '../model/json.js';
import { resolveSchema, type DocumentSchemas, type Validator } from '../model/spec-model.js';
import type { Bearing, Change, Side } from './change.js';
import { exchangeWitness, shortJson, type Witness, type WitnessDocument } from './witness-exchange.js';

export type { Witness, WitnessDocument };

/** A document as the witnesses read it: its schemas, and a validator for the schema at a pointer (as the harness compiles it). */
export function witnessDocument(doc: OpenApiDocument): WitnessDocument {
  const validators = schemaValidators(doc, {
    numeral: (v) => (v instanceof Numeral ? v.text : undefined),
    unknownKeywords: 'ignore',
  });
  const cache = new Map<string, Validator | undefined>();
  const model: DocumentSchemas = { doc, keywords: documentKeywordUses(doc) };
  return {
    ...model,
    validator(pointer) {
      if (!cache.has(pointer)) {
        const schema = schemaAtPointer(model, pointer);
        cache.set(pointer, schema === undefined ? undefined : validators.compile(schema, pointer));
      }
      return cache.get(pointer);
    },
  };
}

/** Values on both sides of a number: n - 1, n, n + 1 and halves, exactly for integers beyond 2^53. */
function around(value: unknown): unknown[] {
  const r = rationalOf(value);
  if (!r) return [];
  if (r.d === 1n) {
    const n = r.n;
    const num = (x: bigint) =>
      x >= BigInt(Number.MIN_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : x;
    return [num(n - 1n), num(n), num(n + 1n), Number(n) - 0.5, Number(n) + 0.5];
  }
  const x = Number(r.n) / Number(r.d);
  return [x, x - 1, x + 1, x / 2];
}

/** n - 1, n and n + 1 for a length `value`, each within `most` (the budget of a made value): none past it is made. */
const lengths = (value: unknown, most: number): number[] => {
  const n = typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 0 ? [n - 1, n, n + 1].filter((x) => x >= 0 && x <= most) : [];
};

/** One value of each JSON type, and strings a pattern or an enum may tell apart. */
const EVERY_TYPE = ['w', 7, 7.5, true, null, [], {}];
const STRINGS = ['', 'w', 'W', '0', ' ', 'w w', 'Ww0-', 'wé'];

/** Values the changed keyword tells apart, from what it was and is. */
function candidates(change: Change): unknown[] {
  const values = [change.before, change.after].filter((v) => v !== undefined);
  switch (change.keyword) {
    case 'maxLength':
    case 'minLength':
      return values.flatMap((v) => lengths(v, MAX_MADE_BYTES)).map((n) => 'w'.repeat(n));
    case 'maxItems':
    case 'minItems':
      return values
        .flatMap((v) => lengths(v, MAX_MADE_VALUES))
        .map((n) => Array.from({ length: n }, (_, i) => `w${i}`));
    case 'maximum':
    case 'exclusiveMaximum':
    case 'minimum':
    case 'exclusiveMinimum':
    case 'multipleOf':
      return [...values.flatMap(around), 1, 0];
    case 'enum':
    case 'const':
      return [
        ...values.flatMap((v): unknown[] => (change.keyword === 'enum' && Array.isArray(v) ? (v as unknown[]) : [v])),
        ...STRINGS,
        ...EVERY_TYPE,
      ];
    case 'pattern':
      return STRINGS;
    case 'type':
      return EVERY_TYPE;
    case 'format':
      return values.flatMap((f) =>
        typeof f === 'string' && Object.hasOwn(INTEGER_FORMAT_RANGES, f)
          ? INTEGER_FORMAT_RANGES[f]!.flatMap((end) => [end - 1n, end, end + 1n])
          : [],
      );
    case 'uniqueItems':
      return [['w', 'w']];
    default:
      return [];
  }
}

type Edit = { at: Array<string | number>; value: unknown } | { at: Array<string | number>; remove: string };

/** `body` with `value` at `path` (objects made on the way), or without the member `remove` of the object at `path`. */
function edited(body: unknown, edit: Edit): unknown {
  if ('value' in edit && edit.at.length === 0) return edit.value;
  const root = (isSchemaObject(body) || Array.isArray(body) ? structuredClone(body) : {}) as Record<
    string | number,
    unknown
  >;
  let at = root;
  const steps = 'remove' in edit ? edit.at : edit.at.slice(0, -1);
  for (const segment of steps) {
    if (at[segment] === null || typeof at[segment] !== 'object') at[segment] = typeof segment === 'number' ? [] : {};
    at = at[segment] as Record<string | number, unknown>;
  }
  if ('remove' in edit) delete at[edit.remove];
  else at[edit.at[edit.at.length - 1]!] = edit.value;
  return root;
}

/** The edits a change suggests: its values at the place its keyword applies, or the property it is about left out (or given another value). */
function editsOf(change: Change): Edit[] {
  const path = change.instancePath;
  if (path === undefined) return [];
  if (change.member !== undefined && (change.keyword === 'required' || change.keyword === 'echo'))
    return [{ at: path, remove: change.member }];
  if (change.member !== undefined && change.keyword === 'properties')
    // A rename: either name, each of the two documents describing one of them.
    return [change.member, ...(change.renamedFrom !== undefined ? [change.renamedFrom] : [])].flatMap((name) =>
      EVERY_TYPE.map((value) => ({ at: [...path, name], value })),
    );
  return candidates(change).map((value) => ({ at: path, value }));
}

/** The author's examples for the schema at `pointer`: its media type's or parameter's, and the schema's own. */
function examplesAt(d: WitnessDocument, pointer: string): unknown[] {
  const holder = schemaAtPointer(d, pointer.replace(/\/schema$/, ''));
  const out: unknown[] = [];
  if (isSchemaObject(holder)) {
    if (holder.example !== undefined) out.push(holder.example);
    if (isSchemaObject(holder.examples))
      for (const e of Object.values(holder.examples)) if (isSchemaObject(e) && e.value !== undefined) out.push(e.value);
  }
  const { schema } = resolveSchema(d.doc, schemaAtPointer(d, pointer), pointer);
  if (isSchemaObject(schema) && Array.isArray(schema.examples)) out.push(...(schema.examples as unknown[]));
  return out;
}

/**
 * A witness that the change breaks `side`, 'none' when every exchange tried
 * is judged alike by the two documents (the rule is not confirmed), or
 * undefined when no exchange can be built for this kind of change.
 */
export function witnessOf(
  change: Change,
  side: Side,
  base: WitnessDocument,
  head: WitnessDocument,
): Witness | 'none' | undefined {
  const exchange = exchangeWitness(change, side, base, head);
  if (exchange !== undefined) return exchange;
  const edits = editsOf(change);
  const bearings = change.bearings.filter(
    (b): b is Bearing & { site: { old: string; new: string } } =>
      b[side] === 'breaks' && b.site !== undefined && b.role !== 'operation',
  );
  if (edits.length === 0 || bearings.length === 0) return undefined;
  for (const b of bearings) {
    // A request is written by clients: fewer valid requests break them. An answer is read by them: more valid answers break them.
    const validUnder: 'old' | 'new' = (side === 'clients') === (b.role === 'request') ? 'old' : 'new';
    const [accepting, refusing, at, other] =
      validUnder === 'old' ? [base, head, b.site.old, b.site.new] : [head, base, b.site.new, b.site.old];
    const accepts = accepting.validator(at);
    const refuses = refusing.validator(other);
    if (!accepts || !refuses) continue;
    const starts = [
      ...examplesAt(accepting, at),
      ...examplesAt(refusing, other),
      ...samplesOf(accepting, schemaAtPointer(accepting, at), at).slice(0, 2),
    ];
    for (const start of starts) {
      for (const edit of edits) {
        // What else the accepting document asks of a body holding the value (a oneOf's kind, say) is repaired around it, as the checks' bodies are (draw.ts).
        const { value: body, violations } = repair(
          accepting,
          accepts,
          edited(start, edit) as JsonValue,
          'value' in edit ? [edit.at] : [],
        );
        if (violations.length > 0 || ('remove' in edit && isSchemaObject(body) && Object.hasOwn(body, edit.remove)))
          continue;
        const refused = refuses(body);
        if (refused.length > 0) {
          return {
            role: b.role === 'request' ? 'request' : 'response',
            example: `${b.usage}: ${shortJson(body)}`,
            body,
            validUnder,
            refusal: refused.map((v) => `${v.instancePath || '/'} ${v.message}`).join('; '),
          };
        }
      }
    }
  }
  return 'none';
}
