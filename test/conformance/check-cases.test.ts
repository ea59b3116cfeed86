// A check's cases carry what they sent, and a factory's options are all used:
// PS-AUTH-007's credentials (none) go out with its malformed body, and an
// acceptance check grades the echo against the very body each case sent.
import { strict as assert } from 'node:assert';
import { it } from 'node:test';
import { catalog } from '../../conformance/checks/index.js';
import { INFERENCES, type Case, type CheckContext, type ExchangeCheck } from '../../conformance/checks/types.js';
import type { Exchange } from '../../conformance/checks/exchange.js';
import { IdAllocator } from '../../conformance/cases/ids.js';
import { toJson, type JsonValue } from '../../conformance/model/json.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';

const model = loadSpecModel();

function context(): CheckContext {
  return {
    model,
    target: {
      name: 'fake',
      url: 'http://127.0.0.1:1',
      token: 'secret',
      role: 'target',
      informs: false,
      restrictsTokens: true,
    },
    ids: new IdAllocator(),
    seed: 1,
    cases: 1,
    auth: () => 'Bearer secret',
    inferences: new Set(INFERENCES),
  };
}

function exchangeCheck(id: string): ExchangeCheck<unknown> {
  const check = catalog.find((c) => c.id === id);
  assert.equal(check?.kind, 'exchange', id);
  return check;
}

/** An exchange whose answer is 200 with `body` as JSON. */
function answered(c: Case<unknown>, body: string): Exchange {
  return {
    request: c.request,
    url: `http://127.0.0.1:1${c.request.path}`,
    response: { status: 200, headers: { 'content-type': 'application/json' }, bodyText: body },
  };
}

it('PS-AUTH-007 sends no credentials with a malformed body', () => {
  const [only, ...rest] = exchangeCheck('PS-AUTH-007').cases(context());
  assert.deepEqual(rest, []);
  assert.equal(only!.request.headers.authorization, undefined);
  assert.equal(only!.request.body, '{"id": ');
  assert.equal(only!.request.note, 'no credentials and a malformed body');
});

it('PS-ACCEPT-001 grades the echo against the body its case sent, whatever other runs sent', () => {
  const check = exchangeCheck('PS-ACCEPT-001');
  const first = check.cases(context());
  const second = check.cases(context());
  for (const cases of [first, second]) {
    const sent = cases[0]!.sent as Record<string, JsonValue>;
    assert.equal(cases[0]!.request.body, toJson(sent), 'the request carries the body the case says it sent');
    const echo = JSON.stringify({ name: sent.name, tag: sent.tag });
    assert.equal(
      check.verify(
        cases.map((c) => ({ ...c, exchange: answered(c, echo) })),
        context(),
      ).outcome,
      'pass',
    );
    const wrong = JSON.stringify({ name: 'something else', tag: sent.tag });
    assert.equal(
      check.verify(
        cases.map((c) => ({ ...c, exchange: answered(c, wrong) })),
        context(),
      ).outcome,
      'fail',
    );
  }
});
