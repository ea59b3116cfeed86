// Valid values for the document as it is, whatever keywords it uses: a value
// is proposed from the schema's keywords (schema-values.ts), then repaired
// with the document's own validator as the oracle. Each violation the
// validator reports names its keyword, its place in the body and its schema
// (spec/validator.ts); a repair tries the fixes that keyword allows (add the
// property `required` asks for, drop the one `additionalProperties` refuses,
// put a value drawn from the violated schema where the wrong one is) and
// keeps the one that leaves the fewest violations. So a body holds whatever
// the document demands of it (a property an `if`/`then` asks for, an item
// `contains` wants, a multiple of two `multipleOf`s), with no rule written
// here for any particular document.
//
// What a check varies is frozen: a repair never changes it. When the
// violations left are about the frozen part, the document rules out what the
// check needs, and the check is skipped with that reason (RuledOut).
import { describeViolation, type Violation } from '../../spec/validator.js';
import { linearPattern } from '../../spec/linear-pattern.js';
import { childPointer, isSchemaObject, type JsonSchema } from '../../spec/schema-keywords.js';
import { Numeral, type JsonValue } from '../model/json.js';
import { getAt, samplesOf, setAt, type InstancePath } from './schema-values.js';
import type { DocumentSchemas, Validator } from '../model/spec-model.js';
import { RuledOut } from '../model/ruled-out.js';

export { RuledOut } from '../model/ruled-out.js';

/** Most repairs of one value: each removes at least one violation, so this bounds a body of that many violations. */
const MAX_REPAIRS = 64;

/** The schema object at a pointer of the document (`#/components/schemas/Plant/properties/name`). */
export function schemaAtPointer(model: DocumentSchemas, pointer: string): unknown {
  let node: unknown = model.doc;
  for (const raw of pointer.replace(/^#\/?/, '').split('/')) {
    if (raw === '') continue;
    const token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** The parent of a keyword's pointer: the schema object that holds it. */
export function holderOf(pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf('/'));
}

/** An instance path as Ajv writes it ('/tags/0/name') as the keys of `value` it leads through. */
export function instancePath(pointer: string, value: JsonValue): InstancePath {
  const out: InstancePath = [];
  let at: JsonValue | undefined = value;
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const key: string | number = Array.isArray(at) && /^\d+$/.test(token) ? Number(token) : token;
    out.push(key);
    at =
      at !== null && typeof at === 'object' && !(at instanceof Numeral)
        ? (at as Record<string | number, JsonValue>)[key]
        : undefined;
  }
  return out;
}

const startsWith = (path: InstancePath, prefix: InstancePath) =>
  prefix.length <= path.length && prefix.every((k, i) => String(path[i]) === String(k));
/** Whether changing the value at `path` would change a frozen value (it is one, holds one, or is inside one). */
const touchesFrozen = (path: InstancePath, frozen: readonly InstancePath[]) =>
  frozen.some((f) => startsWith(path, f) || startsWith(f, path));

/** The property a violation names (a missing, an unknown, a badly named one), from Ajv's params. */
function namedProperty(v: Violation): string | undefined {
  const p = v.params ?? {};
  for (const key of ['missingProperty', 'additionalProperty', 'unevaluatedProperty', 'propertyName'])
    if (typeof p[key] === 'string') return p[key];
  return undefined;
}

/**
 * Whether a violation is about a frozen part: a value at or inside it, or
 * its object refusing or missing it (required, additionalProperties,
 * propertyNames, dependentRequired name it).
 */
export function aboutFrozen(v: Violation, body: JsonValue, frozen: readonly InstancePath[]): boolean {
  const at = instancePath(v.instancePath, body);
  if (frozen.some((f) => startsWith(at, f))) return true;
  const named = namedProperty(v);
  if (named !== undefined && frozen.some((f) => startsWith([...at, named], f) || startsWith(f, [...at, named])))
    return true;
  // The count of an object's properties or an array's items changed with a frozen member.
  return (
    [
      'minProperties',
      'maxProperties',
      'minItems',
      'maxItems',
      'uniqueItems',
      'contains',
      'minContains',
      'maxContains',
    ].includes(v.keyword) && frozen.some((f) => f.length === at.length + 1 && startsWith(f, at))
  );
}

/** Values drawn from the schema holding a violated keyword, and from the branches an applicator names. */
function drawnFor(model: DocumentSchemas, v: Violation): JsonValue[] {
  const holderPointer = holderOf(v.pointer);
  const holder = schemaAtPointer(model, holderPointer);
  const out = samplesOf(model, holder, holderPointer);
  const keywordValue = isSchemaObject(holder) ? holder[v.keyword] : undefined;
  if (Array.isArray(keywordValue))
    keywordValue.forEach((branch, i) =>
      out.push(...samplesOf(model, branch, childPointer(holderPointer, v.keyword, i))),
    );
  else if (isSchemaObject(keywordValue))
    out.push(...samplesOf(model, keywordValue, childPointer(holderPointer, v.keyword)));
  // `if` failed its `then` or `else`: values of that branch.
  if (v.keyword === 'if' && isSchemaObject(holder)) {
    for (const branch of ['then', 'else'] as const)
      if (holder[branch] !== undefined)
        out.push(...samplesOf(model, holder[branch], childPointer(holderPointer, branch)));
  }
  return out;
}

/** The schema of property `name` of the object schema at `pointer`, when it states one (properties, patternProperties, additionalProperties). */
function propertySchema(
  model: DocumentSchemas,
  pointer: string,
  name: string,
): { schema: unknown; pointer: string } | undefined {
  const holder = schemaAtPointer(model, pointer);
  if (!isSchemaObject(holder)) return undefined;
  if (isSchemaObject(holder.properties) && name in holder.properties)
    return { schema: holder.properties[name], pointer: childPointer(pointer, 'properties', name) };
  if (isSchemaObject(holder.patternProperties)) {
    for (const [pattern, schema] of Object.entries(holder.patternProperties)) {
      try {
        // On the validators' linear-time engine: V8's backtracks, and a document's `^([\s\S]+)+X$` would hang the run.
        if (linearPattern(pattern).test(name))
          return { schema, pointer: childPointer(pointer, 'patternProperties', pattern) };
      } catch {
        // A pattern the validators refused already; nothing to draw from.
      }
    }
  }
  return undefined;
}

/** Every schema object of the document that declares property `name`: a required property may be declared beside the `required` that names it. */
function declarationsOf(model: DocumentSchemas, name: string): Array<{ schema: unknown; pointer: string }> {
  return model.keywords
    .filter((u) => u.keyword === 'properties' && isSchemaObject(u.value) && name in u.value)
    .map((u) => ({ schema: (u.value as JsonSchema)[name], pointer: childPointer(u.pointer, name) }));
}

/** Names for a property an object must gain (minProperties): those its schema declares, then names its patterns and propertyNames allow. */
function newPropertyNames(model: DocumentSchemas, holderPointer: string, current: Record<string, JsonValue>): string[] {
  const holder = schemaAtPointer(model, holderPointer);
  const names: string[] = [];
  if (isSchemaObject(holder)) {
    if (isSchemaObject(holder.properties)) names.push(...Object.keys(holder.properties));
    if (isSchemaObject(holder.patternProperties))
      for (const pattern of Object.keys(holder.patternProperties))
        names.push(
          ...samplesOf(model, { type: 'string', pattern }, holderPointer).filter(
            (s): s is string => typeof s === 'string',
          ),
        );
    if (holder.propertyNames !== undefined)
      names.push(
        ...samplesOf(model, holder.propertyNames, childPointer(holderPointer, 'propertyNames')).filter(
          (s): s is string => typeof s === 'string',
        ),
      );
  }
  names.push('conformanceExtra', 'extra1', 'x');
  return [...new Set(names)].filter((n) => !(n in current));
}

/** The fixes a violation allows, each a whole new value of the body; none touches a frozen part. */
function fixesFor(model: DocumentSchemas, body: JsonValue, v: Violation, frozen: readonly InstancePath[]): JsonValue[] {
  const at = instancePath(v.instancePath, body);
  const here = getAt(body, at);
  const holderPointer = holderOf(v.pointer);
  const out: JsonValue[] = [];
  const put = (path: InstancePath, value: JsonValue | undefined) => {
    if (!touchesFrozen(path, frozen)) out.push(setAt(body, path, value));
  };
  // The array with one of its items left out, for each item not frozen (too many items, or one repeated).
  const withoutEachItem = () => {
    if (Array.isArray(here))
      here.forEach((_, i) => {
        if (!touchesFrozen([...at, i], frozen))
          out.push(
            setAt(
              body,
              at,
              here.filter((_x, j) => j !== i),
            ),
          );
      });
  };
  const named = namedProperty(v);
  switch (v.keyword) {
    case 'required':
    case 'dependentRequired': {
      if (named === undefined) break;
      const declared = [propertySchema(model, holderPointer, named), ...declarationsOf(model, named)].filter(
        (d) => d !== undefined,
      );
      const values = declared.flatMap((d) => samplesOf(model, d.schema, d.pointer));
      for (const value of [...values, 'conformance', 1]) put([...at, named], value);
      return out;
    }
    case 'additionalProperties':
    case 'unevaluatedProperties':
    case 'propertyNames':
      if (named !== undefined) put([...at, named], undefined);
      return out;
    case 'maxProperties':
      if (isSchemaObject(here)) for (const key of Object.keys(here)) put([...at, key], undefined);
      return out;
    case 'minProperties':
      if (isSchemaObject(here)) {
        for (const name of newPropertyNames(model, holderPointer, here).slice(0, 6)) {
          const schema = propertySchema(model, holderPointer, name);
          for (const value of [...(schema ? samplesOf(model, schema.schema, schema.pointer).slice(0, 2) : []), 'x'])
            put([...at, name], value);
        }
      }
      return out;
    case 'maxItems':
    case 'maxContains':
      withoutEachItem();
      return out;
    case 'minItems':
    case 'contains':
    case 'minContains': {
      if (
        !Array.isArray(here) ||
        touchesFrozen(
          at,
          frozen.filter((f) => f.length <= at.length),
        )
      )
        break;
      const holder = schemaAtPointer(model, holderPointer);
      const itemSchemas: Array<[unknown, string]> = [];
      if (isSchemaObject(holder)) {
        if (holder.contains !== undefined) itemSchemas.push([holder.contains, childPointer(holderPointer, 'contains')]);
        if (Array.isArray(holder.prefixItems) && here.length < holder.prefixItems.length)
          itemSchemas.push([holder.prefixItems[here.length], childPointer(holderPointer, 'prefixItems', here.length)]);
        if (holder.items !== undefined) itemSchemas.push([holder.items, childPointer(holderPointer, 'items')]);
      }
      for (const [schema, pointer] of itemSchemas)
        for (const item of samplesOf(model, schema, pointer).slice(0, 3)) out.push(setAt(body, at, [...here, item]));
      return out;
    }
    case 'uniqueItems':
      withoutEachItem();
      break;
    default:
      break;
  }
  if (touchesFrozen(at, frozen)) return out;
  // A value drawn from the violated schema in place of the wrong one; an object keeps what it had beside the drawn members.
  for (const drawn of drawnFor(model, v)) {
    if (isSchemaObject(here) && isSchemaObject(drawn) && !(drawn instanceof Numeral))
      put(at, { ...(here as Record<string, JsonValue>), ...(drawn as Record<string, JsonValue>) });
    put(at, drawn);
  }
  return out;
}

/**
 * `value` with as many violations of `validate` repaired as can be without
 * changing a frozen part. Returns the value and what is left (nothing: it
 * is valid).
 */
export function repair(
  model: DocumentSchemas,
  validate: Validator,
  value: JsonValue,
  frozen: readonly InstancePath[] = [],
): { value: JsonValue; violations: Violation[] } {
  let current = value;
  let violations = validate(current);
  for (let step = 0; step < MAX_REPAIRS && violations.length > 0; step++) {
    let best: { value: JsonValue; violations: Violation[] } | undefined;
    // The violations a repair may touch, deepest first: a fix inside an object may settle its parent's complaint too.
    const open = violations
      .filter((v) => !aboutFrozen(v, current, frozen))
      .sort((a, b) => b.instancePath.length - a.instancePath.length);
    for (const v of open) {
      for (const candidate of fixesFor(model, current, v, frozen)) {
        const left = validate(candidate);
        if (left.length < (best?.violations.length ?? violations.length)) best = { value: candidate, violations: left };
        if (left.length === 0) break;
      }
      if (best) break;
    }
    if (!best) break;
    current = best.value;
    violations = best.violations;
  }
  return { value: current, violations };
}

/** One line naming each violation, its keyword and its pointer: why the document refuses a value. */
export function explain(violations: readonly Violation[]): string {
  return violations.map((v) => describeViolation(v, { at: true })).join('; ');
}

/**
 * A valid value for `validate`: the first candidate it accepts, else the
 * candidate that repairs to one. Throws RuledOut naming what is left when
 * none does.
 */
export function drawValid(
  model: DocumentSchemas,
  validate: Validator,
  candidates: readonly JsonValue[],
  what: string,
): JsonValue {
  let closest: { value: JsonValue; violations: Violation[] } | undefined;
  for (const candidate of candidates) {
    if (validate(candidate).length === 0) return candidate;
  }
  for (const candidate of candidates.slice(0, 8)) {
    const repaired = repair(model, validate, candidate);
    if (repaired.violations.length === 0) return repaired.value;
    if (!closest || repaired.violations.length < closest.violations.length) closest = repaired;
  }
  throw new RuledOut(
    `the harness cannot build ${what} from the document: ${closest ? explain(closest.violations) : 'no candidate'}`,
  );
}
