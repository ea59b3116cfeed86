// The store of fake-doc.ts and what each operation does with it: creates
// (ids chosen or numbered, Location, parents, references, idempotency keys,
// duplicates), reads (entity tags, If-None-Match), replaces (If-Match: 428
// without, 412 when stale) and deletes; lists are fake-doc-lists.ts's.
// The breaks of fake-doc-config.ts switch one rule each.
import { textOf } from '../../conformance/cases/parameter-values.js';
import { toJson, type JsonValue } from '../../conformance/model/json.js';
import type { DocBreak, FixtureSpec, ResourceSpec } from './fake-doc-config.js';
import type { Judged } from './fake-doc.js';
import { listAnswer } from './fake-doc-lists.js';

export interface Answer {
  status: number;
  body?: JsonValue;
  headers?: Record<string, string>;
}

export interface Stored {
  collection: string;
  /** The id of its parent, for an item of a nested collection. */
  parent?: string;
  id: string;
  answer: Record<string, JsonValue>;
  version: number;
  /** The order it was created in. */
  seq: number;
}

/** A JSON object (not an array, not null). */
const isObject = (v: JsonValue | undefined): v is Record<string, JsonValue> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const refuse = (status: number, message: string): Answer => ({ status, body: { error: status * 100 + 1, message } });

/** Whether an entity tag list (If-Match, If-None-Match) names `tag`: `*` names any; weakly, W/ is ignored. */
function names(field: string, tag: string, weak: boolean): boolean {
  if (field.trim() === '*') return true;
  const strip = (t: string) => (weak ? t.trim().replace(/^W\//, '') : t.trim());
  return field.split(',').some((t) => strip(t) === strip(tag) && (weak || !t.trim().startsWith('W/')));
}

export class DocStore {
  readonly items = new Map<string, Stored>();
  private seq = 0;
  private numbers = 0;
  private readonly keys = new Map<string, { body: string; answer: Answer }>();

  constructor(
    readonly spec: FixtureSpec,
    readonly broken: ReadonlySet<DocBreak>,
  ) {}

  private key = (collection: string, parent: string | undefined, id: string) => `${collection}|${parent ?? ''}|${id}`;

  /** The items of a collection (under a parent where it is nested), in creation order. */
  itemsOf(collection: string, parent?: string): Stored[] {
    return [...this.items.values()]
      .filter(
        (s) =>
          s.collection === collection &&
          (parent === undefined || s.parent === parent || this.broken.has('listAllParents')),
      )
      .sort((a, b) => a.seq - b.seq);
  }

  private find(collection: string, parent: string | undefined, id: string): Stored | undefined {
    const own = this.items.get(this.key(collection, parent, id));
    if (own || !this.broken.has('anyParent')) return own;
    return [...this.items.values()].find((s) => s.collection === collection && s.id === id);
  }

  private etag(s: Stored): string {
    return `"${s.id}-v${this.broken.has('etagStuck') ? 0 : s.version}"`;
  }

  private withTag(s: Stored, headers: Record<string, string> = {}): Record<string, string> {
    return this.spec.conditional && !this.broken.has('noEtag') ? { ...headers, etag: this.etag(s) } : headers;
  }

  serve(j: Judged): Answer {
    const r = j.resource;
    const parent = r.parent ? j.path[r.parent.param] : undefined;
    if (j.op.method === 'POST' && !j.onItem) return this.create(j, r, parent);
    if (j.op.method === 'GET' && !j.onItem) return listAnswer(this, j, r, parent);
    const id = j.path[r.idParam!]!;
    if (j.op.method === 'GET') return this.read(j, r, parent, id);
    if (j.op.method === 'PUT') return this.replace(j, r, parent, id);
    if (j.op.method === 'DELETE') return this.remove(r, parent, id);
    return refuse(405, 'Method not allowed.');
  }

  private create(j: Judged, r: ResourceSpec, parent: string | undefined): Answer {
    const body = j.body as Record<string, JsonValue>;
    const keyHeader = this.spec.idempotency;
    const key = keyHeader !== undefined ? j.headers[keyHeader] : undefined;
    if (key !== undefined && !this.broken.has('keyIgnored')) {
      const seen = this.keys.get(key);
      if (seen && (seen.body === toJson(body) || this.broken.has('otherBodyReplayed')))
        return this.broken.has('replayMarked') && isObject(seen.answer.body)
          ? { ...seen.answer, body: { ...seen.answer.body, replayed: true } }
          : seen.answer;
      if (seen && this.broken.has('keyReuse500')) throw new Error('the key is taken');
      if (seen) return refuse(422, 'The idempotency key was used with another body.');
    }
    const answer = this.store(j, r, parent, body);
    if (key !== undefined && answer.status < 300) this.keys.set(key, { body: toJson(body), answer });
    return answer;
  }

  private store(j: Judged, r: ResourceSpec, parent: string | undefined, body: Record<string, JsonValue>): Answer {
    if (r.parent && parent !== undefined && !this.broken.has('orphans')) {
      if (!this.items.has(this.key(r.parent.collection, undefined, parent))) return refuse(404, 'No such parent.');
    }
    for (const ref of r.references ?? []) {
      const named = textOf(body[ref.member]!);
      const exists = [...this.items.values()].some((s) => s.collection === ref.collection && s.id === named);
      if (!exists && !this.broken.has('dangling'))
        return refuse(
          this.broken.has('dangling404') ? 404 : this.broken.has('dangling403') ? 403 : ref.status,
          `${ref.member} names nothing stored.`,
        );
    }
    let id: string;
    const answer: Record<string, JsonValue> = { ...body };
    if (r.clientId !== undefined) {
      id = textOf(body[r.clientId]!);
      const known = this.items.get(this.key(r.collection, parent, id));
      if (known && !this.broken.has('duplicateReplaces'))
        return refuse(this.broken.has('conflict400') ? 400 : this.spec.conflict, `An item with id ${id} exists.`);
    } else {
      const finds = this.broken.has('findsStored') || this.broken.has('foundAs201');
      const same = finds ? this.sameBody(r, parent, body) : undefined;
      if (same !== undefined)
        return {
          status: this.broken.has('foundAs201') ? 201 : 200,
          body: same.answer,
          headers: this.withTag(same, r.location ? { location: this.itemPath(r, parent, same.id) } : {}),
        };
      const n = this.broken.has('oneId') ? 1n : BigInt(++this.numbers);
      id = n.toString();
      answer[r.answerId!] = n;
    }
    const stored: Stored = {
      collection: r.collection,
      ...(parent !== undefined ? { parent } : {}),
      id,
      answer,
      version: 1,
      seq: ++this.seq,
    };
    this.items.set(this.key(r.collection, parent, id), stored);
    const headers: Record<string, string> = {};
    if (r.location && r.created === 201 && !this.broken.has('noLocation')) {
      const path = this.itemPath(r, parent, this.broken.has('locationElsewhere') ? `${id}0` : id);
      headers.location = this.broken.has('locationAbsolute') ? `http://${j.host}${path}` : path;
    }
    return { status: r.created, body: answer, headers: this.withTag(stored, headers) };
  }

  /** The path of an item: the item path with its id and its parent's. */
  private itemPath(r: ResourceSpec, parent: string | undefined, id: string): string {
    return r.item!.replace(/\{[^}]+\}/g, (m) =>
      m === `{${r.idParam}}` ? encodeURIComponent(id) : encodeURIComponent(parent ?? ''),
    );
  }

  /** A stored item of the collection (under the parent) whose members, but for the id the server gave, are the body's. */
  private sameBody(r: ResourceSpec, parent: string | undefined, body: Record<string, JsonValue>): Stored | undefined {
    const members = (answer: Record<string, JsonValue>) =>
      toJson(Object.fromEntries(Object.entries(answer).filter(([name]) => name !== r.answerId)));
    return this.itemsOf(r.collection, parent).find((s) => members(s.answer) === members(body));
  }

  private read(j: Judged, r: ResourceSpec, parent: string | undefined, id: string): Answer {
    if (this.broken.has('readMisses')) return refuse(404, 'No such item.');
    const lookup = this.broken.has('numberOffByOne') ? String(BigInt(id) - 1n) : id;
    const collection = this.broken.has('readOtherStore') ? '/plants' : r.collection;
    const found = this.find(collection, parent, lookup);
    if (!found) {
      const elsewhere = [...this.items.values()].some((s) => s.collection === r.collection && s.id === id);
      if (this.broken.has('otherParent403') && elsewhere) return refuse(403, 'Not yours.');
      return refuse(404, 'No such item.');
    }
    const none = j.headers['if-none-match'];
    if (this.spec.conditional && none !== undefined && !this.broken.has('no304') && names(none, this.etag(found), true))
      return { status: 304, headers: this.withTag(found, {}) };
    return { status: 200, body: found.answer, headers: this.withTag(found) };
  }

  private replace(j: Judged, r: ResourceSpec, parent: string | undefined, id: string): Answer {
    const found = this.find(r.collection, parent, id);
    if (!found) return refuse(404, 'No such item.');
    if (this.spec.conditional) {
      const match = j.headers['if-match'];
      if (match === undefined && !this.broken.has('ifMatchOptional'))
        return refuse(this.broken.has('noIfMatch400') ? 400 : 428, 'If-Match is required.');
      if (match !== undefined && !names(match, this.etag(found), false) && !this.broken.has('staleIfMatchApplied'))
        return refuse(this.broken.has('staleIfMatch409') ? 409 : 412, 'The item changed since.');
    }
    const body = j.body as Record<string, JsonValue>;
    if (r.clientId !== undefined && body[r.clientId] !== undefined && textOf(body[r.clientId]!) !== id)
      return refuse(400, "The id differs from the path's.");
    found.answer = { ...body, ...(r.clientId !== undefined ? { [r.clientId]: found.answer[r.clientId]! } : {}) };
    found.version++;
    return { status: 200, body: found.answer, headers: this.withTag(found) };
  }

  private remove(r: ResourceSpec, parent: string | undefined, id: string): Answer {
    const found = this.find(r.collection, parent, id);
    if (!found) return refuse(404, 'No such item.');
    if (!this.broken.has('deleteKeeps')) this.items.delete(this.key(found.collection, found.parent, found.id));
    return { status: 204 };
  }
}
