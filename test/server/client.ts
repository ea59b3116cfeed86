// A client team's exchanges with the server, one request at a time, each
// answer judged against the document (exchanges.ts: the declared status's
// media type and schema, the Error record for an undeclared one) and against
// the headers the document requires of it (`required: true`, references
// followed): what a generated client would read. Unlike exchanges.ts's
// fixed lists, a step can use what an earlier answer gave (a Location, an
// ETag, a cursor).
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { fileURLToPath } from 'node:url';
import { operationsOf, readOpenApi, resolveReference, type OpenApiDocument } from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import { documentJudge } from './exchanges.js';
import { AUTH } from './support.js';

/** A document of test/fixtures/documents/ (the documents a team would write next). */
export const documentFixture = (name: string) =>
  fileURLToPath(new URL(`../../../test/fixtures/documents/${name}`, import.meta.url));

export interface Expected {
  status: number;
  json?: unknown;
  /** The Error record's number, for an error answer. */
  error?: number;
  headers?: Record<string, string | RegExp | undefined>;
  empty?: true;
}

export interface Request {
  body?: unknown;
  headers?: Record<string, string>;
  /** Credentials are sent unless false. */
  credentials?: boolean;
}

export class Client {
  private readonly judge: ReturnType<typeof documentJudge>;
  private readonly doc: OpenApiDocument;

  constructor(
    private readonly app: FastifyInstance,
    specPath: string,
  ) {
    this.judge = documentJudge(specPath);
    this.doc = readOpenApi(specPath).document;
  }

  /** Sends a request (a body as its JSON text, a string as it is) and checks its answer against `expected` and the document. */
  async send(
    label: string,
    method: string,
    url: string,
    expected: Expected,
    request: Request = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = request.credentials === false ? {} : { ...AUTH };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, request.headers);
    const payload =
      request.body === undefined
        ? undefined
        : typeof request.body === 'string'
          ? request.body
          : JSON.stringify(request.body);
    const response = await this.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
    const said = `${label}: ${method} ${url} answered ${response.statusCode} ${response.body}`;
    assert.equal(response.statusCode, expected.status, said);
    if (expected.json !== undefined) assert.deepEqual(response.json(), expected.json, `${label}: the body`);
    if (expected.error !== undefined)
      assert.equal(response.json<{ error: number }>().error, expected.error, `${label}: the Error record's number`);
    if (expected.empty) assert.equal(response.body, '', `${label}: no body`);
    for (const [name, value] of Object.entries(expected.headers ?? {})) {
      if (value === undefined) assert.equal(response.headers[name], undefined, `${label}: no ${name}`);
      else if (typeof value === 'string') assert.equal(response.headers[name], value, `${label}: ${name}`);
      else assert.match(String(response.headers[name]), value, `${label}: ${name}`);
    }
    if (response.statusCode !== 304) this.judge({ label, method, url, status: expected.status }, response);
    this.requiredHeaders(label, method, url, response);
    return response;
  }

  /** The headers the operation's answer declares `required: true` are there. */
  private requiredHeaders(label: string, method: string, url: string, response: LightMyRequestResponse): void {
    const path = new URL(url, 'http://x').pathname;
    const operation = operationsOf(this.doc).find(
      (op) => op.method === method && new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
    );
    const declared = operation?.operation.responses?.[String(response.statusCode)];
    if (operation === undefined || declared === undefined) return;
    const { value: answer } = resolveReference(
      this.doc,
      declared,
      childPointer(operation.pointer, 'responses', String(response.statusCode)),
    );
    for (const [name, raw] of Object.entries(answer.headers ?? {})) {
      const { value: header } = resolveReference(this.doc, raw, '#');
      if (isSchemaObject(header) && header.required === true)
        assert.ok(
          response.headers[name.toLowerCase()] !== undefined,
          `${label}: the ${response.statusCode} of ${method} ${url} carries the header ${name} the document requires`,
        );
    }
  }
}
