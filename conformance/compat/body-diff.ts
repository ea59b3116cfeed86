// Bodies compared: the request body, the media types of a body and their
// schemas (a request's or an answer's: response-diff.ts compares the answers
// by status), and what the create operation's answer carries back of what was
// sent.
import { createOperation, type OpenApiDocument, type OperationLocation } from '../../spec/openapi.js';
import { childPointer } from '../../spec/schema-keywords.js';
import { flattenObject } from '../model/spec-model.js';
import { addSchema, bearing, requiredFlip, resolveObject, type Changes } from './changes.js';
import { SOURCES } from './sources.js';

export interface BodyLike {
  required?: boolean;
  content?: Record<string, { schema?: unknown }>;
}

export function requestBodyDelta(
  changes: Changes,
  base: OpenApiDocument,
  head: OpenApiDocument,
  b: OperationLocation,
  h: OperationLocation,
  label: string,
): void {
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
          : bearing(
              usage,
              'request',
              'unknown',
              'an optional body existing servers never expected: whether they ignore or refuse it is not said by either document',
            )
        : body.required
          ? bearing(
              usage,
              'request',
              'looser',
              'existing servers require a body; a client following the new document sends none',
            )
          : bearing(
              usage,
              'request',
              'unknown',
              'existing clients may still send the body: whether a server following the new document ignores or refuses it is not said',
            ),
    });
    return;
  }
  const before = resolveObject(base, rb as BodyLike, bp);
  const after = resolveObject(head, hb as BodyLike, hp);
  changes.claim(childPointer(before.pointer, 'required'), childPointer(after.pointer, 'required'));
  if ((before.value.required === true) !== (after.value.required === true)) {
    requiredFlip(
      changes,
      { pointer: before.pointer, was: before.value.required },
      { pointer: after.pointer, is: after.value.required },
      'request body',
      usage,
      SOURCES.requestBody,
      {
        tighter: 'an existing client that sends no body is now refused',
        looser: 'a new client may send no body, which existing servers refuse',
      },
    );
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
export function mediaTypesDelta(
  changes: Changes,
  base: OpenApiDocument,
  head: OpenApiDocument,
  before: { value: BodyLike; pointer: string },
  after: { value: BodyLike; pointer: string },
  usage: string,
  role: 'request' | 'response',
): void {
  const bc = before.value.content ?? {};
  const hc = after.value.content ?? {};
  const norm = (t: string) => t.toLowerCase().replace(/\s+/g, '');
  const bKeys = new Map(Object.keys(bc).map((t) => [norm(t), t]));
  const hKeys = new Map(Object.keys(hc).map((t) => [norm(t), t]));
  // A media type gone or come: what it does to each side, by the direction the body travels.
  const whyGone = (t: string) =>
    role === 'request'
      ? bearing(usage, role, 'tighter', `existing clients that send ${t} are refused (415)`)
      : bearing(
          usage,
          role,
          'both',
          `existing servers that answer ${t} now answer what the document does not declare, and existing clients that read ${t} get the answer in another media type from a server following the new document`,
        );
  const whyCome = (t: string) =>
    role === 'request'
      ? bearing(usage, role, 'looser', `a new client may send ${t}, which existing servers refuse (415)`)
      : bearing(usage, role, 'looser', `an answer may now come as ${t}, which existing clients were not told to read`);
  const presence = (t: string, pointer: string, gone: boolean) =>
    changes.presence(gone, {
      keyword: 'content',
      pointer,
      value: t,
      what: `media type ${t} ${gone ? 'removed from' : 'added to'} the ${usage}`,
      source: SOURCES.mediaType,
      bearing: gone ? whyGone(t) : whyCome(t),
    });
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
    if (bs !== undefined || hs !== undefined)
      addSchema(
        changes,
        base,
        head,
        { schema: bs ?? {}, pointer: childPointer(bp, 'schema') },
        { schema: hs ?? {}, pointer: childPointer(hp, 'schema') },
        usage,
        role,
      );
  }
  for (const [n, t] of hKeys) if (!bKeys.has(n)) presence(t, childPointer(after.pointer, 'content', t), false);
}

/**
 * The Plant Store's create operation "returns the stored plant record": the
 * answer carries back every property its schema (Plant) declares, as sent
 * (docs/document.md). A property the new answer schema and request schema
 * both declare, which the old did not, is one an existing server drops; one
 * the old declared and the new does not is one a new server drops, while
 * existing clients expect it back. Neither shows in a schema taken alone.
 */
export function echoDelta(changes: Changes, base: OpenApiDocument, head: OpenApiDocument): void {
  const echoed = (doc: OpenApiDocument) => {
    try {
      const create = createOperation(doc);
      const success = Object.keys(create.operation.responses ?? {})
        .filter((s) => s.startsWith('2'))
        .sort()[0];
      const media = (body: BodyLike | undefined) =>
        body?.content ? (body.content['application/json'] ?? Object.values(body.content)[0]) : undefined;
      const answer =
        success !== undefined
          ? media(
              resolveObject(
                doc,
                create.operation.responses[success] as BodyLike,
                childPointer(create.pointer, 'responses', success),
              ).value,
            )
          : undefined;
      const request =
        create.operation.requestBody !== undefined
          ? media(
              resolveObject(doc, create.operation.requestBody as BodyLike, childPointer(create.pointer, 'requestBody'))
                .value,
            )
          : undefined;
      if (answer?.schema === undefined || request?.schema === undefined || success === undefined) return undefined;
      const answerPointer = childPointer(create.pointer, 'responses', success, 'content', 'application/json', 'schema');
      const sent = new Set(
        flattenObject(
          doc,
          request.schema,
          childPointer(create.pointer, 'requestBody', 'content', 'application/json', 'schema'),
        ).fields.map((f) => f.name),
      );
      const names = flattenObject(doc, answer.schema, answerPointer)
        .fields.map((f) => f.name)
        .filter((n) => sent.has(n));
      return { names, pointer: answerPointer, label: `${create.method} ${create.path}`, status: success };
    } catch {
      return undefined;
    }
  };
  const before = echoed(base);
  const after = echoed(head);
  if (!before || !after || before.label !== after.label) return;
  const usage = `${after.status} answer of ${after.label} (what it carries back)`;
  // Said once: where a property of the answer came or went, what it carries back joins that change.
  const sameProperty =
    (name: string) =>
    (c: { member?: string; instancePath?: Array<string | number>; bearings: Array<{ role: string; usage: string }> }) =>
      c.member === name &&
      (c.instancePath?.length ?? 0) === 0 &&
      c.bearings.some((b) => b.role === 'response' && b.usage === `${after.status} answer of ${after.label}`);
  for (const name of after.names.filter((n) => !before.names.includes(n))) {
    changes.addOrJoin(
      {
        keyword: 'echo',
        pointer: after.pointer,
        basePointer: before.pointer,
        after: name,
        member: name,
        detail: name,
        what: `the answer must now carry back ${name}`,
        source: SOURCES.echo,
        bearing: bearing(
          usage,
          'response',
          'tighter',
          `an existing server does not know ${name}: it drops it from the stored plant, and its answer lacks what a new client sent`,
        ),
      },
      sameProperty(name),
    );
  }
  for (const name of before.names.filter((n) => !after.names.includes(n))) {
    changes.addOrJoin(
      {
        keyword: 'echo',
        pointer: after.pointer,
        basePointer: before.pointer,
        before: name,
        member: name,
        detail: name,
        what: `the answer no longer carries back ${name}`,
        source: SOURCES.echo,
        bearing: bearing(
          usage,
          'response',
          'looser',
          `existing clients send ${name} and expect it back; a server following the new document need not keep it`,
        ),
      },
      sameProperty(name),
    );
  }
}
