// The id a created item is known by, from its create's exchange: the member
// the client chose it in; else the answer's member (model/identity.ts,
// inference `identity` where a name or readOnly says which); else the
// answer's Location (RFC 9110 §10.2.2: "the URI of the primary resource
// created"; inference `location`), matched against the item path. And the
// entity tag an answer gives (RFC 9110 §8.8.3), for the conditional
// requests that follow.
import { parseExact, type JsonValue } from '../model/json.js';
import type { ResourceModel } from '../model/resource.js';
import { valueOfText } from '../cases/parameter-values.js';
import type { Exchange } from './exchange.js';
import type { CheckContext } from './types.js';

/** The value at a JSON pointer (RFC 6901) in a value, if any. */
export function valueAt(value: JsonValue | undefined, pointer: string): JsonValue | undefined {
  let v: JsonValue | undefined = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (v === null || typeof v !== 'object' || v === undefined) return undefined;
    v = Array.isArray(v) ? v[Number(key)] : (v as Record<string, JsonValue>)[key];
  }
  return v;
}

/** The answer's body as exact JSON, or undefined. */
export function answerJson(ex: Exchange): JsonValue | undefined {
  if (!ex.response) return undefined;
  const parsed = parseExact(ex.response.bodyText);
  return parsed.ok ? parsed.value : undefined;
}

/**
 * The item id a Location names: the path of the URI reference (resolved
 * against any base; RFC 3986 §5), whose last segments match the item path
 * template; the item parameter's segment, decoded. Undefined when the
 * template does not match.
 */
export function idInLocation(r: ResourceModel, location: string): string | undefined {
  if (r.item === undefined || r.identity.parameter === undefined) return undefined;
  let path: string;
  try {
    path = new URL(location, 'http://location.invalid/').pathname;
  } catch {
    return undefined;
  }
  const want = r.item.split('/').filter((s) => s !== '');
  const got = path.split('/').filter((s) => s !== '');
  if (got.length < want.length) return undefined;
  const tail = got.slice(got.length - want.length);
  let id: string | undefined;
  for (const [i, segment] of want.entries()) {
    const m = /^\{([^{}/]+)\}$/.exec(segment);
    if (!m) {
      if (segment !== tail[i]) return undefined;
      continue;
    }
    if (m[1] === r.identity.parameter.name) {
      try {
        id = decodeURIComponent(tail[i]!);
      } catch {
        return undefined;
      }
    }
  }
  return id;
}

/** The types of the item parameter (what its text stands for). */
function parameterTypes(r: ResourceModel): string[] {
  return r.identity.kind.type !== undefined ? [r.identity.kind.type] : [];
}

/** Where a created item's id came from, in a few words, and the id. */
export interface CreatedId {
  id?: JsonValue;
  from?: 'request' | 'answer' | 'location';
}

/** The id of the item a create made, from what it sent and what it was answered. */
export function createdId(ctx: CheckContext, r: ResourceModel, sent: JsonValue | undefined, ex: Exchange): CreatedId {
  const { identity } = r;
  if (identity.request !== undefined && sent !== null && typeof sent === 'object' && !Array.isArray(sent)) {
    const id = (sent as Record<string, JsonValue>)[identity.request];
    if (id !== undefined) return { id, from: 'request' };
  }
  if (identity.answer && (identity.answer.by === 'echo' || ctx.inferences.has('identity'))) {
    const id = valueAt(answerJson(ex), `/${identity.answer.member}`);
    if (id !== undefined && id !== null) return { id, from: 'answer' };
  }
  // The document's own word: a link from the create maps an item operation's parameter from the answer.
  const linked = r.operations.find((o) => o.id?.link?.from === 'response')?.id?.link;
  if (linked) {
    const id = valueAt(answerJson(ex), linked.pointer);
    if (id !== undefined && id !== null) return { id, from: 'answer' };
  }
  const location = ex.response?.headers.location;
  if (location !== undefined && ctx.inferences.has('location')) {
    const text = idInLocation(r, location);
    if (text !== undefined) return { id: valueOfText(parameterTypes(r), text), from: 'location' };
  }
  return {};
}

/** The entity tag of an answer (RFC 9110 §8.8.3), if it carries one. */
export function etagOf(ex: Exchange | undefined): string | undefined {
  return ex?.response?.headers.etag;
}
