// The table of error answers (server/http/errors.ts ERRORS) against what the docs
// say of it, and the rule that no message of the server names a path of the
// API: those that name the operation take it from the document.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ERRORS, type ErrorCode } from '../../server/http/errors.js';
import { app, assertError, AUTH, JSON_TYPE } from './support.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url)); // from dist/test/server/
const SERVER_DOC = readFileSync(join(ROOT, 'docs/server.md'), 'utf8');
const STUB_DOC = readFileSync(join(ROOT, 'docs/stub.md'), 'utf8');

/** The stub's errors: docs/stub.md documents them, with the controls, Prefer and the faults, rather than server.md's behaviour table. */
const STUB_ERRORS: readonly ErrorCode[] = [
  'PREFER_MALFORMED',
  'PREFER_UNDECLARED',
  'STUB_INVALID_REQUEST',
  'PREFER_FORBIDDEN',
  'CONTROLS_HOST_REFUSED',
  'STUB_BUSY',
  'STUB_DRIBBLE',
];

interface Row {
  request: string;
  statuses: number[];
  errors: number[];
}

/** The rows of the behaviour table of docs/server.md: each one's statuses and `error` numbers (`40101…40104` is each of the four). */
function behaviourRows(markdown: string): Row[] {
  const section = markdown.slice(markdown.indexOf('## Behaviour'), markdown.indexOf('### Order of checks'));
  const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| request |'));
  return rows.map((line) => {
    const [request, status, error] = line
      .split(/(?<!\\)\|/)
      .slice(1)
      .map((cell) => cell.trim()) as [string, string, string];
    const errors = [...error.matchAll(/(\d{5})(?:…(\d{5}))?/g)].flatMap(([, from, to]) => {
      const first = Number(from);
      const last = to === undefined ? first : Number(to);
      return Array.from({ length: last - first + 1 }, (_, i) => first + i);
    });
    return { request, statuses: [...status.matchAll(/\b[1-5]\d\d\b/g)].map(([n]) => Number(n)), errors };
  });
}

/** The entry of the table with this `error` number. */
const byNumber = (error: number) => Object.entries(ERRORS).find(([, entry]) => entry.error === error);

/** Something that reads as a path of a URL: a slash that starts a word, then a name or a template (`/plants`, `/{id}`, `/__admin`). */
const LITERAL_PATH = /(?:^|[\s"'`(=])\/[A-Za-z_{]/;

/** Every .ts file under server/ (sources, not the compiled files). */
function serverSources(dir = join(ROOT, 'server')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? serverSources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** The literal text of each message given to `new ApiError(code, message, …)` in `file`: string literals, and the written parts of template literals. */
function apiErrorMessages(file: string): Array<{ where: string; text: string }> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: Array<{ where: string; text: string }> = [];
  const literalTexts = (node: ts.Node): string[] => {
    if (ts.isStringLiteralLike(node)) return [node.text];
    if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
    return node.getChildren(source).flatMap(literalTexts);
  };
  const visit = (node: ts.Node): void => {
    if (
      ts.isNewExpression(node) &&
      node.expression.getText(source) === 'ApiError' &&
      node.arguments?.[1] !== undefined
    ) {
      const where = `${file.slice(ROOT.length)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
      for (const text of literalTexts(node.arguments[1])) found.push({ where, text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the table of errors and docs/server.md', { timeout: 60_000 }, () => {
  const rows = behaviourRows(SERVER_DOC);

  test('the behaviour table is read: its rows, statuses and error numbers', () => {
    assert.ok(rows.length >= 25, `${rows.length} rows`);
    const unknownId = rows.find((row) => row.request.startsWith("an item's id that is not stored"));
    assert.deepEqual(unknownId && { statuses: unknownId.statuses, errors: unknownId.errors }, {
      statuses: [404],
      errors: [40402],
    });
    const wrongMethod = rows.find((row) => row.request.startsWith('another method on a path the document declares'));
    assert.deepEqual(wrongMethod && { statuses: wrongMethod.statuses, errors: wrongMethod.errors }, {
      statuses: [405],
      errors: [40501],
    });
  });

  test("every row's error number is an entry of ERRORS, with a status the row gives", () => {
    for (const { request, statuses, errors } of rows) {
      for (const error of errors) {
        const entry = byNumber(error);
        assert.ok(entry, `docs/server.md, "${request}": error ${error} is not in ERRORS`);
        assert.ok(
          statuses.includes(entry[1].status),
          `docs/server.md, "${request}": ${entry[0]} (${error}) has status ${entry[1].status}, the row says ${statuses.join(', ')}`,
        );
      }
    }
  });

  test("every entry of ERRORS is in the doc: the server's in server.md's behaviour table, the stub's in stub.md with its status", () => {
    const documented = new Set(rows.flatMap(({ errors }) => errors));
    for (const [code, { status, error }] of Object.entries(ERRORS)) {
      if (STUB_ERRORS.includes(code as ErrorCode)) {
        const at = STUB_DOC.indexOf(String(error));
        assert.ok(at !== -1, `${code} (${error}) is not in docs/stub.md`);
        assert.ok(
          STUB_DOC.slice(Math.max(0, at - 160), at).includes(String(status)),
          `docs/stub.md gives ${code} (${error}) without its status ${status} before it`,
        );
      } else {
        assert.ok(documented.has(error), `${code} (${error}) is not in the behaviour table of docs/server.md`);
      }
    }
  });
});

describe('no message of the server names a path of the API', { timeout: 60_000 }, () => {
  test('what reads as a path is found: the messages that once named /plants', () => {
    assert.match('Method not allowed: /plants accepts POST only.', LITERAL_PATH);
    assert.match('No such resource: the API has one operation, POST /plants.', LITERAL_PATH);
    assert.doesNotMatch('Unsupported media type: send Content-Type: application/json (UTF-8).', LITERAL_PATH);
  });

  test('no message of ERRORS holds a literal path', () => {
    for (const [code, { message }] of Object.entries(ERRORS)) assert.doesNotMatch(message, LITERAL_PATH, code);
  });

  test('no message given to new ApiError in server/ holds a literal path', () => {
    const messages = serverSources().flatMap(apiErrorMessages);
    assert.ok(messages.length >= 20, `the messages are found: ${messages.length}`);
    assert.ok(
      messages.some(({ text }) => text.startsWith('Method not allowed: ')),
      'the 405 message is among them',
    );
    for (const { where, text } of messages) assert.doesNotMatch(text, LITERAL_PATH, where);
  });

  describe('the operation at another path: the messages that name it name that one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'plantstore-errors-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const specPath = join(dir, 'openapi.yaml');
    writeFileSync(
      specPath,
      readFileSync(join(ROOT, 'spec/openapi.yaml'), 'utf8').replace(/^ {2}\/plants:$/m, '  /v2/greenhouse:'),
    );
    const server = app({ specPath });
    after(() => server.close());

    test('405 for another method on it, 404 elsewhere (the old path included), 200 for the create', async () => {
      const wrongMethod = assertError(await server.inject({ method: 'GET', url: '/v2/greenhouse' }), 405, 40501);
      assert.equal(wrongMethod.message, 'Method not allowed: /v2/greenhouse accepts POST only.');
      const unknown = assertError(
        await server.inject({ method: 'POST', url: '/plants', headers: { ...AUTH, ...JSON_TYPE }, payload: '{}' }),
        404,
        40401,
      );
      assert.equal(unknown.message, 'No such resource: the API has one operation, POST /v2/greenhouse.');
      const created = await server.inject({
        method: 'POST',
        url: '/v2/greenhouse',
        headers: { ...AUTH, ...JSON_TYPE },
        payload: '{"id": 1, "name": "Fern"}',
      });
      assert.equal(created.statusCode, 200);
    });

    test('CONNECT, answered on the socket, is that 405', async () => {
      await server.listen({ port: 0, host: '127.0.0.1' });
      const { port } = server.server.address() as AddressInfo;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = createConnection({ port, host: '127.0.0.1' });
        const chunks: Buffer[] = [];
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
        socket.on('error', reject);
        socket.end('CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: a\r\n\r\n');
      });
      assert.match(answer, /^HTTP\/1\.1 405 Method Not Allowed\r\n/);
      assert.match(answer, /\r\nAllow: POST\r\n/);
      assert.ok(
        answer.endsWith('\r\n\r\n{"error":40501,"message":"Method not allowed: /v2/greenhouse accepts POST only."}'),
        answer,
      );
    });
  });
});
