// A fake server for the documents of test/fixtures/operations/: it serves
// every operation of one document, the plant resource from a store (the
// roles of its operations written by hand per document, not inferred the
// way the harness infers them), other operations from their examples. Its
// baseline makes the project's choices (docs/server.md); each break in
// fake-resource-breaks.ts departs from one rule of an operation other than
// create, or makes another allowed choice. Parameters and bodies are judged
// by the document's own schemas.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mediaTypeEssence } from '../../lib/http-syntax.js';
import { operationOf } from '../../conformance/checks/declared.js';
import { parameterTypes, valueOfText, textOf } from '../../conformance/cases/parameter-values.js';
import { Numeral, parseExact, toJson, type JsonValue } from '../../conformance/model/json.js';
import { loadSpecModel, type OperationModel, type SpecModel } from '../../conformance/model/spec-model.js';
import { fixturePath } from './fixtures.js';
import { answerOther, PAGED, ROLES, type Break, type Role } from './fake-resource-breaks.js';

export interface ResourceFake {
  url: string;
  model: SpecModel;
  close(): Promise<void>;
}

type Plant = Record<string, JsonValue>;
interface Store {
  plants: Map<string, Plant>;
  /** Deleted plants a cache still answers (the readAfterDelete break). */
  ghosts: Map<string, Plant>;
}

export async function startResourceFake(
  fixture: string,
  token: string,
  breaks: readonly Break[] = [],
): Promise<ResourceFake> {
  const model = loadSpecModel(fixturePath(`operations/${fixture}.yaml`));
  const broken = new Set(breaks);
  const store: Store = { plants: new Map(), ghosts: new Map() };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        handle(model, fixture, broken, store, token, req, Buffer.concat(chunks).toString('utf8'), res);
      } catch {
        send(res, 500, { error: 50001, message: 'Internal server error.' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    model,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

function send(res: ServerResponse, status: number, body?: JsonValue, headers: Record<string, string> = {}): void {
  if (body === undefined) {
    res.writeHead(status, headers);
    return void res.end();
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(toJson(body));
}

const refuse = (res: ServerResponse, status: number, message: string) =>
  send(res, status, { error: status * 100 + 1, message });
const successOf = (op: OperationModel) => Number([...op.responses.keys()].sort().find((s) => s.startsWith('2')) ?? 200);

function handle(
  model: SpecModel,
  fixture: string,
  broken: Set<Break>,
  store: Store,
  token: string,
  req: IncomingMessage,
  text: string,
  res: ServerResponse,
): void {
  const url = new URL(req.url ?? '/', 'http://fake');
  const op = operationOf(model, { method: req.method ?? 'GET', path: url.pathname });
  if (!op) {
    const allowed = model.operations.filter((o) =>
      operationOf({ ...model, operations: [o] }, { method: o.method, path: url.pathname }),
    );
    if (allowed.length > 0)
      return send(
        res,
        405,
        { error: 40501, message: 'Method not allowed.' },
        { allow: allowed.map((o) => o.method).join(', ') },
      );
    return refuse(res, 404, 'Not found.');
  }
  const role: Role = ROLES[fixture]?.[`${op.method} ${op.path}`] ?? 'example';
  if (
    (role === 'list' && broken.has('listMissing')) ||
    (role === 'delete' && broken.has('deleteMissing')) ||
    (role === 'example' && broken.has('exampleMissing'))
  )
    return refuse(res, 404, 'Not found.');
  const needsAuth = !op.open || (broken.has('openNeedsAuth') && op.method === 'GET');
  const anySchemeDeletes =
    role === 'delete' && broken.has('deleteAnyScheme') && req.headers.authorization !== undefined;
  if (
    needsAuth &&
    !(role === 'delete' && broken.has('deleteWithoutAuth')) &&
    !anySchemeDeletes &&
    req.headers.authorization !== `Bearer ${token}`
  ) {
    return send(
      res,
      broken.has('auth403') ? 403 : 401,
      { error: 40101, message: 'Bearer credentials required.' },
      { 'www-authenticate': 'Bearer realm="plants"' },
    );
  }
  // Parameters, each by its schema.
  const params: Record<string, string> = {};
  const segments = op.path.split('/');
  const actual = url.pathname.split('/');
  for (const p of op.parameters) {
    let value: string | null = null;
    if (p.in === 'path') value = decodeURIComponent(actual[segments.indexOf(`{${p.name}}`)] ?? '');
    else if (p.in === 'query') value = url.searchParams.get(p.name);
    if (value === null) {
      if (p.required) return refuse(res, 400, `${p.name} is required.`);
      continue;
    }
    if (p.name === 'offset' && broken.has('offsetRefused')) return refuse(res, 400, 'offset is not supported.');
    // parseInt reads the digits before a fraction or a letter: 1.5 is 1, abc is NaN.
    if (p.name === 'limit' && broken.has('limitParseInt')) value = String(parseInt(value, 10));
    // A machine integer of 32 bits keeps the low bits of what it reads: 2147483648 becomes -2147483648.
    if (p.name === 'limit' && broken.has('limitWraps') && /^-?\d+$/.test(value))
      value = BigInt.asIntN(32, BigInt(value)).toString();
    const types = parameterTypes(model, p);
    if ((p.validate?.(valueOfText(types, value)) ?? []).length > 0) {
      if (p.in === 'path' && broken.has('pathId500')) throw new Error('not an integer');
      if (p.in === 'query' && broken.has('limit500') && !/^-?\d+$/.test(value)) throw new Error('NaN');
      return refuse(res, broken.has('invalid422') ? 422 : 400, `${p.name} is not valid.`);
    }
    if (p.name === 'limit' && broken.has('limitNegative400') && Number(value) < 0)
      return refuse(res, 400, 'limit must not be negative.');
    if (p.name === 'limit' && broken.has('limitMin500') && Number(value) <= -(2 ** 31)) throw new Error('overflow');
    if (p.name === 'limit' && broken.has('limitMinDrops') && Number(value) <= -(2 ** 31))
      return void res.socket?.destroy();
    if (p.name === 'limit' && broken.has('limitMax400') && Number(value) >= 100)
      return refuse(res, 400, 'limit must be below 100.');
    params[p.name] = value;
  }
  // The body, in a declared media type, by its schema.
  let body: JsonValue | undefined;
  if (op.requestBodies.length > 0) {
    if (text === '') {
      if (op.requestBodyRequired) return refuse(res, 400, 'A body is required.');
    } else {
      const media = op.requestBodies.find((b) => b.contentType === mediaTypeEssence(req.headers['content-type']));
      if (!media) return refuse(res, 415, 'Unsupported media type.');
      const parsed = parseExact(text);
      if (!parsed.ok) return refuse(res, 400, 'The body is not JSON.');
      const problems = media.validate?.(parsed.value) ?? [];
      const onlyTag = problems.every((v) => v.instancePath === '/tag' || v.instancePath.startsWith('/tag/'));
      if (problems.length > 0 && !(broken.has('tagUnchecked') && onlyTag))
        return refuse(res, 400, 'The body is not valid.');
      body = parsed.value;
    }
  }
  const id = Object.entries(params).find(([name]) => op.parameters.find((p) => p.name === name)?.in === 'path')?.[1];
  return serve(PAGED.has(fixture), role, op, broken, store, params, id, body, res);
}

function serve(
  paged: boolean,
  role: Role,
  op: OperationModel,
  broken: Set<Break>,
  store: Store,
  params: Record<string, string>,
  id: string | undefined,
  body: JsonValue | undefined,
  res: ServerResponse,
): void {
  const { plants } = store;
  const status = successOf(op);
  const plant = body as Plant;
  const unknownId = () => refuse(res, broken.has('unknownId400') ? 400 : 404, 'No such plant.');
  switch (role) {
    case 'create': {
      const key = broken.has('storeByDouble') ? BigInt(Number(textOf(plant.id!))).toString() : textOf(plant.id!);
      if (plants.has(key)) return refuse(res, 400, 'The id is already stored.');
      plants.set(key, plant);
      return send(res, status, plant);
    }
    case 'list': {
      if (broken.has('listStub404')) return refuse(res, 404, 'Not found.');
      let items = [...plants.values(), ...(broken.has('listAfterDelete') ? store.ghosts.values() : [])];
      if (broken.has('listWithoutNewest')) items = items.slice(0, -1);
      if (params.tag !== undefined && !broken.has('filterIgnored')) items = items.filter((p) => p.tag === params.tag);
      const start = Number(params.cursor ?? params.offset ?? 0);
      const limit = broken.has('limitIgnored')
        ? items.length
        : Math.min(Number(params.limit ?? 20), 100) + (broken.has('limitOffByOne') ? 1 : 0);
      const page = items.slice(start, start + Math.max(limit, 0));
      const out = page.map((p) => (broken.has('readDropsTag') || broken.has('listDropsTag') ? withoutTag(p) : p));
      if (paged)
        return send(res, status, {
          items: out,
          next: start + page.length < items.length ? String(start + page.length) : null,
        });
      return send(res, status, out);
    }
    case 'read': {
      const key = broken.has('readIdAsDouble') || broken.has('storeByDouble') ? BigInt(Number(id)).toString() : id!;
      const found = plants.get(key) ?? (broken.has('readAfterDelete') ? store.ghosts.get(key) : undefined);
      if (!found || broken.has('read404') || (broken.has('readNegative404') && key.startsWith('-'))) return unknownId();
      if (broken.has('read403')) return refuse(res, 403, 'This token may not read plants.');
      return send(res, status, broken.has('readDropsTag') ? withoutTag(found) : found);
    }
    case 'replace': {
      if (plant.id !== undefined && textOf(plant.id) !== id) return refuse(res, 400, "The id differs from the path's.");
      if (!plants.has(id!) && !broken.has('putCreates')) return unknownId();
      const stored: Plant = { id: new Numeral(id!), ...(broken.has('putMerges') ? plants.get(id!) : {}), ...plant };
      if (!broken.has('putIgnored')) plants.set(id!, stored);
      return send(res, status, stored);
    }
    case 'merge': {
      const found = plants.get(id!);
      if (!found) return unknownId();
      const merged: Plant = broken.has('patchReplaces') ? { id: found.id! } : { ...found };
      for (const [k, v] of Object.entries(plant))
        if (v === null) delete merged[k];
        else merged[k] = v;
      plants.set(id!, merged);
      return send(res, status, merged);
    }
    case 'delete': {
      if (broken.has('deleteNegative404') && id!.startsWith('-')) return unknownId();
      if (broken.has('storeByDouble')) {
        const key = BigInt(Number(id)).toString();
        return plants.delete(key) ? send(res, status) : unknownId();
      }
      const found = plants.get(id!);
      if (!found && broken.has('secondDelete500') && store.ghosts.has(id!)) throw new Error('already deleted');
      if (!found) return broken.has('secondDelete204') ? send(res, status) : unknownId();
      if (!broken.has('deleteKeeps')) {
        plants.delete(id!);
        store.ghosts.set(id!, found);
      }
      return broken.has('delete200') ? send(res, 200, found) : send(res, status);
    }
    default:
      return answerOther(op, body, (s, b) => send(res, s, b));
  }
}

const withoutTag = (p: Plant): Plant => Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'tag'));
