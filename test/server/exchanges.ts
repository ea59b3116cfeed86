// Exchanges a client makes, as data: a request, and the answer the document
// (or, where it is silent, an RFC and our decision) says it gets. Each
// answer is also held to the document: a status the operation declares has
// the declared media type and a body its schema accepts; a status it does
// not declare (401, 404 for an id not stored, 405, 400 and 412: judgeByDocument) is the Error record.
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { operationsOf, readOpenApi, resolveReference, type OpenApiDocument } from '../../spec/openapi.js';
import { childPointer } from '../../spec/schema-keywords.js';
import { schemaValidators, type SchemaValidators } from '../../spec/validator.js';
import { parseJson } from '../../server/json/json.js';
import { VALIDATOR_OPTIONS } from '../../server/http/request-body.js';
import { AUTH } from './support.js';

export interface Exchange {
  /** What the client does, in words. */
  label: string;
  method: string;
  url: string;
  /** Credentials are sent unless false. */
  credentials?: boolean;
  contentType?: string;
  body?: string;
  status: number;
  /** The answer's body as JSON; undefined: not compared (the document's checks still apply). */
  json?: unknown;
  /** The Error record's number, for an error answer. */
  error?: number;
  /** The answer has no body. */
  empty?: true;
  /** Headers the answer carries (names in lower case). */
  headers?: Record<string, string | RegExp>;
}

/** Judges answers against the document at `specPath`. */
export function documentJudge(specPath: string) {
  const { document } = readOpenApi(specPath);
  const validators = schemaValidators(document, VALIDATOR_OPTIONS);
  return (exchange: Exchange, response: LightMyRequestResponse) =>
    judgeByDocument(document, validators, exchange, response);
}

function judgeByDocument(
  doc: OpenApiDocument,
  validators: SchemaValidators,
  exchange: Exchange,
  response: LightMyRequestResponse,
): void {
  const path = new URL(exchange.url, 'http://x').pathname;
  const operation = operationsOf(doc).find(
    (op) => op.method === exchange.method && new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  );
  const declared = operation?.operation.responses?.[String(response.statusCode)];
  if (operation === undefined || declared === undefined) {
    // What the server answers where the document declares nothing: 401 (RFC 9110 §15.5.2), 404 and 405; 400 for a
    // parameter its schema refuses; 412 for a precondition a request carries (RFC 9110 §13.2.1: evaluated whatever is declared).
    assert.ok(
      [400, 401, 404, 405, 412].includes(response.statusCode),
      `${exchange.label}: ${response.statusCode} is neither declared nor one of the RFC's statuses the server answers undeclared`,
    );
    assert.match(
      String(response.headers['content-type']),
      /^application\/json/,
      `${exchange.label}: the Error record is JSON`,
    );
    assert.deepEqual(
      Object.keys(response.json<object>()).sort(),
      ['error', 'message'],
      `${exchange.label}: the Error record`,
    );
    return;
  }
  const pointer = childPointer(operation.pointer, 'responses', String(response.statusCode));
  const { value: answer, pointer: answerPointer } = resolveReference(doc, declared, pointer);
  const content = Object.entries(answer.content ?? {});
  if (content.length === 0) {
    assert.equal(response.body, '', `${exchange.label}: the declared ${response.statusCode} has no content`);
    return;
  }
  const [mediaType, media] = content[0]!;
  assert.equal(
    String(response.headers['content-type']).split(';')[0],
    mediaType,
    `${exchange.label}: the declared media type`,
  );
  if (media.schema === undefined) return;
  const violations = validators.compile(
    media.schema,
    childPointer(answerPointer, 'content', mediaType, 'schema'),
  )(parseJson(response.body));
  assert.deepEqual(
    violations,
    [],
    `${exchange.label}: the body the document declares for ${response.statusCode}: ${response.body}`,
  );
}

/** Sends each exchange in order and checks its answer; answers how many were made. */
export async function runExchanges(
  app: FastifyInstance,
  exchanges: readonly Exchange[],
  judge: ReturnType<typeof documentJudge>,
): Promise<number> {
  for (const exchange of exchanges) {
    const headers: Record<string, string> = exchange.credentials === false ? {} : { ...AUTH };
    if (exchange.contentType !== undefined) headers['content-type'] = exchange.contentType;
    const response = await app.inject({
      method: exchange.method as 'GET',
      url: exchange.url,
      headers,
      ...(exchange.body === undefined ? {} : { payload: exchange.body }),
    });
    assert.equal(
      response.statusCode,
      exchange.status,
      `${exchange.label}: ${exchange.method} ${exchange.url} answered ${response.statusCode} ${response.body}`,
    );
    if (exchange.json !== undefined) assert.deepEqual(response.json(), exchange.json, `${exchange.label}: the body`);
    if (exchange.error !== undefined)
      assert.equal(
        response.json<{ error: number }>().error,
        exchange.error,
        `${exchange.label}: the Error record's number`,
      );
    if (exchange.empty) assert.equal(response.body, '', `${exchange.label}: no body`);
    for (const [name, value] of Object.entries(exchange.headers ?? {})) {
      if (typeof value === 'string') assert.equal(response.headers[name], value, `${exchange.label}: ${name}`);
      else assert.match(String(response.headers[name]), value, `${exchange.label}: ${name}`);
    }
    judge(exchange, response);
  }
  return exchanges.length;
}

/** The same exchange without credentials: 401 with the Bearer challenge, where the operation requires credentials. */
export function withoutCredentials(exchange: Exchange): Exchange {
  return {
    label: `${exchange.label}, without credentials`,
    method: exchange.method,
    url: exchange.url,
    credentials: false,
    ...(exchange.contentType === undefined ? {} : { contentType: exchange.contentType }),
    ...(exchange.body === undefined ? {} : { body: exchange.body }),
    status: 401,
    error: 40101,
    headers: { 'www-authenticate': 'Bearer realm="plantstore"' },
  };
}
