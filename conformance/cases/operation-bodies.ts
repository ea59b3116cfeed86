// Request bodies for any operation and media type, made as the create's are
// (bodies.ts): the document's examples and values drawn from the schema,
// repaired by the media type's validator, with what a check fixes (the id
// the path names, a unique name) frozen; and bodies valid but for one change
// (a required property left out, a property of another JSON type, a value
// that is not an object), each refused by the validator for that change alone.
import type { Violation } from '../../spec/validator.js';
import { isSchemaObject } from '../../spec/schema-keywords.js';
import { Numeral, type JsonValue } from '../model/json.js';
import { RuledOut } from '../model/ruled-out.js';
import { flattenObject, type RequestBodyModel, type SpecModel } from '../model/spec-model.js';
import { aboutFrozen, drawValid, explain, repair } from './draw.js';
import { samplesOf, setAt, typeExemplars, typeAllowed, type InstancePath } from './schema-values.js';

/** What a check sets in a body, each at its place (undefined removes it). */
export type BodyChange = [path: InstancePath, value: JsonValue | undefined];

const isObject = (v: unknown): v is Record<string, JsonValue> => isSchemaObject(v) && !(v instanceof Numeral);

/** The candidates a body of this media type starts from: its examples, then values drawn from its schema (the richest first). */
function candidates(model: SpecModel, body: RequestBodyModel): JsonValue[] {
  const drawn = body.schema ? samplesOf(model, body.schema.schema, body.schema.pointer) : [];
  const all = [...(body.examples as JsonValue[]), ...drawn];
  return all.sort((a, b) => (isObject(b) ? Object.keys(b).length : 0) - (isObject(a) ? Object.keys(a).length : 0));
}

/**
 * A valid body of this media type with `changes` set, the rest repaired
 * around them. Throws RuledOut when the document allows no such body.
 */
export function validBody(model: SpecModel, body: RequestBodyModel, changes: readonly BodyChange[] = []): JsonValue {
  const validate = body.validate;
  if (!validate) {
    const base = candidates(model, body)[0] ?? {};
    return changes.reduce<JsonValue>((acc, [path, value]) => setAt(acc, path, value), base);
  }
  let value = drawValid(model, validate, candidates(model, body), `a valid ${body.contentType} body`);
  for (const [path, v] of changes) value = setAt(value, path, v);
  const frozen = changes.map(([path]) => path);
  const repaired =
    validate(value).length === 0 ? { value, violations: [] as Violation[] } : repair(model, validate, value, frozen);
  if (repaired.violations.length > 0)
    throw new RuledOut(
      `the document allows no valid ${body.contentType} body with ${changes.map(([p]) => `/${p.join('/')}`).join(', ')} set: ${explain(repaired.violations)}`,
    );
  return repaired.value;
}

/** The change that makes a body invalid, and what it is, in a few words. */
export interface BrokenBody {
  body: JsonValue;
  label: string;
}

/**
 * Bodies valid but for one change (at most `max`): the whole body of another
 * JSON type, a required property left out, a property of a type its schema
 * does not allow. Each is kept only when the validator refuses it for that
 * change alone, the rest repaired around it.
 */
export function brokenBodies(
  model: SpecModel,
  body: RequestBodyModel,
  keep: readonly BodyChange[] = [],
  max = 3,
): BrokenBody[] {
  const validate = body.validate;
  if (!validate || !body.schema) return [];
  let base: JsonValue;
  try {
    base = validBody(model, body, keep);
  } catch (err) {
    if (err instanceof RuledOut) return [];
    throw err;
  }
  const shape = flattenObject(model.doc, body.schema.schema, body.schema.pointer);
  const changes: Array<[BodyChange, string]> = [
    [[[], ['not', 'an', 'object']], 'an array where the body is an object'],
  ];
  for (const name of shape.required) changes.push([[[name], undefined], `without its required ${name}`]);
  for (const field of shape.fields) {
    const other = typeExemplars('7').find((e) => !typeAllowed(field.types, e.type) && e.type !== 'null');
    if (other && field.types.length > 0) changes.push([[[field.name], other.value], `${field.name} as ${other.label}`]);
  }
  const frozen = keep.map(([path]) => path);
  const out: BrokenBody[] = [];
  for (const [[path, value], label] of changes) {
    if (frozen.some((f) => f.join('/') === path.join('/'))) continue;
    const changed = setAt(base, path, value);
    const repaired =
      path.length === 0
        ? { value: changed, violations: validate(changed) }
        : repair(model, validate, changed, [path, ...frozen]);
    // Refused, and for the change alone: every violation left is about the changed place.
    if (repaired.violations.length === 0 || repaired.violations.some((v) => !aboutFrozen(v, repaired.value, [path])))
      continue;
    out.push({ body: repaired.value, label });
    if (out.length >= max) break;
  }
  return out;
}
