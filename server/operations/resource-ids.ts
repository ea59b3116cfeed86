// How a resource's items are identified (docs/server.md, "Ids"): the body
// member that carries the id, its kind (an integer, kept as its exact
// decimal digits; or a string, kept exactly as sent), who picks it, and,
// where the server does, how it makes one that fits the id's schema:
//
//   integer          (or a number, or no type: integral values only, said at start)
//                    the resource's own sequence (the store's nextNumbers:
//                    1, 2, 3…, never twice, across replicas on a database)
//                    from the schema's minimum (or 1), by its multipleOf
//   format uuid      a random UUID, version 4 (RFC 9562 §5.4)
//   pattern          a string the pattern matches, drawn from it (fast-check's
//                    stringMatching, seeded by the sequence's number)
//   any other string the sequence's number in decimal, zero-padded to the
//                    schema's minLength
//
// Every made id is judged by the id's schema before it is used; an id
// schema no made id fits is said at start (the create answers 500).
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { OpenApiDocument, OperationLocation } from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import type { SchemaValidators, Validate } from '../../spec/validator.js';
import type { JsonValue } from '../json/json.js';
import { declaredProperties, schemaTypes } from './schema-properties.js';
import type { IdRule, Located } from './resource-model.js';

export type { IdRule } from './resource-model.js';

/** The id rule of a resource, from its item, its create's body and its item operations. */
export function idRule(
  doc: OpenApiDocument,
  found: {
    item: Located;
    createBody: Located | undefined;
    /** The member the create's links map to the id parameter. */
    idMember: string | undefined;
    idParameter: string | undefined;
    /** An item operation, whose path parameter's schema says the id's type. */
    idOperation: OperationLocation | undefined;
    /** No POST creates: a PUT does, at the id its path names. */
    putCreates: boolean;
  },
): IdRule {
  const itemProperties = declaredProperties(doc, found.item.schema, found.item.pointer);
  const bodyProperties =
    found.createBody === undefined
      ? new Map<string, never>()
      : declaredProperties(doc, found.createBody.schema, found.createBody.pointer);
  const declares = (name: string | undefined) =>
    name !== undefined && (itemProperties.has(name) || bodyProperties.has(name));
  const property =
    found.idMember ??
    (declares(found.idParameter) ? found.idParameter : undefined) ??
    (declares('id') ? 'id' : undefined);
  const parameter =
    found.idOperation === undefined || found.idParameter === undefined
      ? undefined
      : found.idOperation.parameters.find(
          ({ parameter }) => parameter.in === 'path' && parameter.name === found.idParameter,
        );
  const memberSchema =
    property === undefined ? undefined : (itemProperties.get(property) ?? bodyProperties.get(property));
  const schema: Located | undefined =
    memberSchema !== undefined
      ? { schema: memberSchema.schema, pointer: memberSchema.pointer }
      : parameter?.parameter.schema !== undefined
        ? { schema: parameter.parameter.schema, pointer: childPointer(parameter.pointer, 'schema') }
        : undefined;
  const types = schema === undefined ? new Set<string>() : schemaTypes(doc, schema.schema, schema.pointer);
  // A `type: number` id is kept as an integer (its exact digits), compared by value: 5 and 5.0 are one id (JSON
  // Schema 2020-12 §4.2.2 counts 5.0 as the integer 5). A fractional one is refused (docs/server.md, "Ids").
  const numeric = types.has('integer') || types.has('number');
  const kind = types.has('string') || (types.size > 0 && !numeric) ? 'string' : 'integer';
  const inBody = property === undefined ? undefined : bodyProperties.get(property);
  const chosenBy = found.putCreates
    ? 'client'
    : inBody === undefined || inBody.schema.readOnly === true
      ? 'server'
      : inBody.required
        ? 'client'
        : 'either';
  const unkept =
    kind !== 'integer' || schema === undefined
      ? undefined
      : types.has('number')
        ? 'a fractional id (5.5)'
        : types.size === 0
          ? 'an id that is not an integer ("a", 5.5)'
          : undefined;
  return { property, kind, chosenBy, schema, ...(unkept === undefined ? {} : { unkept }) };
}

/**
 * An id from a body member's value (one its schema accepted): an integer's exact digits, a string as it is;
 * undefined for another type. A string id whose schema also allows integers (`type: [integer, string]`) takes
 * an integer as its digits: 1 and "1" are one id, as the path `/plants/1` names both.
 */
export function idOfValue(value: JsonValue | undefined, kind: IdRule['kind']): string | undefined {
  const integral = (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint';
  if (kind === 'integer') return integral ? BigInt(value).toString() : undefined;
  return typeof value === 'string' ? value : integral ? BigInt(value).toString() : undefined;
}

/** An id as a JSON value in a text: an integer's digits, a string quoted. */
export function idJson(id: string, kind: IdRule['kind']): string {
  return kind === 'integer' ? id : JSON.stringify(id);
}

/** Makes ids for a resource whose server picks them: the id for the `n`th number of its sequence. */
export interface IdMaker {
  /** The id, or undefined when no id can be made from `n` (an integer past the schema's maximum). */
  make(n: number): string | undefined;
  /** How ids are made, for the start-up line. */
  how: string;
}

/** The id maker of a rule, checked against its schema; a reason when no made id fits it. */
export function idMaker(
  doc: OpenApiDocument,
  rule: IdRule,
  validators: () => SchemaValidators,
): IdMaker | { unmakeable: string } {
  const schema = rule.schema === undefined ? {} : resolvedSchema(doc, rule.schema);
  const validate: Validate | undefined =
    rule.schema === undefined ? undefined : validators().compile(rule.schema.schema, rule.schema.pointer);
  const fits = (id: string) =>
    validate === undefined || validate(rule.kind === 'integer' ? Number(id) : id).length === 0;
  let maker: IdMaker;
  if (rule.kind === 'integer') {
    const number = (keyword: string) => (typeof schema[keyword] === 'number' ? schema[keyword] : undefined);
    const step =
      number('multipleOf') !== undefined && Number.isInteger(number('multipleOf')) ? number('multipleOf')! : 1;
    const least = number('minimum') ?? (number('exclusiveMinimum') !== undefined ? number('exclusiveMinimum')! + 1 : 1);
    const first = Math.ceil(Math.ceil(least) / step) * step;
    const most =
      number('maximum') ?? (number('exclusiveMaximum') !== undefined ? number('exclusiveMaximum')! - 1 : undefined);
    maker = {
      make: (n) => {
        const id = first + (n - 1) * step;
        return !Number.isSafeInteger(id) || (most !== undefined && id > most) ? undefined : String(id);
      },
      how: `the integers from ${first}${step === 1 ? '' : ` by ${step}`}${most === undefined ? '' : ` to ${most}`}`,
    };
  } else if (schema.format === 'uuid') {
    maker = { make: () => randomUUID(), how: 'random UUIDs (version 4)' };
  } else if (typeof schema.pattern === 'string') {
    const pattern = schema.pattern;
    maker = {
      make: (n) => drawnFrom(pattern, n, fits),
      how: `strings drawn from the pattern ${JSON.stringify(pattern)}`,
    };
  } else {
    const width = typeof schema.minLength === 'number' ? schema.minLength : 0;
    maker = { make: (n) => String(n).padStart(width, '0'), how: 'the decimal numbers from 1' };
  }
  const sample = maker.make(1);
  if (sample === undefined || !fits(sample))
    return { unmakeable: `no id made as ${maker.how} fits the id's schema at ${rule.schema?.pointer ?? '(none)'}` };
  return { make: (n) => ((id) => (id !== undefined && fits(id) ? id : undefined))(maker.make(n)), how: maker.how };
}

function resolvedSchema(doc: OpenApiDocument, { schema }: Located): Record<string, unknown> {
  let node: unknown = schema;
  for (let depth = 0; isSchemaObject(node) && typeof node.$ref === 'string' && depth < 16; depth++) {
    const ref = node.$ref;
    node = ref.startsWith('#/components/schemas/')
      ? doc.components.schemas[decodeURIComponent(ref.slice('#/components/schemas/'.length))]
      : undefined;
  }
  return isSchemaObject(node) ? node : {};
}

const requireFromHere = createRequire(import.meta.url);
type StringMatching = (regex: RegExp) => unknown;
interface FastCheck {
  stringMatching: StringMatching;
  sample: (arbitrary: unknown, options: { seed: number; numRuns: number }) => string[];
}

/** A string `pattern` matches, drawn with the seed `n` (tries a few more seeds for one the schema accepts). */
export function drawnFrom(pattern: string, n: number, fits: (id: string) => boolean): string | undefined {
  // fast-check is loaded when a document has such ids: the shipped one's start does not pay for it.
  const fc = requireFromHere('fast-check') as FastCheck;
  const arbitrary = fc.stringMatching(new RegExp(pattern, 'u'));
  for (let attempt = 0; attempt < 8; attempt++) {
    const [drawn] = fc.sample(arbitrary, { seed: n * 8 + attempt, numRuns: 1 });
    if (drawn !== undefined && fits(drawn)) return drawn;
  }
  return undefined;
}
