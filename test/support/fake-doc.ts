// A fake server for the documents of test/fixtures/documents/: it serves a
// document's resources from a store, by the hand-written configuration of
// fake-doc-config.ts (not inferred the way the harness infers them): ids the
// client chooses or the server numbers, Location, nested collections and
// references, conditional requests, idempotency keys, filters and sort
// orders, and pages in every style (fake-doc-lists.ts). Parameters and
// bodies are judged by the document's own schemas; its baseline answers as
// each document's opening comment says a correct server does, and each
// break departs from one rule of the feature (or makes an allowed choice).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mediaTypeEssence } from '../../lib/http-syntax.js';
import { operationOf } from '../../conformance/checks/declared.js';
import { parameterTypes, valueOfText } from '../../conformance/cases/parameter-values.js';
import { parseExact, toJson, type JsonValue } from '../../conformance/model/json.js';
import {
  loadSpecModel,
  resolveSchema,
  type OperationModel,
  type ParameterModel,
  type SpecModel,
} from '../../conformance/model/spec-model.js';
import { isSchemaObject } from '../../spec/schema-keywords.js';
import type { Violation } from '../../spec/validator.js';
import { fixturePath } from './fixtures.js';
import { DOC_FIXTURES, type DocBreak, type FixtureSpec, type ResourceSpec } from './fake-doc-config.js';
import { DocStore, type Answer } from './fake-doc-store.js';

export interface DocFake {
  url: string;
  model: SpecModel;
  /** Every request the fake received, method and path (the tests count what was sent). */
  received: Array<{ method: string; path: string }>;
  close(): Promise<void>;
}

/** What a request to one of the document's operations carries, once judged. */
export interface Judged {
  op: OperationModel;
  resource: ResourceSpec;
  /** On the item path (else the collection). */
  onItem: boolean;
  path: Record<string, string>;
  query: Record<string, JsonValue>;
  headers: Record<string, string | undefined>;
  body?: JsonValue;
  /** The request's URL as received (the list writes its Link targets from it). */
  url: URL;
  /** Its Host header (an absolute Location names it). */
  host: string;
}

export async function startDocFake(fixture: string, token: string, breaks: readonly DocBreak[] = []): Promise<DocFake> {
  const model = loadSpecModel(fixturePath(`documents/${fixture}.yaml`));
  const spec = DOC_FIXTURES[fixture];
  if (!spec) throw new Error(`no configuration for the fixture ${fixture}`);
  const store = new DocStore(spec, new Set(breaks));
  const received: DocFake['received'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method ?? 'GET', path: req.url ?? '/' });
      let answer: Answer;
      try {
        answer = handle(model, spec, store, token, req, Buffer.concat(chunks).toString('utf8'));
      } catch {
        answer = { status: 500, body: { error: 50001, message: 'Internal server error.' } };
      }
      send(res, answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    model,
    received,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

function send(res: ServerResponse, a: Answer): void {
  const headers = { ...(a.headers ?? {}) };
  if (a.body === undefined) {
    res.writeHead(a.status, headers);
    return void res.end();
  }
  res.writeHead(a.status, { 'content-type': 'application/json', ...headers });
  res.end(toJson(a.body));
}

/** Whether violations refuse a value: any, but a pattern's where the patternUnchecked break ignores patterns. */
function judge(store: DocStore, violations: Violation[] | undefined): boolean {
  return (violations ?? []).some((v) => !(store.broken.has('patternUnchecked') && v.keyword === 'pattern'));
}

const refuse = (status: number, message: string): Answer => ({ status, body: { error: status * 100 + 1, message } });

/** The types of a schema (resolved). */
function typesAt(model: SpecModel, schema: unknown, pointer: string): string[] {
  const { schema: s } = resolveSchema(model.doc, schema, pointer);
  if (!isSchemaObject(s)) return [];
  return Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
}

/** A query parameter's value as its style writes it: one value, every value of an exploded array, or a deepObject's members. */
function queryValue(model: SpecModel, p: ParameterModel, url: URL): JsonValue | undefined {
  if (p.style === 'deepObject') {
    const out: Record<string, JsonValue> = {};
    const schema = p.schema ? resolveSchema(model.doc, p.schema.schema, p.schema.pointer).schema : {};
    const props = isSchemaObject(schema) && isSchemaObject(schema.properties) ? schema.properties : {};
    for (const [k, v] of url.searchParams) {
      const m = /^(.+)\[(.+)\]$/.exec(k);
      if (!m || m[1] !== p.name) continue;
      out[m[2]!] = valueOfText(typesAt(model, props[m[2]!], `${p.schema?.pointer ?? ''}/properties/${m[2]!}`), v);
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  const types = parameterTypes(model, p);
  if (types.includes('array')) {
    const all = url.searchParams.getAll(p.name);
    if (all.length === 0) return undefined;
    const schema = p.schema ? resolveSchema(model.doc, p.schema.schema, p.schema.pointer).schema : {};
    const items = isSchemaObject(schema) ? schema.items : undefined;
    const itemTypes = items !== undefined ? typesAt(model, items, `${p.schema!.pointer}/items`) : [];
    return all.map((x) => valueOfText(itemTypes, x));
  }
  const one = url.searchParams.get(p.name);
  return one === null ? undefined : valueOfText(types, one);
}

function handle(
  model: SpecModel,
  spec: FixtureSpec,
  store: DocStore,
  token: string,
  req: IncomingMessage,
  text: string,
): Answer {
  const url = new URL(req.url ?? '/', 'http://fake');
  const op = operationOf(model, { method: req.method ?? 'GET', path: url.pathname });
  if (!op) {
    const allowed = model.operations.filter((o) =>
      operationOf({ ...model, operations: [o] }, { method: o.method, path: url.pathname }),
    );
    if (allowed.length > 0)
      return { ...refuse(405, 'Method not allowed.'), headers: { allow: allowed.map((o) => o.method).join(', ') } };
    return refuse(404, 'Not found.');
  }
  if (!op.open && req.headers.authorization !== `Bearer ${token}`)
    return { ...refuse(401, 'Bearer credentials required.'), headers: { 'www-authenticate': 'Bearer realm="plants"' } };
  const resource = spec.resources.find((r) => r.collection === op.path || r.item === op.path);
  if (!resource) return refuse(404, 'Not found.');
  // Path parameters by position in the template.
  const segments = op.path.split('/');
  const actual = url.pathname.split('/');
  const path: Record<string, string> = {};
  const query: Record<string, JsonValue> = {};
  const headers: Record<string, string | undefined> = {};
  for (const p of op.parameters) {
    let value: JsonValue | undefined;
    if (p.in === 'path') {
      const raw = decodeURIComponent(actual[segments.indexOf(`{${p.name}}`)] ?? '');
      if (judge(store, p.validate?.(valueOfText(parameterTypes(model, p), raw))))
        return refuse(400, `${p.name} is not valid.`);
      path[p.name] = raw;
      continue;
    }
    if (p.in === 'query') value = queryValue(model, p, url);
    else if (p.in === 'header') {
      const h = req.headers[p.name.toLowerCase()];
      headers[p.name.toLowerCase()] = Array.isArray(h) ? h.join(', ') : h;
      if (h === undefined && p.required && p.name.toLowerCase() === 'if-match') continue; // the conditional store answers 428
      value = typeof h === 'string' ? valueOfText(parameterTypes(model, p), h) : undefined;
    }
    if (value === undefined) {
      if (p.required) return refuse(400, `${p.name} is required.`);
      continue;
    }
    if ((p.validate?.(value) ?? []).length > 0) return refuse(400, `${p.name} is not valid.`);
    if (p.in === 'query') query[p.name] = value;
  }
  let body: JsonValue | undefined;
  if (op.requestBodies.length > 0) {
    if (text === '') {
      if (op.requestBodyRequired) return refuse(400, 'A body is required.');
    } else {
      const media = op.requestBodies.find((b) => b.contentType === mediaTypeEssence(req.headers['content-type']));
      if (!media) return refuse(415, 'Unsupported media type.');
      const parsed = parseExact(text);
      if (!parsed.ok) return refuse(400, 'The body is not JSON.');
      if (judge(store, media.validate?.(parsed.value))) return refuse(400, 'The body is not valid.');
      body = parsed.value;
    }
  }
  const judged: Judged = {
    op,
    resource,
    onItem: op.path === resource.item,
    path,
    query,
    headers,
    url,
    host: req.headers.host ?? '',
    ...(body !== undefined ? { body } : {}),
  };
  return store.serve(judged);
}
