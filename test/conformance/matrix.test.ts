// The matrix and the divergence comparison, on made-up results (no server):
// a documented departure, an unexplained one, a stale entry, an entry whose
// check did not run; the reasons a disagreement shows; what the console,
// JUnit and HTML reports make of them; the divergence file's validation.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Outcome } from '../../conformance/checks/types.js';
import {
  compareDivergences,
  loadDivergences,
  parseDivergences,
  type DivergenceFile,
} from '../../conformance/run/differential/divergences.js';
import { buildMatrix } from '../../conformance/run/differential/matrix.js';
import { renderMatrixConsole } from '../../conformance/report/console.js';
import { embedJson, toHtml } from '../../conformance/report/html.js';
import { toJsonReport } from '../../conformance/report/json.js';
import { toJunit } from '../../conformance/report/junit.js';
import { runResult, summarize, type CheckResult, type TargetResult } from '../../conformance/run/result.js';
import type { Role } from '../../conformance/model/target.js';

function result(id: string, outcome: Outcome): CheckResult {
  const failing = outcome !== 'pass';
  return {
    id,
    title: `title of ${id}`,
    level: 'MUST',
    outcome,
    requirement: `requirement of ${id}`,
    source: { document: 'RFC 9110', section: '§1' },
    expected: failing ? `expected of ${id}` : null,
    actual: failing ? `actual of ${id}` : null,
    reproduce: failing ? `curl ${id}` : null,
    requests: 1,
  };
}

function target(name: string, outcomes: Record<string, Outcome>, role: Role = 'target'): TargetResult {
  const results = Object.entries(outcomes).map(([id, o]) => result(id, o));
  const informs = role === 'prism';
  return {
    target: { name, url: `http://127.0.0.1:1/${name}`, token: 't', role, informs, restrictsTokens: false },
    summary: summarize(results),
    results,
  };
}

const FILE: DivergenceFile = {
  target: 'prism',
  description: '',
  divergences: [
    { check: 'PS-AUTH-005', outcome: 'fail', reason: 'lowercase bearer refused', evidence: 'bearer t → 401' },
    { check: 'PS-HTTP-001', outcome: 'fail', reason: 'no Allow', evidence: 'GET → 405' },
    { check: 'PS-STATE-001', outcome: 'fail', reason: 'no state', evidence: 'dup → 200' },
    { check: 'PS-RESP-002', outcome: 'non-strict', reason: 'problem+json', evidence: '401 problem+json' },
  ],
};

const reference = target(
  'reference',
  {
    'PS-AUTH-005': 'pass',
    'PS-HTTP-001': 'pass',
    'PS-STATE-001': 'pass',
    'PS-ACCEPT-009': 'pass',
    'PS-RESP-002': 'pass',
  },
  'reference',
);
// PS-AUTH-005 documented; PS-HTTP-001 stale (now passes); PS-STATE-001 stale and unexplained (another outcome);
// PS-ACCEPT-009 unexplained (no entry); PS-RESP-002 documented.
const prism = target(
  'prism',
  {
    'PS-AUTH-005': 'fail',
    'PS-HTTP-001': 'pass',
    'PS-STATE-001': 'non-strict',
    'PS-ACCEPT-009': 'fail',
    'PS-RESP-002': 'non-strict',
  },
  'prism',
);

describe('the divergence comparison', () => {
  const c = compareDivergences(prism, FILE, 'divergences/prism.json');
  it('sorts departures into documented, unexplained and stale', () => {
    assert.deepEqual(
      c.explained.map((e) => e.result.id),
      ['PS-AUTH-005', 'PS-RESP-002'],
    );
    assert.deepEqual(
      c.unexplained.map((r) => r.id),
      ['PS-STATE-001', 'PS-ACCEPT-009'],
    );
    assert.deepEqual(
      c.stale.map((s) => [s.divergence.check, s.observed]),
      [
        ['PS-HTTP-001', 'pass'],
        ['PS-STATE-001', 'non-strict'],
      ],
    );
  });
  it('an entry whose check did not run (--only) is neither documented nor stale', () => {
    const only = target('prism', { 'PS-AUTH-005': 'fail' }, 'prism');
    const d = compareDivergences(only, FILE, 'f');
    assert.equal(d.explained.length, 1);
    assert.deepEqual([d.unexplained, d.stale], [[], []]);
  });
});

describe('the matrix', () => {
  const run = runResult({
    seed: 1,
    strict: false,
    lint: [],
    targets: [reference, prism],
    divergences: [compareDivergences(prism, FILE, 'divergences/prism.json')],
  });
  const row = (id: string) => run.matrix.find((r) => r.id === id)!;
  it('says where targets agree and, where they do not, why', () => {
    assert.equal(row('PS-HTTP-001').agree, true);
    assert.deepEqual(row('PS-HTTP-001').why, []);
    assert.equal(row('PS-AUTH-005').agree, false);
    assert.deepEqual(row('PS-AUTH-005').why, ['prism (documented): lowercase bearer refused']);
    assert.match(
      row('PS-ACCEPT-009').why[0]!,
      /^prism \(UNEXPLAINED divergence\): expected expected of PS-ACCEPT-009; actual actual of PS-ACCEPT-009$/,
    );
    assert.match(row('PS-STATE-001').why[0]!, /^prism \(divergence file says fail\): /);
  });
  it('a failing target that is not Prism gets its expected and actual as the reason', () => {
    const rows = buildMatrix([
      target('reference', { 'PS-AUTH-005': 'pass' }, 'reference'),
      target('target', { 'PS-AUTH-005': 'fail' }),
    ]);
    assert.deepEqual(rows[0]!.why, ['target (fail): expected expected of PS-AUTH-005; actual actual of PS-AUTH-005']);
  });
  it('the console matrix shows unexplained and stale entries prominently, with details of the unexplained ones', () => {
    const text = renderMatrixConsole(run, { color: false });
    assert.match(text, /^check\s+reference\s+prism\s+why they disagree$/m);
    assert.match(text, /^PS-AUTH-005\s+✔ pass\s+× fail doc\s+prism \(documented\): lowercase bearer refused$/m);
    assert.match(text, /^PS-ACCEPT-009\s+✔ pass\s+× fail !!/m);
    assert.match(text, /Divergences of prism: 2 UNEXPLAINED, 2 stale, 2 documented/);
    assert.match(text, /UNEXPLAINED PS-ACCEPT-009 fail: not in divergences\/prism\.json/);
    assert.match(text, /STALE PS-HTTP-001: the file says fail, observed pass/);
    // Details for what is not documented; none for the documented departure.
    assert.match(text, /Details prism[\s\S]*PS-ACCEPT-009[\s\S]*Reproduce: curl PS-ACCEPT-009/);
    assert.doesNotMatch(text, /Reproduce: curl PS-AUTH-005/);
    assert.match(text, /Summary prism: .*\(informs; does not fail the run\)/);
  });
  it('JUnit: a documented Prism divergence is skipped with its reason, an unexplained one a failure', () => {
    const xml = toJunit(run);
    assert.match(xml, /<testsuite name="prism" tests="5" failures="1" errors="0" skipped="2">/);
    assert.match(xml, /<skipped message="documented divergence \(fail\): lowercase bearer refused"\/>/);
    assert.match(xml, /name="PS-ACCEPT-009 title of PS-ACCEPT-009"><failure/);
  });
  it('JSON: targets carry their role, Prism its divergence comparison, results their divergence', () => {
    const json = toJsonReport(run);
    const p = json.targets[1]!;
    assert.equal(p.role, 'prism');
    assert.equal(p.informs, true);
    assert.deepEqual(p.divergences?.unexplained, [
      { id: 'PS-STATE-001', outcome: 'non-strict' },
      { id: 'PS-ACCEPT-009', outcome: 'fail' },
    ]);
    assert.equal(p.results[0]!.divergence?.reason, 'lowercase bearer refused');
    assert.deepEqual(
      json.matrix?.find((m) => m.id === 'PS-AUTH-005'),
      { id: 'PS-AUTH-005', agree: false, why: ['prism (documented): lowercase bearer refused'] },
    );
  });
});

describe('the HTML report file', () => {
  it('embeds the data with no "<" and pins its inline style and script by hash', () => {
    const hostile = target('x', { 'PS-AUTH-005': 'fail' });
    hostile.results[0]!.actual = '</script><script>alert(1)</script><!--';
    const html = toHtml(
      runResult({ seed: 1, strict: false, lint: [], targets: [hostile], divergences: [] }),
      '2026-01-01T00:00:00Z',
    );
    const data = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
    assert.ok(!data.includes('<'), 'no "<" in the embedded data');
    assert.equal(JSON.parse(data).targets[0].results[0].actual, '</script><script>alert(1)</script><!--');
    assert.equal(embedJson('\u2028</'), '"\\u2028\\u003c/"');
    const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!;
    assert.match(csp, /default-src 'none'/);
    assert.ok(csp.includes(`script-src ${hash(script)}`), 'script hash');
    assert.ok(csp.includes(`style-src ${hash(style)}`), 'style hash');
    assert.doesNotMatch(html, /(src|href)="https?:/, 'no external load');
  });
});

describe('the divergence file', () => {
  it('the committed file for Prism loads, and names checks of the catalog', () => {
    const file = loadDivergences();
    assert.equal(file.target, 'prism');
    assert.ok(file.divergences.length > 0);
  });
  it('a broken file is a clear error', () => {
    const entry = { check: 'PS-AUTH-005', outcome: 'fail', reason: 'r', evidence: 'e' };
    const cases: Array<[unknown, RegExp]> = [
      [
        { target: 'prism', divergences: [{ ...entry, check: 'PS-NOPE-001' }] },
        /"check" "PS-NOPE-001" is not a check of the catalog/,
      ],
      [{ target: 'prism', divergences: [entry, entry] }, /PS-AUTH-005 is listed twice/],
      [
        { target: 'prism', divergences: [{ ...entry, outcome: 'pass' }] },
        /"outcome" must be one of non-strict, fail, skip, error/,
      ],
      [{ target: 'prism', divergences: [{ ...entry, reason: ' ' }] }, /"reason" must be a non-empty string/],
      [{ target: 'prism' }, /"divergences" must be an array/],
      [[], /must be a JSON object/],
    ];
    for (const [data, message] of cases) assert.throws(() => parseDivergences(JSON.stringify(data), 'f.json'), message);
    assert.throws(() => parseDivergences('{', 'f.json'), /divergence file f\.json: not JSON/);
  });
});
