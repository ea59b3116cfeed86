// One verdict per answer, and messages that read right (issue 45, items 2
// and 3). Where two checks grade the same exchange they agree: PS-OP-003
// (whether a status fits a request invalid in one place) and PS-RESP-001
// (whether a status is declared, or one an RFC defines for a condition of
// the request) on `GET /plants/abc` answered 400 by an operation that
// declares only 200 and 404. And what the checks say has no `undefined` in
// it, nor a rule it does not apply.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { catalog } from '../../conformance/checks/index.js';
import { gradeRefused } from '../../conformance/checks/op-grades.js';
import { RFC_CONDITION_STATUSES } from '../../conformance/checks/resp.js';
import type { Exchange } from '../../conformance/checks/exchange.js';
import {
  INFERENCES,
  type AggregateCheck,
  type CheckContext,
  type ExchangeCheck,
} from '../../conformance/checks/types.js';
import { IdAllocator } from '../../conformance/cases/ids.js';
import { loadSpecModel, type SpecModel } from '../../conformance/model/spec-model.js';
import { fixturePath } from '../support/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'one-verdict-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The CRUD document with the read declaring only 200 and 404, as the newcomer's did. */
function readWithout400(): SpecModel {
  const crud = readFileSync(fixturePath('operations/crud.yaml'), 'utf8');
  const start = crud.indexOf('    get:\n      operationId: getPlant');
  const bad = crud.indexOf("        '400':", start);
  const next = crud.indexOf("        '404':", bad);
  const file = join(dir, 'read-without-400.yaml');
  writeFileSync(file, crud.slice(0, bad) + crud.slice(next));
  return loadSpecModel(file);
}

function context(model: SpecModel): CheckContext {
  return {
    model,
    target: {
      name: 't',
      url: 'http://127.0.0.1:1',
      token: 'secret-token',
      role: 'target',
      informs: false,
      restrictsTokens: true,
    },
    ids: new IdAllocator(),
    seed: 1,
    cases: 1,
    auth: () => 'Bearer secret-token',
    inferences: new Set(INFERENCES),
  };
}

function answer(
  method: string,
  path: string,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): Exchange {
  return {
    request: { method, path, headers: { authorization: 'Bearer secret-token' } },
    url: `http://127.0.0.1:1${path}`,
    response: { status, headers: { 'content-type': 'application/json', ...headers }, bodyText: body },
  };
}

const check = (id: string) => catalog.find((c) => c.id === id)!;
const ERROR = '{"error":40001,"message":"id is not an integer"}';

describe('PS-OP-003 and PS-RESP-001 on one answer to a request invalid in one place', () => {
  const model = readWithout400();
  const ctx = context(model);
  const read = model.operations.find((op) => op.method === 'GET' && op.path === '/plants/{id}')!;
  const resp001 = check('PS-RESP-001') as AggregateCheck;
  const both = (status: number, body = ERROR) => {
    const ex = answer('GET', '/plants/abc', status, body);
    return [
      gradeRefused(ctx, read, ex, 'the path parameter id not a number').outcome,
      resp001.verifyEach(ex, ctx).outcome,
    ];
  };

  it('the operation declares no 400', () => {
    assert.deepEqual([...read.responses.keys()], ['200', '404']);
  });

  it("an undeclared 400 (RFC 9110's status for a client error) passes both", () => {
    assert.deepEqual(both(400), ['pass', 'pass']);
  });

  it('an undeclared 404 passes both', () => {
    assert.deepEqual(both(404), ['pass', 'pass']);
  });

  it('an undeclared 422, a status no RFC gives the condition, is non-strict for both', () => {
    assert.deepEqual(both(422), ['non-strict', 'non-strict']);
  });

  it('PS-RESP-001 passes the statuses an RFC defines for a condition of the request, and no other', () => {
    for (const status of RFC_CONDITION_STATUSES)
      assert.equal(
        resp001.verifyEach(answer('GET', '/plants/abc', status, ERROR), ctx).outcome,
        'pass',
        String(status),
      );
    for (const status of [201, 403, 409, 418, 422])
      assert.equal(
        resp001.verifyEach(answer('GET', '/plants/abc', status, ERROR), ctx).outcome,
        'non-strict',
        String(status),
      );
  });

  it('PS-OP-003 says which 4xx the document declares, and only those', () => {
    const v = gradeRefused(
      ctx,
      read,
      answer('GET', '/plants/abc', 200, '{"name":"x"}'),
      'the path parameter id not a number',
    );
    assert.equal(v.expected, "a 4xx the document declares for GET /plants/{id} (404), or RFC 9110's 400 or 404");
  });
});

describe('messages that read right', () => {
  const model = loadSpecModel(fixturePath('operations/crud.yaml'));
  const ctx = context(model);

  it('PS-RESP-003 names a schema written in place (the list\'s array) by what it is, never "undefined"', () => {
    const v = (check('PS-RESP-003') as AggregateCheck).verifyEach(
      answer('GET', '/plants', 200, '[{"name":"x","tag":42}]'),
      ctx,
    );
    assert.equal(v.outcome, 'fail');
    assert.equal(v.expected, 'a body valid against the declared 200 schema');
    assert.doesNotMatch(JSON.stringify(v), /undefined/);
  });

  it("PS-HTTP-001 asks for the operation's method among those Allow lists, and passes Allow: GET, POST", () => {
    const http001 = check('PS-HTTP-001') as ExchangeCheck<unknown>;
    const [plan] = http001.cases(context(loadSpecModel()));
    const graded = (allow: string) =>
      http001.verify([{ ...plan!, exchange: answer('GET', '/plants', 405, '{}', { allow }) }], ctx);
    assert.equal(graded('GET, POST').outcome, 'pass');
    const missing = graded('GET');
    assert.equal(missing.outcome, 'non-strict');
    assert.equal(missing.expected, '405 with an Allow header that lists POST among the methods of /plants');
  });
});
