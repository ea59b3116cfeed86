// The old and the new document compared part by part: operations (by method
// and path), their parameters, request bodies and media types, responses and
// their media types, security requirements and schemes, and every schema
// they use, keyword by keyword (schema-diff.ts). Each difference becomes a
// Change with its pointer, before and after, source, and for each side what
// it does. What no rule here compares (a description, an example, a
// server's URL) is still listed: as compatible when it is an annotation, as
// "cannot tell" otherwise. Nothing the two documents differ in is left out.
// This file matches the operations and lists what no rule accounted for; the
// rules of the parts are in parameter-diff.ts, body-diff.ts and
// security-diff.ts, and what they write in changes.ts.
import { operationsOf, type OpenApiDocument, type OperationLocation } from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import type { Source } from '../checks/types.js';
import { echoDelta, requestBodyDelta } from './body-diff.js';
import { responsesDelta } from './response-diff.js';
import { worse, type Change, type SideVerdict } from './change.js';
import { bearing, Changes } from './changes.js';
import { parametersDelta } from './parameter-diff.js';
import { sameJson, shown } from './schema-delta.js';
import { securityDelta, securitySchemesDelta } from './security-diff.js';
import { SOURCES, openapi } from './sources.js';

/** Compares two documents; every difference is a change. */
export function diffDocuments(base: OpenApiDocument, head: OpenApiDocument): Change[] {
  const changes = new Changes();
  const key = (op: OperationLocation) => `${op.method} ${op.path.replace(/\{[^}]*\}/g, '{}')}`;
  const before = new Map(operationsOf(base).map((op) => [key(op), op]));
  const after = new Map(operationsOf(head).map((op) => [key(op), op]));
  // An operation gone from one path and come at another under the same operationId has moved: one change, and its parts compared.
  const moved = new Map<string, OperationLocation>();
  for (const [k, op] of before) {
    const id = op.operation.operationId;
    const to =
      after.has(k) || id === undefined
        ? undefined
        : [...after].find(([j, o]) => !before.has(j) && o.operation.operationId === id)?.[1];
    if (to) moved.set(k, to);
  }
  for (const [k, op] of before) {
    const now = after.get(k) ?? moved.get(k);
    if (moved.has(k)) operationMoved(changes, op, now!, base, head);
    if (now) compareOperations(changes, base, head, op, now);
    else operationDelta(changes, op, 'removed', head);
  }
  const arrived = new Set([...moved.values()]);
  for (const [k, op] of after) if (!before.has(k) && !arrived.has(op)) operationDelta(changes, op, 'added', base);
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
function operationDelta(
  changes: Changes,
  op: OperationLocation,
  how: 'added' | 'removed',
  other: OpenApiDocument,
): void {
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
        ? bearing(
            label,
            'operation',
            'looser',
            `existing servers do not implement ${label}: a new client that calls it gets no declared answer`,
            { clients: 'compatible', servers: 'breaks' },
          )
        : bearing(
            label,
            'operation',
            'tighter',
            `clients that call ${label} get no declared answer from a server following the new document`,
            { clients: 'breaks', servers: 'compatible' },
          ),
  });
}

/** An operation moved (its path or method changed, its operationId kept): existing clients call where it was, new clients where it is. */
function operationMoved(
  changes: Changes,
  b: OperationLocation,
  h: OperationLocation,
  base: OpenApiDocument,
  head: OpenApiDocument,
): void {
  const was = `${b.method} ${b.path}`;
  const is = `${h.method} ${h.path}`;
  changes.claim(b.pointer, h.pointer);
  if (!Object.hasOwn(head.paths, b.path)) changes.claim(childPointer('#/paths', b.path), undefined);
  if (!Object.hasOwn(base.paths, h.path)) changes.claim(undefined, childPointer('#/paths', h.path));
  changes.add({
    keyword: 'operation',
    pointer: h.pointer,
    basePointer: b.pointer,
    before: was,
    after: is,
    what: `operation ${h.operation.operationId} moved: ${was} → ${is}`,
    source: SOURCES.paths,
    bearing: bearing(
      is,
      'operation',
      'both',
      `existing clients call ${was}, which a server following the new document does not declare; a new client calls ${is}, which existing servers do not implement`,
      { clients: 'breaks', servers: 'breaks' },
    ),
  });
}

function compareOperations(
  changes: Changes,
  base: OpenApiDocument,
  head: OpenApiDocument,
  b: OperationLocation,
  h: OperationLocation,
): void {
  const label = `${h.method} ${h.path}`;
  parametersDelta(changes, base, head, b, h, label);
  requestBodyDelta(changes, base, head, b, h, label);
  responsesDelta(changes, base, head, b, h, label);
  securityDelta(changes, base, head, b, h, label);
}

// ---- everything else ----

/** Parts of the document that describe and do not constrain: a difference there is compatible. */
const DESCRIPTIVE = new Set([
  'description',
  'summary',
  'title',
  'example',
  'examples',
  'externalDocs',
  'tags',
  'operationId',
  'deprecated',
  'contact',
  'license',
  'termsOfService',
  'version',
  'info',
  'openapi',
  'bearerFormat',
]);

function claimed(set: Set<string>, pointer: string): boolean {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    if (set.has(p)) return true;
    if (!p.includes('/')) return false;
  }
}

function descriptive(path: string[]): boolean {
  if (path.some((k) => DESCRIPTIVE.has(k) || k.startsWith('x-'))) return true;
  // components other than schemas and security schemes are reached through references, compared where they are used.
  return (
    path[0] === 'components' &&
    path[1] !== undefined &&
    !['schemas', 'securitySchemes', 'responses', 'requestBodies', 'parameters', 'headers', 'pathItems'].includes(
      path[1],
    ) &&
    path[1] !== 'callbacks'
  );
}

/**
 * Every difference no rule accounted for, at the highest place it starts:
 * an annotation (a description, an example, a summary, an `x-` extension)
 * is compatible; a component schema no operation uses is compatible; anything
 * else (servers, response headers, links, callbacks) cannot be told.
 */
function genericDelta(
  changes: Changes,
  b: unknown,
  h: unknown,
  at: { base: string; head: string },
  path: string[],
): void {
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
      genericDelta(
        changes,
        kb === undefined ? undefined : (b as Record<string, unknown>)[kb],
        kh === undefined ? undefined : (h as Record<string, unknown>)[kh],
        { base: childPointer(at.base, kb ?? k), head: childPointer(at.head, k) },
        [...path, k],
      );
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
function alignedKeys(
  b: Record<string, unknown>,
  h: Record<string, unknown>,
  arrays: boolean,
  path: string[],
): Array<[string | undefined, string | undefined]> {
  if (arrays) return (b as unknown as unknown[]).map((_, i) => [String(i), String(i)]);
  const shape =
    path.length === 1 && path[0] === 'paths' ? (k: string) => k.replace(/\{[^}]*\}/g, '{}') : (k: string) => k;
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
  const none: { clients: SideVerdict; servers: SideVerdict } = { clients: 'compatible', servers: 'compatible' };
  return changes.reduce(
    (v, c) => ({ clients: worse(v.clients, c.clients), servers: worse(v.servers, c.servers) }),
    none,
  );
}
