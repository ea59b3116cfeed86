// What the server says of each operation at start (start.ts logs a line
// each), what of an operation it does not serve as the document says (the
// features start.ts names, and that a strict start refuses:
// PLANTSTORE_STRICT), and what served.ts reads of an operation's answers:
// its success, its declared responses and headers, its credentials.
import { isJsonBased } from '../../lib/http-syntax.js';
import {
  resolveReference,
  type OpenApiDocument,
  type OperationLocation,
  type ResponseObject,
} from '../../spec/openapi.js';
import { StartError } from '../../lib/start-error.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import type { ExampleAnswer } from './examples.js';
import type { SuccessAnswer } from './item.js';
import type { ItemKind } from './item-kind.js';
import type { ListRules } from './list-rules.js';
import type { ItemRole, Resource } from './resources.js';

/** A document a strict server refuses (PLANTSTORE_STRICT=on): what it would not serve as written, each feature on a line. */
export class UnservedError extends StartError {
  override readonly name = 'UnservedError';
  constructor(readonly unserved: readonly Unserved[]) {
    super(
      'PLANTSTORE_UNSERVED',
      `PLANTSTORE_STRICT=on and the server cannot serve ${unserved.length} feature(s) of the document as it is written:\n${unserved.map(unservedLine).join('\n')}`,
    );
  }
}

/** A line naming an unserved feature, as start.ts logs it. */
export function unservedLine({ operation, feature, reason }: Unserved): string {
  return `${operation}: ${feature} is not served as the document says: ${reason}`;
}

/** A feature of an operation the server does not serve as the document says, and why. */
export interface Unserved {
  /** `GET /plants`, or the webhook's name. */
  operation: string;
  feature: string;
  reason: string;
}

const ITEM_NOTES: Record<ItemRole, string> = {
  read: 'reads',
  replace: 'replaces',
  merge: 'merges a JSON Merge Patch (RFC 7396) into',
  delete: 'deletes',
};

export function createNote(resource: Resource, kind: ItemKind, headers: readonly string[]): string {
  const parts = [`creates ${/^[aeiou]/.test(resource.noun) ? 'an' : 'a'} ${resource.noun} in the store`];
  if (resource.parent !== undefined)
    parts[0] += ` under the ${resource.parent.noun} its path names (404 where it is not stored)`;
  else if (resource.scope.length > 0) parts[0] += ` under the values of its path's ${resource.scope.join(', ')}`;
  if (kind.ids !== undefined && 'make' in kind.ids)
    parts.push(`the server picks its id where the body has none: ${kind.ids.how}`);
  for (const { property, target, by } of resource.references)
    parts.push(`${property} must name a stored ${target.noun} (found by ${by === 'links' ? 'the links' : 'its name'})`);
  if (headers.length > 0) parts.push(`answers with ${headers.map(headerName).join(' and ')}`);
  return parts.join('; ');
}

export function itemNote(resource: Resource, role: ItemRole, by: 'shape' | 'links', creates: boolean): string {
  const note = `${ITEM_NOTES[role]} the ${resource.noun} whose id is the path parameter ${resource.idParameter} (found by ${by === 'links' ? "the create's links" : "the path's shape"})`;
  return creates ? `${note}; creates it there where it is not stored (201)` : note;
}

export function listNote(resource: Resource, rules: ListRules): string {
  const plural =
    resource.collectionPath
      .split('/')
      .filter((part) => part !== '' && !part.startsWith('{'))
      .at(-1) ?? 'items';
  const parts = [
    `lists the ${plural}, oldest first, as ${rules.shape.kind === 'array' ? 'an array' : `a page object (${rules.shape.items})`}, at most ${rules.defaultLimit} a page unless asked for fewer`,
  ];
  if (rules.limit !== undefined) parts.push(`${rules.limit} bounds the page`);
  if (rules.offset !== undefined) parts.push(`${rules.offset} skips`);
  if (rules.page !== undefined) parts.push(`${rules.page.name} numbers the pages from ${rules.page.first}`);
  if (rules.cursor !== undefined) parts.push(`${rules.cursor} continues after a page`);
  if (rules.filters.length > 0)
    parts.push(`${rules.filters.join(', ')} ${rules.filters.length === 1 ? 'filters' : 'filter'}`);
  if (rules.sort !== undefined)
    parts.push(
      `${rules.sort.name}${rules.sort.direction === undefined ? ' sorts' : ` and ${rules.sort.direction} sort`} by members, in code point order for strings`,
    );
  if (rules.link)
    parts.push(
      rules.relations.size === 0
        ? 'Link names the next page'
        : `Link names the next page and the ${[...rules.relations].join(', ')}`,
    );
  if (rules.total !== undefined) parts.push(`${rules.total} counts them`);
  if (rules.unused.length > 0) parts.push(`${rules.unused.join(', ')} checked, with no effect`);
  return parts.join('; ');
}

export function exampleNote(why: string, answer: ExampleAnswer | { unavailable: string }): string {
  return 'unavailable' in answer
    ? `${why}: answered 501, as ${answer.unavailable}`
    : `${why}: answered ${answer.status} ${answer.source === 'example' ? "with the document's example" : answer.source === 'schema' ? 'with a value made from its schema' : 'with no content'}, whatever the store holds`;
}

/** `Location`, `ETag` as written in headers. */
function headerName(lower: string): string {
  return lower === 'etag'
    ? 'ETag'
    : lower.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

/**
 * The headers a response declares, by whether the server sends them: those
 * of `known` (lower case) it declares, and the others it requires
 * (`required: true`), which the server does not make.
 */
export function answerHeaders(
  response: ResponseObject | undefined,
  known: readonly string[],
  doc?: OpenApiDocument,
): { sent: string[]; unsent: string[] } {
  const sent: string[] = [];
  const unsent: string[] = [];
  for (const [name, raw] of Object.entries(response?.headers ?? {})) {
    const lower = name.toLowerCase();
    if (known.includes(lower)) sent.push(lower);
    else if (requiredHeader(raw, doc)) unsent.push(name);
  }
  return { sent, unsent };
}

function requiredHeader(header: unknown, doc: OpenApiDocument | undefined): boolean {
  const resolved = doc === undefined ? header : resolveReference(doc, header, '#').value;
  return isSchemaObject(resolved) && resolved.required === true;
}

export function declaredResponses(doc: OpenApiDocument, operation: OperationLocation): Record<string, ResponseObject> {
  const responses: Record<string, ResponseObject> = {};
  for (const [status, response] of Object.entries(operation.operation.responses ?? {})) {
    responses[status] = resolveReference(doc, response, childPointer(operation.pointer, 'responses', status)).value;
  }
  return responses;
}

/** The lowest 2xx status the operation declares (200 when none), the Content-Type of its JSON content, that content's schema, and the response. */
export function successAnswer(
  doc: OpenApiDocument,
  operation: OperationLocation,
): SuccessAnswer & { schema: unknown; response: ResponseObject | undefined } {
  const responses = operation.operation.responses ?? {};
  const key = Object.keys(responses)
    .filter((status) => /^2\d\d$/.test(status))
    .sort()[0];
  if (key === undefined)
    return { status: 200, contentType: 'application/json; charset=utf-8', schema: undefined, response: undefined };
  const { value: response } = resolveReference(
    doc,
    responses[key] as ResponseObject,
    childPointer(operation.pointer, 'responses', key),
  );
  const mediaType = Object.keys(response.content ?? {}).find(isJsonBased);
  return {
    status: Number(key),
    contentType: mediaType === undefined ? undefined : `${mediaType}; charset=utf-8`,
    schema: mediaType === undefined ? undefined : response.content![mediaType]!.schema,
    response,
  };
}
