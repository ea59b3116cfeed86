// Parameters compared, by where they are sent and their name: one added,
// removed, made required or optional, or its schema changed.
import type { OpenApiDocument, OperationLocation } from '../../spec/openapi.js';
import { childPointer } from '../../spec/schema-keywords.js';
import { addSchema, bearing, requiredFlip, type Changes } from './changes.js';
import { sameJson } from './schema-delta.js';
import { SOURCES } from './sources.js';

/** Parameter fields that change how a value is written or read: not compared here. */
const SERIALIZATION = ['style', 'explode', 'allowReserved', 'allowEmptyValue', 'content'];
const PARAMETER_ANNOTATIONS = ['description', 'example', 'examples', 'deprecated'];

export function parametersDelta(
  changes: Changes,
  base: OpenApiDocument,
  head: OpenApiDocument,
  b: OperationLocation,
  h: OperationLocation,
  label: string,
): void {
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
          ? bearing(
              usage,
              'request',
              'looser',
              `existing servers require ${p.parameter.name}; a client following the new document does not send it`,
              { clients: 'compatible', servers: 'breaks' },
            )
          : bearing(
              usage,
              'request',
              'none',
              `it was optional: existing servers do without it, and a server following the new document ignores it when an existing client still sends it`,
            ),
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
        bearing: bearing(
          usage,
          'request',
          'none',
          'a path parameter is sent as its place in the path, not by its name',
        ),
      });
    }
    if (required(p.parameter) !== required(now.parameter)) {
      requiredFlip(
        changes,
        { pointer: p.pointer, was: p.parameter.required },
        { pointer: now.pointer, is: now.parameter.required },
        name,
        usage,
        SOURCES.parameter,
        {
          tighter: `an existing client that leaves ${p.parameter.name} out is now refused`,
          looser: `a new client may leave ${p.parameter.name} out, which existing servers refuse`,
        },
      );
    }
    const ps = p.parameter.schema;
    const ns = now.parameter.schema;
    if (ps !== undefined || ns !== undefined) {
      addSchema(
        changes,
        base,
        head,
        { schema: ps ?? {}, pointer: childPointer(p.pointer, 'schema') },
        { schema: ns ?? {}, pointer: childPointer(now.pointer, 'schema') },
        usage,
        'request',
      );
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
          : bearing(
              usage,
              'request',
              'unknown',
              `${field} changes how the value is written in the request: not compared here`,
            ),
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
        ? bearing(
            `${name} of ${label}`,
            'request',
            'tighter',
            `existing clients do not send ${p.parameter.name}, which is now required`,
          )
        : bearing(
            `${name} of ${label}`,
            'request',
            'none',
            `it is optional: existing clients may leave it out, and existing servers ignore a parameter they do not know`,
          ),
    });
  }
}
