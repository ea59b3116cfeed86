// A witness for a rule that no check confirms: a body, built at the place
// the changed keyword applies, that one document's validator accepts and the
// other's refuses, in the direction the rule says (a request existing
// clients send that the new document refuses, an answer the new document
// allows that the old one ruled out, …). The documents' own validators then
// show the rule right where no request of the run met it; when no body tried
// separates them, the report says the rule is not confirmed. No request is
// sent: the witness is judged by the validators alone.
import { rationalOf } from '../../spec/exact-number.js';
import { INTEGER_FORMAT_RANGES } from '../../spec/formats.js';
import { schemaValidators } from '../../spec/validator.js';
import { repair } from '../cases/draw.js';
import { Numeral, type JsonValue } from '../model/json.js';
import { createOf, type SpecModel, type Validator } from '../model/spec-model.js';
import type { Change, Role, Side } from './change.js';

export interface Witness {
  role: 'request' | 'response';
  body: unknown;
  /** The document that accepts it; the other refuses it with `refusal`. */
  validUnder: 'old' | 'new';
  refusal: string;
}

/** Values on both sides of a number: n - 1, n, n + 1 and halves, exactly for integers beyond 2^53. */
function around(value: unknown): unknown[] {
  const r = rationalOf(value);
  if (!r) return [];
  if (r.d === 1n) {
    const n = r.n;
    const num = (x: bigint) => (x >= BigInt(Number.MIN_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : x);
    return [num(n - 1n), num(n), num(n + 1n), Number(n) - 0.5, Number(n) + 0.5];
  }
  const x = Number(r.n) / Number(r.d);
  return [x, x - 1, x + 1, x / 2];
}

const lengths = (value: unknown): number[] => {
  const n = typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 0 && n < 100_000 ? [n - 1, n, n + 1].filter((x) => x >= 0) : [];
};

/** Values the changed keyword tells apart, from what it was and is. */
function candidates(change: Change): unknown[] {
  const values = [change.before, change.after].filter((v) => v !== undefined);
  switch (change.keyword) {
    case 'maxLength':
    case 'minLength':
      return values.flatMap(lengths).map((n) => 'w'.repeat(n));
    case 'maxItems':
    case 'minItems':
      return values.flatMap(lengths).map((n) => Array.from({ length: n }, (_, i) => `w${i}`));
    case 'maximum':
    case 'exclusiveMaximum':
    case 'minimum':
    case 'exclusiveMinimum':
    case 'multipleOf':
      return [...values.flatMap(around), 1, 0];
    case 'enum':
      return values.flatMap((v) => (Array.isArray(v) ? v : []));
    case 'const':
      return values;
    case 'type':
      return ['w', 7, 7.5, true, null, [], {}];
    case 'format':
      return values.flatMap((f) => (typeof f === 'string' && Object.hasOwn(INTEGER_FORMAT_RANGES, f) ? INTEGER_FORMAT_RANGES[f]!.flatMap((end) => [end - 1n, end, end + 1n]) : []));
    case 'uniqueItems':
      return [['w', 'w']];
    default:
      return [];
  }
}

/** `body` with `value` at `path` (objects made on the way), or without the member `remove` of the object at `path`. */
function placed(body: unknown, path: Array<string | number>, edit: { value: unknown } | { remove: string }): unknown {
  const root = structuredClone(body) as Record<string | number, unknown>;
  let at = root;
  for (const segment of path) {
    if (at[segment] === null || typeof at[segment] !== 'object') at[segment] = typeof segment === 'number' ? [] : {};
    at = at[segment] as Record<string | number, unknown>;
  }
  if ('remove' in edit) {
    delete at[edit.remove];
    return root;
  }
  if (path.length === 0) return edit.value;
  const parentPath = path.slice(0, -1);
  let parent = root;
  for (const segment of parentPath) parent = parent[segment] as Record<string | number, unknown>;
  parent[path[path.length - 1]!] = edit.value;
  return root;
}

/** The validator of a request body or of the success answer, as the harness compiles it: violations name their keyword and pointer. */
function validatorFor(model: SpecModel, role: 'request' | 'response'): Validator | undefined {
  if (role === 'request') return createOf(model).validateRequest;
  const answer = createOf(model).success.schema;
  if (!answer) return undefined;
  return schemaValidators(model.doc, { numeral: (v) => (v instanceof Numeral ? v.text : undefined), unknownKeywords: 'ignore' }).compile(answer.schema, answer.pointer);
}

/**
 * A body that shows the change breaks `side`, or 'none' when the bodies
 * tried do not separate the documents; undefined when no body can be built
 * for this kind of change (a keyword with no values to try, or no known
 * place in the body).
 */
export function witnessOf(change: Change, side: Side, base: SpecModel, head: SpecModel): Witness | 'none' | undefined {
  const path = change.instancePath;
  if (path === undefined) return undefined;
  const removeRequired = change.keyword === 'required' ? /^required: (\S+)/.exec(change.what)?.[1] : undefined;
  const values = candidates(change);
  if (values.length === 0 && removeRequired === undefined) return undefined;
  const edits = removeRequired !== undefined ? [{ remove: removeRequired }] : values.map((value) => ({ value }));
  const roles = change.bearings.filter((b) => b[side] === 'breaks' && (b.role === 'request' || b.role === 'response')).map((b) => b.role as Exclude<Role, 'operation'>);
  const examples = [...createOf(base).requestExamples, ...createOf(head).requestExamples];
  for (const role of new Set(roles)) {
    // A request is written by clients: fewer valid requests break them. An answer is read by them: more valid answers break them.
    const validUnder: 'old' | 'new' = (side === 'clients') === (role === 'request') ? 'old' : 'new';
    const [accepting, refusing] = validUnder === 'old' ? [base, head] : [head, base];
    const accepts = validatorFor(accepting, role);
    const refuses = validatorFor(refusing, role);
    if (!accepts || !refuses) continue;
    for (const example of examples) {
      for (const edit of edits) {
        // What else the accepting document asks of a body holding the value (a oneOf's kind, say) is repaired around it, as the checks' bodies are (draw.ts).
        const { value: body, violations } = repair(accepting, accepts, placed(example, path, edit) as JsonValue, 'value' in edit ? [path] : []);
        if (violations.length > 0) continue;
        const refused = refuses(body);
        if (refused.length > 0) return { role, body, validUnder, refusal: refused.map((v) => `${v.instancePath || '/'} ${v.message}`).join('; ') };
      }
    }
  }
  return roles.length > 0 ? 'none' : undefined;
}
