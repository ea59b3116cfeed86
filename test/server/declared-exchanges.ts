// Exchanges a client makes with credentials of any scheme, as data, each
// answer held to the document: a status the operation declares (itself, its
// range `4XX`, or `default`: OpenAPI 3.1 §4.8.16.2) has the declared media
// type and a body its schema accepts; a status it does not declare is the
// Error record, application/json; every 401 carries a challenge (RFC 9110
// §15.5.2). The error's number is read where the document's shape puts it.
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { operationsOf, readOpenApi, resolveReference, type ResponseObject } from '../../spec/openapi.js';
import { childPointer } from '../../spec/schema-keywords.js';
import { schemaValidators } from '../../spec/validator.js';
import { parseJson } from '../../server/json/json.js';
import { VALIDATOR_OPTIONS } from '../../server/http/request-body.js';

export interface KeyedExchange {
  label: string;
  method: string;
  url: string;
  /** The request's headers: its credentials among them. */
  headers?: Record<string, string>;
  /** A JSON body, sent as application/json. */
  body?: string;
  status: number;
  json?: unknown;
  /** The error's number, read where the document's error shape puts it. */
  error?: number;
  /** WWW-Authenticate, for a 401. */
  challenge?: string | RegExp;
  empty?: true;
}

/** Where a document's error shape puts the error's number (undefined: it has none, as problem details). */
export type ErrorNumberOf = (body: unknown) => number | undefined;

/** The Error record's `error`. */
export const recordNumber: ErrorNumberOf = (body) => (body as { error: number }).error;

/** Runs each exchange against `app` in order and judges its answer by the document at `specPath`. */
export async function runKeyedExchanges(
  app: FastifyInstance,
  specPath: string,
  exchanges: readonly KeyedExchange[],
  errorNumberOf: ErrorNumberOf,
): Promise<number> {
  const judge = documentJudge(specPath);
  for (const exchange of exchanges) {
    const headers: Record<string, string> = { ...exchange.headers };
    if (exchange.body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await app.inject({
      method: exchange.method as 'GET',
      url: exchange.url,
      headers,
      ...(exchange.body === undefined ? {} : { payload: exchange.body }),
    });
    const what = `${exchange.label}: ${exchange.method} ${exchange.url}`;
    assert.equal(response.statusCode, exchange.status, `${what} answered ${response.statusCode} ${response.body}`);
    if (exchange.json !== undefined) assert.deepEqual(response.json(), exchange.json, `${what}: the body`);
    if (exchange.empty) assert.equal(response.body, '', `${what}: no body`);
    const declared = judge(exchange, response);
    if (exchange.error !== undefined) {
      const number = declared ? errorNumberOf(response.json()) : recordNumber(response.json());
      assert.equal(number, exchange.error, `${what}: the error's number, in ${response.body}`);
    }
    if (response.statusCode === 401) {
      const challenge = response.headers['www-authenticate'];
      assert.ok(typeof challenge === 'string' && challenge !== '', `${what}: a 401 carries a challenge`);
      if (typeof exchange.challenge === 'string') assert.equal(challenge, exchange.challenge, `${what}: the challenge`);
      else if (exchange.challenge) assert.match(challenge, exchange.challenge, `${what}: the challenge`);
    }
  }
  return exchanges.length;
}

/** A judge of answers by the document: true when the status is declared (and the answer was held to the declaration). */
function documentJudge(specPath: string) {
  const { document } = readOpenApi(specPath);
  const validators = schemaValidators(document, VALIDATOR_OPTIONS);
  const operations = operationsOf(document);
  return (exchange: KeyedExchange, response: LightMyRequestResponse): boolean => {
    const what = `${exchange.label}: ${exchange.method} ${exchange.url}`;
    const path = new URL(exchange.url, 'http://x').pathname;
    const operation = operations.find(
      (op) => op.method === exchange.method && new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
    );
    const status = response.statusCode;
    const responses = operation?.operation.responses ?? {};
    const key = [String(status), `${Math.floor(status / 100)}XX`, 'default'].find((k) => k in responses);
    if (operation === undefined || key === undefined || (status < 400 && key !== String(status))) {
      assert.match(String(response.headers['content-type']), /^application\/json/, `${what}: the Error record is JSON`);
      assert.deepEqual(Object.keys(response.json<object>()).sort(), ['error', 'message'], `${what}: the Error record`);
      return false;
    }
    const pointer = childPointer(operation.pointer, 'responses', key);
    const { value: answer, pointer: at } = resolveReference(document, responses[key] as ResponseObject, pointer);
    const content = Object.entries(answer.content ?? {});
    if (content.length === 0) {
      assert.equal(response.body, '', `${what}: the declared ${key} has no content`);
      return true;
    }
    const [mediaType, media] = content[0]!;
    assert.equal(String(response.headers['content-type']).split(';')[0], mediaType, `${what}: the declared media type`);
    if (media.schema !== undefined) {
      const validate = validators.compile(media.schema, childPointer(at, 'content', mediaType, 'schema'));
      assert.deepEqual(validate(parseJson(response.body)), [], `${what}: the body ${key} declares: ${response.body}`);
    }
    // RFC 9457 §3.1.3: a problem's status is the one the origin server generated for this occurrence.
    if (mediaType === 'application/problem+json')
      assert.equal(response.json<{ status?: number }>().status, status, `${what}: the problem's status`);
    return true;
  };
}
