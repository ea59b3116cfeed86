// A small, configurable Plant Store server for the harness's own tests. It
// does not import server/: its baseline follows the behaviour table of
// docs/server.md, and each switch breaks exactly one rule, so that a test
// can show that the check for that rule grades `fail` (or `non-strict`).
// The small rules it shares (b64token, media types, the int64 range) come
// from lib/ and spec/; a switch that breaks one does so in the open.
// The switches are in fake-mutations.ts, the create operation in
// fake-create.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mediaTypeEssence } from '../../lib/http-syntax.js';
import { checkAuth, send } from './fake-answers.js';
import { createPlant, readId, type State } from './fake-create.js';
import type { FakeOptions } from './fake-mutations.js';
import { parseJson } from './exact-json.js';
import { keepIdleConnectionsOpen } from './keep-alive.js';

export interface FakeServer {
  url: string;
  /** Requests received so far. */
  requests(): number;
  close(): Promise<void>;
}

export async function startFake(opts: FakeOptions = {}): Promise<FakeServer> {
  const state: State = { store: new Set<string>(), names: new Set<string>() };
  for (const id of opts.preStored ?? []) {
    const read = readId({ ...opts, positiveIdsOnly: false, zeroIdMissing: false }, String(id));
    if ('id' in read) state.store.add(read.id);
  }
  let received = 0;
  const server: Server = keepIdleConnectionsOpen(
    createServer((req, res) => {
      received++;
      handle(opts, state, req, res).catch(() =>
        send(res, 500, opts, { error: 50001, message: 'Internal server error.' }),
      );
    }),
  );
  await new Promise<void>((resolve, reject) =>
    server.once('error', reject).listen(opts.port ?? 0, '127.0.0.1', resolve),
  );
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: IncomingMessage, decodeEachChunk = false): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > 1024 * 1024) throw new Error('too large');
    chunks.push(c);
  }
  return decodeEachChunk ? Buffer.from(chunks.map((c) => c.toString('utf8')).join(''), 'utf8') : Buffer.concat(chunks);
}

/** A request field looked up by its name exactly as written, as a server that forgets RFC 9110 §5.1 would. */
function fieldAsWritten(req: IncomingMessage, name: string): string | undefined {
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) if (req.rawHeaders[i] === name) return req.rawHeaders[i + 1];
  return undefined;
}

async function handle(o: FakeOptions, state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { store } = state;
  // Blocked (darkAfterDeepNesting): nothing is answered; close() ends the connections.
  if (state.dark) return void req.resume();
  if (o.gatewayHeader && req.headers[o.gatewayHeader.name.toLowerCase()] !== o.gatewayHeader.value) {
    req.resume();
    res.writeHead(403, { 'content-type': 'application/json' });
    return void res.end('{"message":"Forbidden"}');
  }
  if (o.longTokenDrop && (req.headers.authorization?.length ?? 0) > 4096) return void res.socket?.destroy();
  let path = (req.url ?? '/').split('?')[0]!;
  if (o.prefix) path = path.startsWith(`${o.prefix}/`) ? path.slice(o.prefix.length) : '/__outside_prefix__';
  if (o.extraOperations && /^\/plants\/[^/]+$/.test(path) && req.method === 'DELETE') {
    if (!checkAuth(o, req, res)) return;
    const id = path.slice('/plants/'.length);
    if (!store.delete(id)) return send(res, 404, o, { error: 40401, message: 'Not found.' });
    res.writeHead(204);
    return void res.end();
  }
  if (o.readsForbidden && /^\/plants\/[^/]+$/.test(path) && req.method === 'GET') {
    if (!checkAuth(o, req, res)) return;
    return send(res, 403, o, { error: 40301, message: 'This token may not read plants.' });
  }
  // The item path known (GET /plants/{id} served elsewhere): another method there answered 405 with Allow.
  if (o.itemPath405 && /^\/plants\/[^/]+$/.test(path) && req.method !== 'GET')
    return send(res, 405, o, { error: 40501, message: 'Method not allowed.' }, { allow: 'GET' });
  if (o.subpath500 && path.startsWith('/plants/'))
    return send(res, 500, o, { error: 50001, message: 'Internal server error.' });
  if (path !== '/plants') {
    if (o.unknownPath200) return send(res, 200, o, { name: 'anything' });
    return send(res, 404, o, { error: 40401, message: 'Not found.' });
  }
  if (req.method !== 'POST') {
    if (o.hangGet && req.method === 'GET') return; // closed by close() through closeAllConnections
    if (o.extraOperations && req.method === 'GET') {
      if (!checkAuth(o, req, res)) return;
      return send(
        res,
        200,
        o,
        [...store].map((id) => ({ id })),
      );
    }
    if (o.otherMethods500) return send(res, 500, o, { error: 50001, message: 'Internal server error.' });
    if (o.no405) return send(res, 404, o, { error: 40401, message: 'Not found.' });
    const allow: Record<string, string> =
      o.no405Allow || (o.allowOnGetOnly && req.method !== 'GET')
        ? {}
        : { allow: o.allowWithoutPost ? 'OPTIONS' : o.extraOperations ? 'GET, POST' : 'POST' };
    return send(res, 405, o, { error: 40501, message: 'Method not allowed.' }, allow);
  }
  const invalidStatus = o.status422 ? 422 : 400;
  const invalid = (error: number, message: string) => send(res, invalidStatus, o, { error, message });
  if (o.bodyBeforeAuth) {
    const raw = await readBody(req);
    try {
      parseJson(raw.toString('utf8'), false);
    } catch {
      if (o.parseError401) return send(res, 401, o, { error: 40101, message: 'Request body is not JSON.' });
      return invalid(40001, 'Request body is not JSON.');
    }
    if (!checkAuth(o, req, res)) return;
    return createPlant(o, state, res, raw, invalid);
  }
  if (!checkAuth(o, req, res)) return;
  if (o.noTypeWildcardAccept && /application\/\*/.test(req.headers.accept ?? ''))
    return send(res, 406, o, { error: 40601, message: 'Not acceptable.' });
  if (o.strictAccept && req.headers.accept !== undefined && req.headers.accept !== 'application/json') {
    return send(res, 406, o, { error: 40601, message: 'Only application/json is produced.' });
  }
  const contentType = o.exactContentTypeName ? fieldAsWritten(req, 'content-type') : req.headers['content-type'];
  // The mutant hands the charset to a decoder that does not know it, and lets the error escape.
  const charset = /;\s*charset=([^;]*)/i.exec(contentType ?? '')?.[1];
  if (o.charsetCrash && charset !== undefined && charset.toLowerCase() !== 'utf-8')
    new TextDecoder(charset.replace(/"/g, '') === 'iso-8859-1' ? 'x-unknown' : charset);
  const media = o.exactMediaType
    ? contentType === 'application/json'
      ? contentType
      : undefined
    : mediaTypeEssence(contentType);
  if (
    o.lengthRequired &&
    req.headers['content-length'] === undefined &&
    req.headers['transfer-encoding'] !== undefined
  ) {
    return send(res, 411, o, { error: 41101, message: 'Content-Length required.' });
  }
  // contentLengthOnly: the server reads Content-Length bytes, none when the field is absent.
  const raw =
    o.contentLengthOnly && req.headers['content-length'] === undefined
      ? (req.resume(), Buffer.alloc(0))
      : await readBody(req, o.decodeEachChunk);
  const charsetRefused = o.charsetCaseSensitive && charset !== undefined && charset.replace(/"/g, '') !== 'utf-8';
  if (!o.ignoreContentType && raw.length > 0 && (media !== 'application/json' || charsetRefused)) {
    return send(res, o.unsupportedMediaType400 ? 400 : 415, o, {
      error: 41501,
      message: 'Content-Type must be application/json.',
    });
  }
  return createPlant(o, state, res, raw, invalid);
}
