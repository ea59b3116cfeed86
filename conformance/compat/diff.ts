// The old and the new document compared part by part: operations (by method
// and path), their parameters, request bodies and media types, responses and
// their media types, security requirements and schemes, and every schema
// they use, keyword by keyword (schema-diff.ts). Each difference becomes a
// Change with its pointer, before and after, source, and for each side what
// it does. What no rule here compares (a description, an example, a
// server's URL) is still listed: as compatible when it is an annotation, as
// "cannot tell" otherwise. Nothing the two documents differ in is left out.
import { createOperation, operationsOf, resolveReference, type OpenApiDocument, type OperationLocation } from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import type { Source } from '../checks/types.js';
import { flattenObject } from '../model/spec-model.js';
import { sidesOf, whyOf, worse, type Bearing, type Change, type Effect, type Role, type SideVerdict } from './change.js';
import { compareSchemas, sameJson, shown, type SchemaDelta } from './schema-diff.js';
import { SOURCES, openapi } from './sources.js';

/** One change as a rule finds it, bearing on one place; Changes merges the bearings of one change. */
type Draft = Pick<Change, 'keyword' | 'pointer' | 'basePointer' | 'before' | 'after' | 'what' | 'source' | 'instancePath'> & { detail?: string; bearing: Bearing };

class Changes {
  private readonly byKey = new Map<string, Omit<Change, 'id'>>();
  /** Pointers, in each document, that a rule accounted for: the generic comparison skips what is under them. */
  readonly claimedBase = new Set<string>();
  readonly claimedHead = new Set<string>();

  add(d: Draft): void {
    const key = `${d.keyword}|${d.pointer}|${d.basePointer ?? ''}|${d.detail ?? ''}`;
    let change = this.byKey.get(key);
    if (!change) {
      change = {
        keyword: d.keyword,
        pointer: d.pointer,
        ...(d.basePointer !== undefined && d.basePointer !== d.pointer ? { basePointer: d.basePointer } : {}),
        ...(d.before !== undefined ? { before: d.before } : {}),
        ...(d.after !== undefined ? { after: d.after } : {}),
        ...(d.instancePath !== undefined ? { instancePath: d.instancePath } : {}),
        what: d.what,
        source: d.source,
        bearings: [],
        clients: 'compatible',
        servers: 'compatible',
      };
      this.byKey.set(key, change);
    }
    if (!change.bearings.some((b) => b.usage === d.bearing.usage && b.role === d.bearing.role)) {
      change.bearings.push(d.bearing);
      change.clients = worse(change.clients, d.bearing.clients);
      change.servers = worse(change.servers, d.bearing.servers);
    }
  }

  /** A part of the document gone (there in the old document only) or come (in the new only): accounted for, and a change. */
  presence(gone: boolean, d: Omit<Draft, 'before' | 'after'> & { value: unknown }): void {
    const { value, ...rest } = d;
    this.claim(gone ? d.pointer : undefined, gone ? undefined : d.pointer);
    this.add({ ...rest, ...(gone ? { before: value } : { after: value }) });
  }

  claim(base: string | undefined, head: string | undefined): void {
    if (base !== undefined) this.claimedBase.add(base);
    if (head !== undefined) this.claimedHead.add(head);
  }

  list(): Change[] {
    return [...this.byKey.values()].map((c, i) => ({ id: `C${i + 1}`, ...c }));
  }
}

function bearing(usage: string, role: Role, effect: Effect, why?: string, sides?: { clients: SideVerdict; servers: SideVerdict }): Bearing {
  const s = sides ?? sidesOf(effect, role);
  return { usage, role, effect, ...s, why: whyOf(effect, role, why) };
}

/** Compares two documents; every difference is a change. */
export function diffDocuments(base: OpenApiDocument, head: OpenApiDocument): Change[] {
  const changes = new Changes();
  const key = (op: OperationLocation) => `${op.method} ${op.path.replace(/\{[^}]*\}/g, '{}')}`;
  const before = new Map(operationsOf(base).map((op) => [key(op), op]));
  const after = new Map(operationsOf(head).map((op) => [key(op), op]));
  for (const [k, op] of before) {
    const now = after.get(k);
    if (now) compareOperations(changes, base, head, op, now);
    else operationDelta(changes, op, 'removed', head);
  }
  for (const [k, op] of after) if (!before.has(k)) operationDelta(changes, op, 'added', base);
  echoDelta(changes, base, head);
  securitySchemesDelta(changes, base, head);
  genericDelta(changes, base, head, { base: '#', head: '#' }, []);
  return changes.list();
}

/**
 * An operation removed breaks the clients that call it; one added, the
 * servers that do not implement it (OpenAPI 3.1 §4.8.8: the paths are the
 * operations there are). A path item gone or come with its operations is
 * accounted for by them.
 */
function operationDelta(changes: Changes, op: OperationLocation, how: 'added' | 'removed', other: OpenApiDocument): void {
  const label = `${op.method} ${op.path}`;
  const claim = (p: string) => (how === 'added' ? changes.claim(undefined, p) : changes.claim(p, undefined));
  claim(op.pointer);
  if (!Object.hasOwn(other.paths, op.path)) claim(childPointer('#/paths', op.path));
  changes.add({
    keyword: 'operation',
    pointer: op.pointer,
    ...(how === 'added' ? { after: label } : { before: label }),
    what: `operation ${label} ${how}`,
    source: SOURCES.paths,
    bearing:
      how === 'added'
        ? bearing(label, 'operation', 'looser', `existing servers do not implement ${label}: a new client that calls it gets no declared answer`, { clients: 'compatible', servers: 'breaks' })
        : bearing(label, 'operation', 'tighter', `clients that call ${label} get no declared answer from a server following the new document`, { clients: 'breaks', servers: 'compatible' }),
  });
}

/** Schema deltas as changes: each bears on the place the schema describes, as a request or an answer. */
function addSchema(changes: Changes, base: OpenApiDocument, head: OpenApiDocument, b: { schema: unknown; pointer: string }, h: { schema: unknown; pointer: string }, usage: string, role: Role): void {
  const { deltas, visitedBase, visitedHead } = compareSchemas(base, head, b.schema, b.pointer, h.schema, h.pointer);
  for (const p of visitedBase) changes.claimedBase.add(p);
  for (const p of visitedHead) changes.claimedHead.add(p);
  for (const d of deltas) changes.add(fromDelta(d, usage, role));
}

function fromDelta(d: SchemaDelta, usage: string, role: Role): Draft {
  const own = d.byRole?.[role];
  const effect = own?.effect ?? d.effect;
  return {
    keyword: d.keyword,
    pointer: d.pointer,
    basePointer: d.basePointer,
    ...(Object.hasOwn(d, 'before') ? { before: d.before } : {}),
    ...(Object.hasOwn(d, 'after') ? { after: d.after } : {}),
    what: d.what,
    source: d.source,
    detail: d.detail,
    ...(d.instancePath !== undefined ? { instancePath: d.instancePath } : {}),
    bearing: bearing(usage, role, effect, own?.reason ?? d.reason),
  };
}

function resolveObject<T>(doc: OpenApiDocument, node: T, pointer: string): { value: T; pointer: string } {
  return resolveReference(doc, node, pointer);
}

function compareOperations(changes: Changes, base: OpenApiDocument, head: OpenApiDocument, b: OperationLocation, h: OperationLocation): void {
  const label = `${h.method} ${h.path}`;
  parametersDelta(changes, base, head, b, h, label);
  requestBodyDelta(changes, base, head, b, h, label);
  responsesDelta(changes, base, head, b, h, label);
  securityDelta(changes, base, head, b, h, label);
}

// ---- parameters ----

/** Parameter fields that change how a value is written or read: not compared here. */
const SERIALIZATION = ['style', 'explode', 'allowReserved', 'allowEmptyValue', 'content'];
const PARAMETER_ANNOTATIONS = ['description', 'example', 'examples', 'deprecated'];

function parametersDelta(changes: Changes, base: OpenApiDocument, head: OpenApiDocument, b: OperationLocation, h: OperationLocation, label: string): void {
  // A path parameter is its place in the template (/plants/{id} and /plants/{plantId} send the same); a header's name has no case (RFC 9110 §5.1).
  const id = (op: OperationLocation) => (p: { in: string; name: string }) => {
    if (p.in === 'path') return `path:${[...op.path.matchAll(/\{([^}]*)\}/g)].findIndex((m) => m[1] === p.name)}`;
    return `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
  };
  const before = new Map(b.parameters.map((p) => [id(b)(p.parameter), p]));
  const after = new Map(h.parameters.map((p) => [id(h)(p.parameter), p]));
  // Every field of the parameters is compared below: the lists, whatever their order, are accounted for.
  const pathItem = (op: OperationLocation) => op.pointer.slice(0, op.pointer.lastIndexOf('/'));
  changes.claim(childPointer(b.pointer, 'parameters'), childPointer(h.pointer, 'parameters'));
  changes.claim(childPointer(pathItem(b), 'parameters'), childPointer(pathItem(h), 'parameters'));
  for (const [k, p] of before) {
    changes.claim(p.pointer, undefined);
    const now = after.get(k);
    const name = `${p.parameter.in} parameter ${p.parameter.name}`;
    const usage = `${name} of ${label}`;
    const required = (x: { required?: boolean; in: string }) => x.required === true || x.in === 'path';
    if (!now) {
      changes.add({
        keyword: 'parameter',
        pointer: p.pointer,
        before: p.parameter,
        what: `${name} removed`,
        source: SOURCES.parameter,
        detail: k,
        bearing: required(p.parameter)
          ? bearing(usage, 'request', 'looser', `existing servers require ${p.parameter.name}; a client following the new document does not send it`, { clients: 'compatible', servers: 'breaks' })
          : bearing(usage, 'request', 'none', `it was optional: existing servers do without it, and a server following the new document ignores it when an existing client still sends it`),
      });
      continue;
    }
    changes.claim(undefined, now.pointer);
    if (p.parameter.name !== now.parameter.name) {
      changes.add({
        keyword: 'name',
        pointer: childPointer(now.pointer, 'name'),
        basePointer: childPointer(p.pointer, 'name'),
        before: p.parameter.name,
        after: now.parameter.name,
        what: `path parameter ${p.parameter.name} renamed ${now.parameter.name}`,
        source: SOURCES.parameter,
        bearing: bearing(usage, 'request', 'none', 'a path parameter is sent as its place in the path, not by its name'),
      });
    }
    if (required(p.parameter) !== required(now.parameter)) {
      requiredFlip(changes, { pointer: p.pointer, was: p.parameter.required }, { pointer: now.pointer, is: now.parameter.required }, name, usage, SOURCES.parameter, {
        tighter: `an existing client that leaves ${p.parameter.name} out is now refused`,
        looser: `a new client may leave ${p.parameter.name} out, which existing servers refuse`,
      });
    }
    const ps = p.parameter.schema;
    const ns = now.parameter.schema;
    if (ps !== undefined || ns !== undefined) {
      addSchema(changes, base, head, { schema: ps ?? {}, pointer: childPointer(p.pointer, 'schema') }, { schema: ns ?? {}, pointer: childPointer(now.pointer, 'schema') }, usage, 'request');
    }
    for (const field of [...SERIALIZATION, ...PARAMETER_ANNOTATIONS]) {
      const was = (p.parameter as unknown as Record<string, unknown>)[field];
      const is = (now.parameter as unknown as Record<string, unknown>)[field];
      if (sameJson(was, is)) continue;
      const annotation = PARAMETER_ANNOTATIONS.includes(field);
      changes.add({
        keyword: field,
        pointer: childPointer(now.pointer, field),
        basePointer: childPointer(p.pointer, field),
        ...(was !== undefined ? { before: was } : {}),
        ...(is !== undefined ? { after: is } : {}),
        what: `${field} of ${name} ${was === undefined ? 'added' : is === undefined ? 'removed' : 'changed'}`,
        source: SOURCES.parameter,
        bearing: annotation
          ? bearing(usage, 'request', 'none', 'an annotation: what is sent does not change')
          : bearing(usage, 'request', 'unknown', `${field} changes how the value is written in the request: not compared here`),
      });
    }
  }
  for (const [k, p] of after) {
    if (before.has(k)) continue;
    changes.claim(undefined, p.pointer);
    const name = `${p.parameter.in} parameter ${p.parameter.name}`;
    const required = p.parameter.required === true || p.parameter.in === 'path';
    changes.add({
      keyword: 'parameter',
      pointer: p.pointer,
      after: p.parameter,
      what: `${required ? 'required' : 'optional'} ${name} added`,
      source: SOURCES.parameter,
      detail: k,
      bearing: required
        ? bearing(`${name} of ${label}`, 'request', 'tighter', `existing clients do not send ${p.parameter.name}, which is now required`)
        : bearing(`${name} of ${label}`, 'request', 'none', `it is optional: existing clients may leave it out, and existing servers ignore a parameter they do not know`),
    });
  }
}

/** A parameter or a request body that became required (what existing clients leave out is refused) or optional (what new clients leave out, existing servers refuse). */
function requiredFlip(changes: Changes, b: { pointer: string; was?: boolean }, h: { pointer: string; is?: boolean }, name: string, usage: string, source: Source, why: { tighter: string; looser: string }): void {
  const nowRequired = h.is === true;
  changes.add({
    keyword: 'required',
    pointer: childPointer(h.pointer, 'required'),
    basePointer: childPointer(b.pointer, 'required'),
    before: b.was ?? false,
    after: h.is ?? false,
    what: `${name} ${nowRequired ? 'became required' : 'became optional'}`,
    source,
    bearing: bearing(usage, 'request', nowRequired ? 'tighter' : 'looser', nowRequired ? why.tighter : why.looser),
  });
}

// ---- request bodies ----

interface BodyLike {
  required?: boolean;
  content?: Record<string, { schema?: unknown }>;
}

function requestBodyDelta(changes: Changes, base: OpenApiDocument, head: OpenApiDocument, b: OperationLocation, h: OperationLocation, label: string): void {
  const rb = b.operation.requestBody;
  const hb = h.operation.requestBody;
  const usage = `request body of ${label}`;
  if (rb === undefined && hb === undefined) return;
  const bp = childPointer(b.pointer, 'requestBody');
  const hp = childPointer(h.pointer, 'requestBody');
  if (rb === undefined || hb === undefined) {
    changes.claim(rb ? bp : undefined, hb ? hp : undefined);
    const added = hb !== undefined;
    const body = resolveObject(added ? head : base, (hb ?? rb) as BodyLike, added ? hp : bp).value;
    changes.add({
      keyword: 'requestBody',
      pointer: added ? hp : bp,
      what: `request body ${added ? 'added' : 'removed'}${body.required ? ' (required)' : ''}`,
      source: SOURCES.requestBody,
      bearing: added
        ? body.required
          ? bearing(usage, 'request', 'tighter', 'existing clients send no body, which is now required')
          : bearing(usage, 'request', 'unknown', 'an optional body existing servers never expected: whether they ignore or refuse it is not said by either document')
        : body.required
          ? bearing(usage, 'request', 'looser', 'existing servers require a body; a client following the new document sends none')
          : bearing(usage, 'request', 'unknown', 'existing clients may still send the body: whether a server following the new document ignores or refuses it is not said'),
    });
    return;
  }
  const before = resolveObject(base, rb as BodyLike, bp);
  const after = resolveObject(head, hb as BodyLike, hp);
  changes.claim(childPointer(before.pointer, 'required'), childPointer(after.pointer, 'required'));
  if ((before.value.required === true) !== (after.value.required === true)) {
    requiredFlip(changes, { pointer: before.pointer, was: before.value.required }, { pointer: after.pointer, is: after.value.required }, 'request body', usage, SOURCES.requestBody, {
      tighter: 'an existing client that sends no body is now refused',
      looser: 'a new client may send no body, which existing servers refuse',
    });
  }
  mediaTypesDelta(changes, base, head, before, after, usage, 'request');
}

/**
 * The media types of a body: one removed from a request refuses what
 * existing clients send (415); one added lets new clients send what existing
 * servers refuse. In an answer the other way round: one added may come to
 * clients that cannot read it, one removed makes existing servers' answers
 * undeclared.
 */
function mediaTypesDelta(changes: Changes, base: OpenApiDocument, head: OpenApiDocument, before: { value: BodyLike; pointer: string }, after: { value: BodyLike; pointer: string }, usage: string, role: 'request' | 'response'): void {
  const bc = before.value.content ?? {};
  const hc = after.value.content ?? {};
  const norm = (t: string) => t.toLowerCase().replace(/\s+/g, '');
  const bKeys = new Map(Object.keys(bc).map((t) => [norm(t), t]));
  const hKeys = new Map(Object.keys(hc).map((t) => [norm(t), t]));
  // A media type gone or come: what it does to each side, by the direction the body travels.
  const whyGone = (t: string) =>
    role === 'request'
      ? bearing(usage, role, 'tighter', `existing clients that send ${t} are refused (415)`)
      : bearing(usage, role, 'both', `existing servers that answer ${t} now answer what the document does not declare, and existing clients that read ${t} get the answer in another media type from a server following the new document`);
  const whyCome = (t: string) =>
    role === 'request'
      ? bearing(usage, role, 'looser', `a new client may send ${t}, which existing servers refuse (415)`)
      : bearing(usage, role, 'looser', `an answer may now come as ${t}, which existing clients were not told to read`);
  const presence = (t: string, pointer: string, gone: boolean) =>
    changes.presence(gone, { keyword: 'content', pointer, value: t, what: `media type ${t} ${gone ? 'removed from' : 'added to'} the ${usage}`, source: SOURCES.mediaType, bearing: gone ? whyGone(t) : whyCome(t) });
  for (const [n, t] of bKeys) {
    const bp = childPointer(before.pointer, 'content', t);
    const ht = hKeys.get(n);
    if (ht === undefined) {
      presence(t, bp, true);
      continue;
    }
    const hp = childPointer(after.pointer, 'content', ht);
    changes.claim(childPointer(bp, 'schema'), childPointer(hp, 'schema'));
    const bs = bc[t]!.schema;
    const hs = hc[ht]!.schema;
    if (bs !== undefined || hs !== undefined) addSchema(changes, base, head, { schema: bs ?? {}, pointer: childPointer(bp, 'schema') }, { schema: hs ?? {}, pointer: childPointer(hp, 'schema') }, usage, role);
  }
  for (const [n, t] of hKeys) if (!bKeys.has(n)) presence(t, childPointer(after.pointer, 'content', t), false);
}

// ---- responses ----

function responsesDelta(changes: Changes, base: OpenApiDocument, head: OpenApiDocument, b: OperationLocation, h: OperationLocation, label: string): void {
  const br = b.operation.responses ?? {};
  const hr = h.operation.responses ?? {};
  for (const status of new Set([...Object.keys(br), ...Object.keys(hr)])) {
    const bp = childPointer(b.pointer, 'responses', status);
    const hp = childPointer(h.pointer, 'responses', status);
    const usage = `${status} answer of ${label}`;
    if (!Object.hasOwn(hr, status)) {
      changes.presence(true, {
        keyword: 'response',
        pointer: bp,
        value: status,
        what: `response ${status} removed from ${label}`,
        source: SOURCES.responses,
        // A success status gone moves the answer to a valid request elsewhere: the clients that read it lose it too.
        bearing: status.startsWith('2')
          ? bearing(usage, 'response', 'both', `existing servers that answer ${status} now give an answer the document does not declare, and existing clients that expect ${status} to a valid request get another status from a server following the new document`)
          : bearing(usage, 'response', 'tighter', `existing servers that answer ${status} now give an answer the document does not declare`),
      });
    } else if (!Object.hasOwn(br, status)) {
      changes.presence(false, {
        keyword: 'response',
        pointer: hp,
        value: status,
        what: `response ${status} added to ${label}`,
        source: SOURCES.responses,
        bearing: bearing(usage, 'response', 'looser', `a server following the new document may answer ${status}, a status existing clients were not told of`),
      });
    } else {
      const before = resolveObject(base, br[status] as BodyLike, bp);
      const after = resolveObject(head, hr[status] as BodyLike, hp);
      mediaTypesDelta(changes, base, head, before, after, usage, 'response');
    }
  }
}

// ---- security ----

interface SchemeUse {
  name: string;
  /** The scheme's definition as it bears on what is sent: type, scheme, where the key goes. */
  definition: string;
  scopes: string[];
}

const SCHEME_FIELDS = ['type', 'scheme', 'in', 'name', 'openIdConnectUrl', 'flows'];

function schemeDefinition(doc: OpenApiDocument, name: string): string {
  const s = doc.components.securitySchemes?.[name];
  if (!isSchemaObject(s)) return `undefined:${name}`;
  const norm = Object.fromEntries(SCHEME_FIELDS.filter((f) => s[f] !== undefined).map((f) => [f, f === 'scheme' || (f === 'name' && s.in === 'header') ? String(s[f]).toLowerCase() : s[f]]));
  return JSON.stringify(norm);
}

function requirementOf(doc: OpenApiDocument, op: OperationLocation): { alternatives: SchemeUse[][]; pointer: string } {
  const own = op.operation.security;
  const list = own ?? doc.security ?? [];
  return {
    pointer: own !== undefined ? childPointer(op.pointer, 'security') : '#/security',
    alternatives: list.map((req) => Object.entries(req).map(([name, scopes]) => ({ name, definition: schemeDefinition(doc, name), scopes: [...(scopes ?? [])].sort() }))),
  };
}

const alternativeKey = (alt: SchemeUse[]) => JSON.stringify(alt.map((u) => [u.definition, u.scopes]).sort());
const describeAlternative = (alt: SchemeUse[]) => (alt.length === 0 ? 'no credentials' : alt.map((u) => `${u.name}${u.scopes.length ? ` (${u.scopes.join(' ')})` : ''}`).join(' + '));

/**
 * Security Requirement Objects: each alternative is a way to be let in
 * (OpenAPI 3.1 §4.8.30), compared by what the schemes ask to be sent, not by
 * their names (a renamed scheme asks the same). An alternative gone refuses
 * existing clients that used it; one added lets new clients use what
 * existing servers refuse. An empty alternative lets anyone in.
 */
function securityDelta(changes: Changes, base: OpenApiDocument, head: OpenApiDocument, b: OperationLocation, h: OperationLocation, label: string): void {
  const before = requirementOf(base, b);
  const after = requirementOf(head, h);
  changes.claim(before.pointer === '#/security' ? undefined : before.pointer, after.pointer === '#/security' ? undefined : after.pointer);
  changes.claim('#/security', '#/security');
  const bKeys = new Set(before.alternatives.map(alternativeKey));
  const hKeys = new Set(after.alternatives.map(alternativeKey));
  const anonymousBefore = before.alternatives.some((a) => a.length === 0);
  const anonymousAfter = after.alternatives.some((a) => a.length === 0);
  const gone = before.alternatives.filter((a) => !hKeys.has(alternativeKey(a)));
  const come = after.alternatives.filter((a) => !bKeys.has(alternativeKey(a)));
  if (gone.length === 0 && come.length === 0) return;
  const clients: SideVerdict = gone.length > 0 && !anonymousAfter ? 'breaks' : 'compatible';
  const servers: SideVerdict = come.length > 0 && !anonymousBefore ? 'breaks' : 'compatible';
  const why = [
    ...(clients === 'breaks' ? [`existing clients that authenticate with ${gone.map(describeAlternative).join(' or ')} are refused`] : []),
    ...(servers === 'breaks' ? [`new clients that authenticate with ${come.map(describeAlternative).join(' or ')} are refused by existing servers`] : []),
  ].join('; ');
  // A requirement written the same, whose scheme's definition changed: the change is the scheme's.
  const sameText = sameJson(before.alternatives.map((a) => a.map((u) => [u.name, u.scopes])), after.alternatives.map((a) => a.map((u) => [u.name, u.scopes])));
  const scheme = sameText ? [...gone, ...come].flat().map((u) => u.name)[0] : undefined;
  const pointer = scheme !== undefined ? childPointer('#/components/securitySchemes', scheme) : after.pointer;
  changes.add({
    keyword: scheme !== undefined ? 'securityScheme' : 'security',
    pointer,
    ...(scheme === undefined && before.pointer !== after.pointer ? { basePointer: before.pointer } : {}),
    before: scheme !== undefined ? base.components.securitySchemes?.[scheme] : before.alternatives.map(describeAlternative),
    after: scheme !== undefined ? head.components.securitySchemes?.[scheme] : after.alternatives.map(describeAlternative),
    what: scheme !== undefined ? `security scheme ${scheme} changed` : `security requirement changed: ${before.alternatives.map(describeAlternative).join(' or ') || 'none'} → ${after.alternatives.map(describeAlternative).join(' or ') || 'none'}`,
    source: scheme !== undefined ? SOURCES.securityScheme : SOURCES.securityRequirement,
    bearing: bearing(`security of ${label}`, 'request', clients === 'breaks' && servers === 'breaks' ? 'both' : clients === 'breaks' ? 'tighter' : servers === 'breaks' ? 'looser' : 'none', why || 'anyone was let in before, or is now', { clients, servers }),
  });
}

/** The schemes' own fields: what a requirement does not already account for (a description, a bearerFormat) is an annotation. */
function securitySchemesDelta(changes: Changes, base: OpenApiDocument, head: OpenApiDocument): void {
  const bs = base.components.securitySchemes ?? {};
  const hs = head.components.securitySchemes ?? {};
  for (const name of new Set([...Object.keys(bs), ...Object.keys(hs)])) {
    const p = childPointer('#/components/securitySchemes', name);
    // What the requirements use was compared there; a scheme no requirement names changes nothing sent.
    for (const f of SCHEME_FIELDS) changes.claim(childPointer(p, f), childPointer(p, f));
    if (!Object.hasOwn(bs, name) || !Object.hasOwn(hs, name)) {
      changes.claim(p, p);
      changes.add({
        keyword: 'securityScheme',
        pointer: p,
        ...(Object.hasOwn(bs, name) ? { before: bs[name] } : { after: hs[name] }),
        what: `security scheme ${name} ${Object.hasOwn(hs, name) ? 'added' : 'removed'}`,
        source: SOURCES.securityScheme,
        detail: 'presence',
        bearing: bearing('components', 'operation', 'none', 'a scheme matters where a security requirement names it: those are compared per operation'),
      });
    }
  }
}

// ---- what the answer carries back ----

/**
 * The Plant Store's create operation "returns the stored plant record": the
 * answer carries back every property its schema (Plant) declares, as sent
 * (docs/document.md). A property the new answer schema and request schema
 * both declare, which the old did not, is one an existing server drops; one
 * the old declared and the new does not is one a new server drops, while
 * existing clients expect it back. Neither shows in a schema taken alone.
 */
function echoDelta(changes: Changes, base: OpenApiDocument, head: OpenApiDocument): void {
  const echoed = (doc: OpenApiDocument) => {
    try {
      const create = createOperation(doc);
      const success = Object.keys(create.operation.responses ?? {}).filter((s) => s.startsWith('2')).sort()[0];
      const media = (body: BodyLike | undefined) => (body?.content ? (body.content['application/json'] ?? Object.values(body.content)[0]) : undefined);
      const answer = success !== undefined ? media(resolveObject(doc, create.operation.responses[success] as BodyLike, childPointer(create.pointer, 'responses', success)).value) : undefined;
      const request = create.operation.requestBody !== undefined ? media(resolveObject(doc, create.operation.requestBody as BodyLike, childPointer(create.pointer, 'requestBody')).value) : undefined;
      if (answer?.schema === undefined || request?.schema === undefined || success === undefined) return undefined;
      const answerPointer = childPointer(create.pointer, 'responses', success, 'content', 'application/json', 'schema');
      const sent = new Set(flattenObject(doc, request.schema, childPointer(create.pointer, 'requestBody', 'content', 'application/json', 'schema')).fields.map((f) => f.name));
      const names = flattenObject(doc, answer.schema, answerPointer).fields.map((f) => f.name).filter((n) => sent.has(n));
      return { names, pointer: answerPointer, label: `${create.method} ${create.path}`, status: success };
    } catch {
      return undefined;
    }
  };
  const before = echoed(base);
  const after = echoed(head);
  if (!before || !after || before.label !== after.label) return;
  const usage = `${after.status} answer of ${after.label} (what it carries back)`;
  for (const name of after.names.filter((n) => !before.names.includes(n))) {
    changes.add({
      keyword: 'echo',
      pointer: after.pointer,
      basePointer: before.pointer,
      after: name,
      what: `the answer must now carry back ${name}`,
      source: SOURCES.echo,
      detail: name,
      bearing: bearing(usage, 'response', 'tighter', `an existing server does not know ${name}: it drops it from the stored plant, and its answer lacks what a new client sent`),
    });
  }
  for (const name of before.names.filter((n) => !after.names.includes(n))) {
    changes.add({
      keyword: 'echo',
      pointer: after.pointer,
      basePointer: before.pointer,
      before: name,
      what: `the answer no longer carries back ${name}`,
      source: SOURCES.echo,
      detail: name,
      bearing: bearing(usage, 'response', 'looser', `existing clients send ${name} and expect it back; a server following the new document need not keep it`),
    });
  }
}

// ---- everything else ----

/** Parts of the document that describe and do not constrain: a difference there is compatible. */
const DESCRIPTIVE = new Set(['description', 'summary', 'title', 'example', 'examples', 'externalDocs', 'tags', 'operationId', 'deprecated', 'contact', 'license', 'termsOfService', 'version', 'info', 'openapi', 'bearerFormat']);

function claimed(set: Set<string>, pointer: string): boolean {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    if (set.has(p)) return true;
    if (!p.includes('/')) return false;
  }
}

function descriptive(path: string[]): boolean {
  if (path.some((k) => DESCRIPTIVE.has(k) || k.startsWith('x-'))) return true;
  // components other than schemas and security schemes are reached through references, compared where they are used.
  return path[0] === 'components' && path[1] !== undefined && !['schemas', 'securitySchemes', 'responses', 'requestBodies', 'parameters', 'headers', 'pathItems'].includes(path[1]) && path[1] !== 'callbacks';
}

/**
 * Every difference no rule accounted for, at the highest place it starts:
 * an annotation (a description, an example, a summary, an `x-` extension)
 * is compatible; a component schema no operation uses is compatible; anything
 * else (servers, response headers, links, callbacks) cannot be told.
 */
function genericDelta(changes: Changes, b: unknown, h: unknown, at: { base: string; head: string }, path: string[]): void {
  if (claimed(changes.claimedBase, at.base) && claimed(changes.claimedHead, at.head)) return;
  if (sameJson(b, h)) return;
  // Within an annotation, the difference is said once, at the annotation (an example, not each of its values).
  const from = path.findIndex((k) => DESCRIPTIVE.has(k) || k.startsWith('x-'));
  const whole = from !== -1 && path.length >= from + (['examples', 'info', 'tags'].includes(path[from]!) ? 2 : 1);
  const bothObjects = !whole && isSchemaObject(b) && isSchemaObject(h);
  const bothArrays = !whole && Array.isArray(b) && Array.isArray(h) && b.length === h.length;
  if (bothObjects || bothArrays) {
    for (const [kb, kh] of alignedKeys(b as Record<string, unknown>, h as Record<string, unknown>, bothArrays, path)) {
      const k = kh ?? kb!;
      genericDelta(changes, kb === undefined ? undefined : (b as Record<string, unknown>)[kb], kh === undefined ? undefined : (h as Record<string, unknown>)[kh], { base: childPointer(at.base, kb ?? k), head: childPointer(at.head, k) }, [...path, k]);
    }
    return;
  }
  if (claimed(changes.claimedBase, at.base) || claimed(changes.claimedHead, at.head)) return;
  const pointer = h === undefined ? at.base : at.head;
  const keyword = path[path.length - 1] ?? '#';
  const unusedSchema = path[0] === 'components' && path[1] === 'schemas';
  const compatible = descriptive(path) || unusedSchema;
  const reason = unusedSchema
    ? 'a component schema no operation uses: nothing sent or answered changes'
    : compatible
      ? 'an annotation: what is sent and answered does not change'
      : path[0] === 'servers' || path.includes('servers')
        ? 'where the API is served is a deployment matter, not compared here: existing clients configured with the old URL may or may not reach a server'
        : `${keyword} at ${pointer} is not compared here`;
  changes.add({
    keyword,
    pointer,
    ...(at.base !== pointer && b !== undefined ? { basePointer: at.base } : {}),
    ...(b !== undefined ? { before: b } : {}),
    ...(h !== undefined ? { after: h } : {}),
    what: `${keyword} ${b === undefined ? `added: ${shown(h)}` : h === undefined ? `removed (was ${shown(b)})` : `changed: ${shown(b)} → ${shown(h)}`}`,
    source: sourceOf(path),
    bearing: bearing(path.slice(0, 3).join(' ') || 'document', 'operation', compatible ? 'none' : 'unknown', reason),
  });
}

/** The members of two objects (or items of two arrays) side by side; the paths' templates by their shape, as operations are matched (/plants/{id} is /plants/{plantId}). */
function alignedKeys(b: Record<string, unknown>, h: Record<string, unknown>, arrays: boolean, path: string[]): Array<[string | undefined, string | undefined]> {
  if (arrays) return (b as unknown as unknown[]).map((_, i) => [String(i), String(i)]);
  const shape = path.length === 1 && path[0] === 'paths' ? (k: string) => k.replace(/\{[^}]*\}/g, '{}') : (k: string) => k;
  const inHead = new Map(Object.keys(h).map((k) => [shape(k), k]));
  const pairs: Array<[string | undefined, string | undefined]> = Object.keys(b).map((k) => [k, inHead.get(shape(k))]);
  const paired = new Set(pairs.map(([, kh]) => kh));
  for (const k of Object.keys(h)) if (!paired.has(k)) pairs.push([undefined, k]);
  return pairs;
}

function sourceOf(path: string[]): Source {
  if (path[0] === 'info') return SOURCES.info;
  if (path[0] === 'servers' || path.includes('servers')) return SOURCES.server;
  if (path[0] === 'tags') return SOURCES.tag;
  if (path.includes('examples') || path.includes('example')) return SOURCES.example;
  if (path[0] === 'components' && path[1] === 'schemas') return openapi('4.8.7', 'Components Object');
  if (path.includes('headers')) return SOURCES.header;
  if (path.includes('responses')) return SOURCES.response;
  if (path[0] === 'paths') return SOURCES.operation;
  return openapi('4.8.1', 'OpenAPI Object');
}

/** The verdict of the whole comparison per side. */
export function verdictOf(changes: Change[]): { clients: SideVerdict; servers: SideVerdict } {
  return changes.reduce((v, c) => ({ clients: worse(v.clients, c.clients), servers: worse(v.servers, c.servers) }), { clients: 'compatible' as SideVerdict, servers: 'compatible' as SideVerdict });
}
