// How the evidence decides a side's verdict (compat.ts, settle): a rule
// nothing confirms decides no exit code; a witness does; a side whose
// crossed run could not run, or --rules-only, is judged by the rules; and the
// report lists an unconfirmed rule apart, never under a breaking verdict.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { Change } from '../../conformance/compat/change.js';
import { settle, type CompatResult } from '../../conformance/compat/compat.js';
import type { CrossRun } from '../../conformance/compat/execute.js';
import { renderCompatConsole, renderCompatMarkdown } from '../../conformance/compat/report.js';
import type { Witness } from '../../conformance/compat/witness.js';

const refs = { base: { label: 'old.yaml', path: 'old.yaml' }, head: { label: 'new.yaml', path: 'new.yaml' }, seed: 1 };

/** A change the rules say breaks existing clients (a request tightened). */
const change: Change = {
  id: 'C1',
  keyword: 'maxLength',
  pointer: '#/components/schemas/Plant/properties/name/maxLength',
  after: 50,
  instancePath: ['name'],
  what: 'maxLength added: 50',
  source: { document: 'JSON Schema Validation 2020-12', section: '§6.3.1 maxLength' },
  bearings: [
    {
      usage: 'request body of POST /plants',
      role: 'request',
      effect: 'tighter',
      clients: 'breaks',
      servers: 'compatible',
      why: 'fewer requests are valid',
    },
  ],
  clients: 'breaks',
  servers: 'compatible',
};

const summary = { pass: 56, 'non-strict': 0, fail: 0, skip: 0, error: 0 };
const ran = (side: 'clients' | 'servers'): CrossRun => ({
  side,
  checksOf: side === 'clients' ? 'base' : 'head',
  serving: side === 'clients' ? 'head' : 'base',
  summary,
  departures: [],
});
const clean = { clients: ran('clients'), servers: ran('servers') };
const witness: Witness = {
  role: 'request',
  example: 'request body of POST /plants: {"id":1,"name":"w…(51 characters)"}',
  body: {},
  validUnder: 'old',
  refusal: '/name must NOT have more than 50 characters',
};

const judged = (execution: CompatResult['execution'], found?: Witness | 'none') =>
  settle(refs, [change], execution, new Map(found ? [['C1|clients', found]] : []));

describe('compat verdicts by evidence', { timeout: 30_000 }, () => {
  it('a rule every exchange tried judges alike is unconfirmed: listed apart, and the exit code is 0', () => {
    const r = judged(clean, 'none');
    assert.equal(r.agreements[0]!.kind, 'unconfirmed');
    assert.deepEqual(r.sides.clients, {
      rules: 'breaks',
      execution: 'none',
      verdict: 'compatible',
      judgedBy: 'evidence',
      unconfirmed: ['C1'],
    });
    assert.equal(r.exitCode, 0);
    const shown = renderCompatConsole(r);
    assert.match(
      shown,
      /\nUnconfirmed \(a rule says breaking; no check and no example shows it: no verdict rests on it\)\n {2}C1 maxLength added: 50\n/,
    );
    assert.doesNotMatch(shown, /Breaking changes|may be wrong/);
    assert.match(
      shown,
      /COMPATIBLE: no change breaks existing clients or servers; 1 rule\(s\) unconfirmed \(see above\); seed 1/,
    );
    assert.match(renderCompatMarkdown(r), /\| C1 \| maxLength added: 50 \| .* \| unconfirmed \| compatible \|/);
  });

  it('a witness decides: the side breaks, and the report gives it as the one-line example', () => {
    const r = judged(clean, witness);
    assert.equal(r.agreements[0]!.kind, 'witnessed');
    assert.equal(r.sides.clients.verdict, 'breaks');
    assert.equal(r.exitCode, 1);
    const shown = renderCompatConsole(r);
    assert.ok(
      shown.includes(
        `example: ${witness.example} (allowed by the old document; the new one refuses it: ${witness.refusal})`,
      ),
      shown,
    );
    assert.match(shown, /BREAKING: breaks existing clients \(C1\); seed 1/);
  });

  it('--rules-only, or a crossed run that could not run, judges the side by the rules: an unconfirmed rule then decides', () => {
    const rulesOnly = judged(undefined, 'none');
    assert.equal(rulesOnly.sides.clients.judgedBy, 'rules');
    assert.equal(rulesOnly.exitCode, 1);
    assert.match(renderCompatConsole(rulesOnly), /by the rules: not executed \(--rules-only\)/);
    const notPossible = judged({
      clients: { ...ran('clients'), notChecked: 'no checks can be derived from the old document: no create operation' },
      servers: ran('servers'),
    });
    assert.equal(notPossible.sides.clients.execution, 'not checked');
    assert.equal(notPossible.sides.clients.verdict, 'breaks');
    assert.match(
      renderCompatConsole(notPossible),
      /not possible: no checks can be derived from the old document: no create operation; existing clients are judged by the rules\n/,
    );
  });

  it('an operation the rule says is gone, yet served: the execution refutes the rule (PS-OP-001 passed on it), and no verdict rests on it', () => {
    const removed: Change = {
      ...change,
      keyword: 'operation',
      pointer: '#/paths/~1plants/get',
      before: 'GET /plants',
      after: undefined,
      instancePath: undefined,
      what: 'operation GET /plants removed',
      bearings: [
        {
          usage: 'GET /plants',
          role: 'operation',
          effect: 'tighter',
          clients: 'breaks',
          servers: 'compatible',
          why: 'clients that call GET /plants get no declared answer',
        },
      ],
    };
    const opWitness: Witness = {
      role: 'request',
      example: 'GET /plants',
      validUnder: 'old',
      refusal: 'the new document declares no GET /plants',
    };
    const served = {
      clients: { ...ran('clients'), operations: [{ check: 'PS-OP-001', operation: 'GET /plants', outcome: 'pass' }] },
      servers: ran('servers'),
    };
    const r = settle(refs, [removed], served, new Map([['C1|clients', opWitness]]));
    assert.equal(r.agreements[0]!.kind, 'unconfirmed');
    assert.equal(r.agreements[0]!.witness, undefined);
    assert.match(
      r.agreements[0]!.explanation,
      /^the execution refutes it: PS-OP-001 of the old document passed on GET \/plants against the reference serving the new document/,
    );
    assert.equal(r.sides.clients.verdict, 'compatible');
    assert.equal(r.exitCode, 0);
    // Met on another operation only, the pass says nothing of GET /plants: the witness stands.
    const elsewhere = {
      clients: { ...ran('clients'), operations: [{ check: 'PS-OP-001', operation: 'POST /plants', outcome: 'pass' }] },
      servers: ran('servers'),
    };
    assert.equal(
      settle(refs, [removed], elsewhere, new Map([['C1|clients', opWitness]])).agreements[0]!.kind,
      'witnessed',
    );
  });

  it('never prints empty parentheses: a side broken only by a check tied to no change names the check', () => {
    const compatible: Change = {
      ...change,
      clients: 'compatible',
      bearings: [{ ...change.bearings[0]!, effect: 'looser', clients: 'compatible', servers: 'breaks' }],
      servers: 'breaks',
    };
    const check = {
      id: 'PS-JSON-001',
      outcome: 'fail',
      level: 'MUST',
      title: 't',
      source: { document: 'RFC 8259', section: '§2' },
      expected: '200',
      actual: '[x] 500',
      reproduce: 'curl -sS http://127.0.0.1:1/plants',
    } as CrossRun['departures'][number];
    const r = settle(refs, [compatible], {
      clients: { ...ran('clients'), departures: [check] },
      servers: ran('servers'),
    });
    assert.equal(r.sides.clients.verdict, 'breaks');
    assert.doesNotMatch(renderCompatConsole(r), /\(\)/);
    assert.match(renderCompatConsole(r), /breaks existing clients \(PS-JSON-001\)/);
  });

  it("a refusal check is evidence for servers only: the old document's 401 check answered 403 is no finding against clients, the new one's is against servers", () => {
    const refused = {
      id: 'PS-AUTH-001',
      outcome: 'fail',
      level: 'MUST',
      title: 'Missing credentials: 401 with WWW-Authenticate: Bearer',
      source: { document: 'RFC 6750', section: '§3' },
      expected: '401 with WWW-Authenticate: Bearer and an auth-param',
      actual: '[no Authorization header] 403, body {}',
      reproduce: 'curl -sS http://127.0.0.1:1/plants',
    } as CrossRun['departures'][number];
    const r = settle(refs, [change], {
      clients: { ...ran('clients'), departures: [refused] },
      servers: { ...ran('servers'), departures: [refused] },
    });
    assert.deepEqual(
      r.findings.map((f) => `${f.side} ${f.check.id}`),
      ['servers PS-AUTH-001'],
    );
    assert.deepEqual(
      r.notClientsEvidence.map((c) => c.id),
      ['PS-AUTH-001'],
    );
    assert.match(
      renderCompatConsole(r),
      /existing clients never send them: no evidence that they break\): PS-AUTH-001/,
    );
    // The same check answered 200 is a server accepting what its document refuses: set apart on either side.
    const accepted = { ...refused, actual: '[no Authorization header] 200, body {"name":"Fern"}' };
    const lenient = settle(refs, [change], {
      clients: { ...ran('clients'), departures: [accepted] },
      servers: { ...ran('servers'), departures: [accepted] },
    });
    assert.deepEqual(lenient.findings, []);
    assert.equal(lenient.lenient.length, 2);
  });

  it("a departure the old document's checks show against the reference serving the old document too is no proof: present before the change", () => {
    const before = {
      id: 'PS-RESP-001',
      outcome: 'non-strict',
      level: 'SHOULD',
      title: 't',
      source: { document: 'd', section: 's' },
      expected: '404',
      actual: '[GET /plants/abc] 400',
      cause: '400 where 404 is expected',
      reproduce: 'curl -sS http://127.0.0.1:1/plants/abc',
      cases: [
        {
          outcome: 'non-strict',
          check: 'PS-OP-003',
          case: 'the path parameter id not a number ("abc")',
          cause: '400 where 404 is expected',
          expected: '404',
          actual: '400',
          reproduce: null,
        },
      ],
    } as CrossRun['departures'][number];
    const keys = [
      `PS-RESP-001|PS-OP-003|the path parameter id not a number ("abc")|non-strict|400 where 404 is expected|`,
    ];
    const r = settle(refs, [change], {
      clients: { ...ran('clients'), departures: [before], baseline: keys },
      servers: ran('servers'),
    });
    assert.deepEqual(r.findings, []);
    assert.deepEqual(
      r.preexisting.map((p) => p.check.id),
      ['PS-RESP-001'],
    );
    // Another request departing with the same words was not there before: it stays evidence.
    const other = { ...before, cases: [{ ...before.cases![0]!, case: 'delete' }] };
    const s = settle(refs, [change], {
      clients: { ...ran('clients'), departures: [other], baseline: keys },
      servers: ran('servers'),
    });
    assert.equal(s.findings.length, 1);
  });
});
