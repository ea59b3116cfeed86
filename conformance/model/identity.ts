// The identity of a resource's items, found in the document alone (docs/checks.md,
// "What the harness infers"): what kind of value names one item (the item
// path's parameter: an integer, a string of a format or a pattern), and
// where a created item's id is found:
// - the client chooses it: a required member of the create's request that is
//   the id (named like the path parameter, `id` beside a parameter that ends
//   in Id, or, without an item path, `id` or the first required integer);
// - the server assigns it (no such request member): a member of the create's
//   answer (the request's member echoed; else one marked readOnly, JSON
//   Schema validation §9.4; else one named like the path parameter; else the
//   only id-like member of the id's kind), else the answer's Location (RFC
//   9110 §10.2.2, §15.3.2: it names the created resource), else OpenAPI links
//   (resources.ts reads them: the document's own word).
// Which members are the id is an inference (`identity`), and so is reading
// the id from Location (`location`); both can be switched off (--no-infer).
import type { OpenApiDocument } from '../../spec/openapi.js';
import { isSchemaObject } from '../../spec/schema-keywords.js';
import type { ParameterModel } from './operation-model.js';
import { resolveSchema, type FieldModel, type ObjectModel } from './schema-shape.js';

/** What kind of value an id is: its JSON type, format and pattern. */
export interface IdKind {
  /** integer, string, number; undefined when no schema says. */
  type?: string;
  format?: string;
  pattern?: string;
}

export interface Identity {
  /** The item path's parameter that names one item (`plantId`), where the resource has an item path. */
  parameter?: ParameterModel;
  kind: IdKind;
  /** The member of the create's request in which the client chooses the id; undefined: the server assigns it. */
  request?: string;
  /** The member of the create's answer that carries the id, and what says so. */
  answer?: { member: string; by: 'echo' | 'readOnly' | 'name' | 'only' };
  /** The create's 201 declares a Location header (RFC 9110 §15.3.2). */
  location: boolean;
}

/** A member name that says it is an identifier: `id`, or one ending in Id, _id, ID, Uuid or _uuid. */
const ID_LIKE = /^(id|uuid)$|(Id|_id|ID|Uuid|_uuid|UUID)$/;

/** The types a schema allows. */
function typesOf(doc: OpenApiDocument, schema: unknown, pointer: string): string[] {
  const { schema: s } = resolveSchema(doc, schema, pointer);
  if (!isSchemaObject(s)) return [];
  return Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
}

/** The kind of a path parameter's values. */
export function parameterKind(doc: OpenApiDocument, p: ParameterModel | undefined): IdKind {
  if (!p?.schema) return {};
  const { schema } = resolveSchema(doc, p.schema.schema, p.schema.pointer);
  const s = isSchemaObject(schema) ? schema : {};
  const type = typesOf(doc, p.schema.schema, p.schema.pointer).find((t) => t !== 'null');
  return {
    ...(type !== undefined ? { type } : {}),
    ...(typeof s.format === 'string' ? { format: s.format } : {}),
    ...(typeof s.pattern === 'string' ? { pattern: s.pattern } : {}),
  };
}

/** The kind of a member. */
export function fieldKind(f: FieldModel): IdKind {
  const type = f.types.find((t) => t !== 'null');
  return {
    ...(type !== undefined ? { type } : {}),
    ...(f.format !== undefined ? { format: f.format } : {}),
    ...(f.pattern !== undefined ? { pattern: f.pattern } : {}),
  };
}

/** Whether a member can hold the ids a parameter of this kind names: the same type (a string parameter takes any scalar's text; integer is a number). */
export function kindsMeet(parameter: IdKind, member: IdKind): boolean {
  if (member.type === undefined || member.type === 'object' || member.type === 'array') return false;
  if (parameter.type === undefined || parameter.type === 'string') return true;
  if (parameter.type === member.type) return true;
  return parameter.type === 'number' && member.type === 'integer';
}

/** The names a member naming the parameter's item may have: the parameter's own, and `id` beside a parameter named `id`, `…Id` or `…_id`. */
function namesFor(parameter: string | undefined): string[] {
  if (parameter === undefined) return ['id'];
  return /(^id$|Id$|_id$|ID$)/.test(parameter) ? [parameter, 'id'] : [parameter];
}

/** The member of an object that is the id, by the rules above, or undefined. */
function memberNamed(fields: FieldModel[], parameter: string | undefined): FieldModel | undefined {
  const names = namesFor(parameter);
  for (const name of names) {
    const f = fields.find((x) => x.name === name);
    if (f) return f;
  }
  return undefined;
}

/**
 * The identity of a resource's items: `parameter` is its item path's
 * parameter (if any), `request` and `answer` the create's request and
 * success bodies (if any), `location` whether its success declares Location.
 */
export function findIdentity(
  doc: OpenApiDocument,
  parameter: ParameterModel | undefined,
  request: ObjectModel | undefined,
  answer: ObjectModel | undefined,
  location: boolean,
): Identity {
  const paramKind = parameterKind(doc, parameter);
  const fits = (f: FieldModel) => parameter === undefined || kindsMeet(paramKind, fieldKind(f));
  // The client's choice: a required member of the request, not readOnly, named as the id is.
  const requiredFields = (request?.fields ?? []).filter((f) => f.required && !f.readOnly && fits(f));
  let chosen = memberNamed(requiredFields, parameter?.name);
  // Without an item path, the first required integer (the starter's NewPlant.id, whatever its name).
  if (!chosen && parameter === undefined) chosen = requiredFields.find((f) => f.types.includes('integer'));
  const kind = parameter ? paramKind : chosen ? fieldKind(chosen) : {};
  const identity: Identity = { ...(parameter ? { parameter } : {}), kind, location };
  if (chosen) identity.request = chosen.name;
  const answerFields = (answer?.fields ?? []).filter(fits);
  const echo = chosen ? answerFields.find((f) => f.name === chosen.name) : undefined;
  const readOnly = answerFields.filter((f) => f.readOnly);
  const named = memberNamed(answerFields, parameter?.name);
  const idLike = answerFields.filter((f) => ID_LIKE.test(f.name));
  if (echo) identity.answer = { member: echo.name, by: 'echo' };
  else if (readOnly.length === 1) identity.answer = { member: readOnly[0]!.name, by: 'readOnly' };
  else if (named) identity.answer = { member: named.name, by: 'name' };
  else if (idLike.length === 1) identity.answer = { member: idLike[0]!.name, by: 'only' };
  // An id the server assigns: its kind is the answer member's when no path says.
  if (!parameter && !chosen && identity.answer) {
    const f = answerFields.find((x) => x.name === identity.answer!.member)!;
    identity.kind = fieldKind(f);
  }
  return identity;
}

/** An id in a few words: "an integer (int64)", "a string (uuid)". */
export function describeKind(kind: IdKind): string {
  const what = kind.type === undefined ? 'a value' : kind.type === 'integer' ? 'an integer' : `a ${kind.type}`;
  const details = [kind.format, kind.pattern !== undefined ? `pattern ${kind.pattern}` : undefined].filter(Boolean);
  return details.length > 0 ? `${what} (${details.join(', ')})` : what;
}
