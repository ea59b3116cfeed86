// A fake server for the documents of test/fixtures/documents/ whose
// feature is a security scheme or an error media type
// (fake-secured-breaks.ts SECURED_FIXTURES). It serves the plant resource of
// each (create, list, read, delete: the roles written by hand, as every one
// of these documents has them at POST /plants, GET /plants,
// GET /plants/{id}, DELETE /plants/{id}), checks each operation's security
// requirement as the document declares it (alternatives, combinations,
// `security: []`; a bearer token, HTTP Basic, an API key in a header, the
// query or a cookie), and answers every refusal in the media type and shape
// the document declares for it (the Error record, problem details with the
// response's status, vnd.error). Parameters and bodies are judged by the
// document's own schemas. Each break departs from one rule.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mediaTypeEssence } from '../../lib/http-syntax.js';
import { operationOf } from '../../conformance/checks/declared.js';
import { parameterTypes, textOf, valueOfText } from '../../conformance/cases/parameter-values.js';
import { parseExact, toJson, type JsonValue } from '../../conformance/model/json.js';
import { declaredResponse, type OperationModel } from '../../conformance/model/operation-model.js';
import { credentialKind, type SecuritySchemeModel } from '../../conformance/model/security.js';
import { loadSpecModel, type SpecModel } from '../../conformance/model/spec-model.js';
import { cookiePairs } from '../../conformance/checks/credentials.js';
import { fixturePath } from './fixtures.js';
import { FAKE_CREDENTIALS, FAKE_TOKEN, type SecuredBreak, type SecuredFixture } from './fake-secured-breaks.js';

export interface SecuredFake {
  url: string;
  model: SpecModel;
  close(): Promise<void>;
}

type Plant = Record<string, JsonValue>;

interface Fake {
  model: SpecModel;
  broken: Set<SecuredBreak>;
  plants: Map<string, Plant>;
  /** Refusals answered so far: each problem's `instance` is its own (problemInstance). */
  refusals: number;
}

/** The fake for a fixture's document, or for `documentPath`: a variant of that document a test wrote (its feature the fixture's). */
export async function startSecuredFake(
  fixture: SecuredFixture,
  breaks: readonly SecuredBreak[] = [],
  documentPath: string = fixturePath(`documents/${fixture}.yaml`),
): Promise<SecuredFake> {
  const model = loadSpecModel(documentPath);
  const fake: Fake = { model, broken: new Set(breaks), plants: new Map(), refusals: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let text: string;
      try {
        // RFC 8259 §8.1: JSON text is UTF-8; bytes that are not are refused as a body that is not JSON.
        text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
      } catch {
        text = '\u0000';
      }
      try {
        handle(fake, req, text, res);
      } catch {
        refuse(fake, res, undefined, 500, 'Internal server error.');
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

/** The media type a refusal of `op` with `status` is declared in: its own, its range's or `default`'s; else the document's error record's. */
function refusalMedia(fake: Fake, op: OperationModel | undefined, status: number): string {
  const declared = op ? declaredResponse(op, status) : undefined;
  return declared?.contentTypes[0] ?? fake.model.error?.contentTypes[0] ?? 'application/json';
}

/** A refusal in the media type and shape the document declares for it (problem details carry the response's status). */
function refuse(
  fake: Fake,
  res: ServerResponse,
  op: OperationModel | undefined,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const b = fake.broken;
  fake.refusals++;
  let media = refusalMedia(fake, op, status);
  if (b.has('refusalsPlainJson') || (b.has('notFoundPlainJson') && status === 404)) media = 'application/json';
  const undeclared = b.has('undeclaredAsProblem') && !(op && declaredResponse(op, status));
  if (undeclared) media = 'application/problem+json';
  let body: JsonValue;
  if (undeclared) body = { type: 'about:blank', title: message, status: String(status) };
  else if (media === 'application/problem+json')
    body = {
      type: 'about:blank',
      title: message,
      status: b.has('problemStatus400') ? 400 : status,
      detail: message,
      ...(b.has('problemInstance') ? { instance: `/refusals/${fake.refusals}` } : {}),
    };
  else if (media === 'application/vnd.error+json') body = { message, logref: `plants-${status}` };
  else body = { error: status * 100 + 1, message };
  res.writeHead(status, { 'content-type': media, ...headers });
  res.end(toJson(body));
}

/** The credential a request carries for a scheme, as the fake reads it; undefined when it carries none. */
function presented(req: IncomingMessage, url: URL, s: SecuritySchemeModel, b: Set<SecuredBreak>): string | undefined {
  const kind = credentialKind(s);
  const authorization = req.headers.authorization ?? '';
  if (kind === 'bearer' || kind === 'basic') {
    const word = kind === 'bearer' ? 'Bearer' : 'Basic';
    // RFC 9110 §11.1: the auth-scheme is case-insensitive (unless the break compares it as written); 1*SP before it.
    const m = new RegExp(`^(${word}) +(\\S+)$`, b.has('schemeCaseSensitive') ? '' : 'i').exec(authorization);
    if (!m) return undefined;
    return kind === 'bearer' ? m[2] : Buffer.from(m[2]!, 'base64').toString('utf8');
  }
  if (s.in === 'header') return req.headers[s.key!.toLowerCase()] as string | undefined;
  if (s.in === 'query') return url.searchParams.get(s.key!) ?? undefined;
  return cookiePairs(req.headers.cookie ?? '').find(([n]) => n === s.key)?.[1];
}

/** What the fake makes of a request's credentials for `op`: served, or refused (401, or a break's 400 or 403). */
function authorize(
  fake: Fake,
  op: OperationModel,
  req: IncomingMessage,
  url: URL,
): 'ok' | 'malformed' | 'wrong' | 'missing' | 'forbidden' {
  const b = fake.broken;
  if (op.open && !b.has('publicNeedsCredentials')) return 'ok';
  const create = op.method === 'POST' && op.path === '/plants';
  if (op.method === 'DELETE' && b.has('deleteIgnoresCredentials')) return 'ok';
  if (create && b.has('createWithoutCredentials')) return 'ok';
  const keyAsBearer = op.security.flat().find((s) => credentialKind(s) === 'apiKey');
  if (
    b.has('keyAsBearer') &&
    keyAsBearer &&
    req.headers.authorization === `Bearer ${FAKE_CREDENTIALS[keyAsBearer.name]}`
  )
    return 'ok';
  const expected = (s: SecuritySchemeModel) => (credentialKind(s) === 'bearer' ? FAKE_TOKEN : FAKE_CREDENTIALS[s.name]);
  const right = (s: SecuritySchemeModel): boolean => {
    const value = presented(req, url, s, b);
    if (value === undefined) return false;
    if (credentialKind(s) === 'apiKey' && b.has('anyKeyValue')) return value !== '';
    if (credentialKind(s) === 'basic' && b.has('basicUserOnly'))
      return value.split(':')[0] === expected(s)?.split(':')[0];
    return value === expected(s);
  };
  const alternatives = op.security.filter((a) => a.length > 0);
  const later = b.has('laterAlternativesRefused') || b.has('laterAlternatives403');
  const accepted = later ? alternatives.slice(0, 1) : alternatives;
  if (accepted.some((a) => (b.has('combinationFirstOnly') ? right(a[0]!) : a.every(right)))) return 'ok';
  if (b.has('laterAlternatives403') && alternatives.some((a) => a.every(right))) return 'forbidden';
  const auth = req.headers.authorization;
  const anything = op.security.flat().some((s) => presented(req, url, s, b) !== undefined);
  if (/^(bearer|basic) *$/i.test(auth ?? 'x') || /^basic +[^A-Za-z0-9+/=]/i.test(auth ?? '')) return 'malformed';
  if (op.security.flat().some((s) => credentialKind(s) === 'apiKey' && presented(req, url, s, b) === ''))
    return 'malformed';
  return anything || auth !== undefined ? 'wrong' : 'missing';
}

/** The challenges of a refusal of `op`'s credentials: one per RFC scheme it uses, ApiKey for a key. */
function challenges(fake: Fake, op: OperationModel, why: string): string {
  const b = fake.broken;
  const out = new Set<string>();
  for (const s of op.security.flat()) {
    const kind = credentialKind(s);
    if (kind === 'bearer') out.add(`Bearer realm="plants"${why === 'wrong' ? ', error="invalid_token"' : ''}`);
    else if (kind === 'basic')
      out.add(
        b.has('bearerChallengeForBasic')
          ? 'Bearer realm="plants"'
          : b.has('basicWithoutRealm')
            ? 'Basic charset="UTF-8"'
            : 'Basic realm="plants"',
      );
    else if (kind === 'apiKey') out.add(`ApiKey realm="plants", in="${s.in}", name="${s.key}"`);
  }
  return [...out].join(', ');
}

function handle(fake: Fake, req: IncomingMessage, text: string, res: ServerResponse): void {
  const { model } = fake;
  const b = fake.broken;
  const url = new URL(req.url ?? '/', 'http://fake');
  const op = operationOf(model, { method: req.method ?? 'GET', path: url.pathname });
  if (!op) {
    const allowed = model.operations.filter((o) =>
      operationOf({ ...model, operations: [o] }, { method: o.method, path: url.pathname }),
    );
    if (allowed.length > 0)
      return refuse(fake, res, undefined, 405, 'Method not allowed.', {
        allow: allowed.map((o) => o.method).join(', '),
      });
    return refuse(fake, res, undefined, 404, 'Not found.');
  }
  const why = authorize(fake, op, req, url);
  if (why !== 'ok') {
    if (why === 'forbidden') return refuse(fake, res, op, 403, 'These credentials may not do this.');
    const status =
      why === 'malformed' && b.has('malformed400') ? 400 : why === 'wrong' && b.has('refuse403') ? 403 : 401;

    const header: Record<string, string> = b.has('noChallenge')
      ? {}
      : { 'www-authenticate': challenges(fake, op, why) };
    return refuse(fake, res, op, status, 'Valid credentials are required.', header);
  }
  // Parameters, each by its schema.
  let id: string | undefined;
  const segments = op.path.split('/');
  const actual = url.pathname.split('/');
  for (const p of op.parameters) {
    const value =
      p.in === 'path'
        ? decodeURIComponent(actual[segments.indexOf(`{${p.name}}`)] ?? '')
        : url.searchParams.get(p.name);
    if (value === null) {
      if (p.required) return refuse(fake, res, op, 400, `${p.name} is required.`);
      continue;
    }
    if ((p.validate?.(valueOfText(parameterTypes(model, p), value)) ?? []).length > 0)
      return refuse(fake, res, op, 400, `${p.name} is not valid.`);
    if (p.in === 'path') id = value;
    if (p.name === 'limit') url.searchParams.set('limit', value);
  }
  // The body, in a declared media type, by its schema.
  let body: JsonValue | undefined;
  if (op.requestBodies.length > 0) {
    if (text === '') {
      if (op.requestBodyRequired) return refuse(fake, res, op, 400, 'A body is required.');
    } else {
      const media = op.requestBodies.find((m) => m.contentType === mediaTypeEssence(req.headers['content-type']));
      if (!media) return refuse(fake, res, op, 415, 'Unsupported media type.');
      const parsed = parseExact(text);
      if (!parsed.ok) return refuse(fake, res, op, 400, 'The body is not JSON.');
      if ((media.validate?.(parsed.value) ?? []).length > 0)
        return refuse(fake, res, op, 400, 'The body is not valid.');
      body = parsed.value;
    }
  }
  const role = `${op.method} ${op.path}`;
  const { plants } = fake;
  if (role === 'POST /plants') {
    const plant = body as Plant;
    const key = textOf(plant.id!);
    if (plants.has(key)) return refuse(fake, res, op, 400, `A plant with id ${key} is already stored.`);
    plants.set(key, plant);
    return send(res, 200, plant);
  }
  if (role === 'GET /plants') {
    const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), 100);
    return send(res, 200, [...plants.values()].slice(0, Math.max(limit, 0)));
  }
  const found = id === undefined ? undefined : plants.get(id);
  if (!found) return refuse(fake, res, op, 404, `No plant has id ${id}.`);
  if (role === 'GET /plants/{id}') return send(res, 200, found);
  plants.delete(id!);
  return send(res, 204);
}
