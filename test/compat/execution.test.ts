// The proof by execution, for each pair of test/compat/pairs.ts: the checks
// of the old document run against the reference serving the new one, and
// the checks of the new document against the reference serving the old one
// (in process, on 127.0.0.1). Each side a change breaks gets its proof (a
// failing check tied to the change, with its Expected, Actual and curl
// line), or, where the reference cannot show it, the rule stands alone and
// the result says why; a compatible pair gives no failing check.
// `npm test` runs one pair of each way a pair is judged (its exit, the
// checks that must not depart, and per side: proof, rule alone, witness,
// not possible, label, the line that shows it), the pairs the closer tests
// run first: 16 of the 51; `npm run test:full`, in CI, runs every pair
// (test/support/matrix.ts). The rules' verdict on every pair runs in both
// (rules.test.ts).
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compat } from '../../conformance/compat/compat.js';
import { departureKeys } from '../../conformance/compat/preexisting.js';
import { renderCompatConsole, renderCompatMarkdown } from '../../conformance/compat/report.js';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import { matrixLabel, matrixRows } from '../support/matrix.js';
import { PAIRS, slugOf, writePair, type Pair } from './pairs.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-compat-run-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The pair's compat run, one per pair in this file: the tests below that look at one pair more closely read the run
 * its row made (the same documents, seed and cases) instead of running it again.
 */
const runs = new Map<
  Pair,
  Promise<{ result: Awaited<ReturnType<typeof compat>>; paths: ReturnType<typeof writePair> }>
>();
function compatRun(pair: Pair) {
  let run = runs.get(pair);
  if (run === undefined) {
    const paths = writePair(pair, dir, slugOf(pair.name));
    run = compat({
      base: { label: 'old.yaml', path: paths.base },
      head: { label: 'new.yaml', path: paths.head },
      seed: 7,
      cases: 10,
      timeoutMs: 15_000,
    }).then((result) => ({ result, paths }));
    runs.set(pair, run);
  }
  return run;
}

/**
 * What a pair's test asserts, and so what one pair proves that another would prove again: its exit (and whether the
 * rules call any side broken, or the execution alone decides), whether it names checks that must not depart, and per
 * side the way that side is judged (proof, rule alone, witness, not possible, label, the line that shows it). The test
 * asserts each side on its own, so a way a side is judged is proven once whatever the other side of its pair does:
 * `npm test` runs one pair of each way of each, `npm run test:full` every pair.
 */
const WAYS: ((pair: Pair) => string)[] = [
  (pair) => JSON.stringify([pair.exit, pair.proof === undefined]),
  (pair) => String(pair.notFailing !== undefined),
  ...(['clients', 'servers'] as const).map(
    (side) => (pair: Pair) =>
      JSON.stringify([
        pair.proof?.[side],
        pair.witness?.includes(side),
        pair.notPossible?.includes(side),
        pair.label?.[side],
        pair.shows?.[side] !== undefined,
      ]),
  ),
];
const pairNamed = (start: string) => PAIRS.find((pair) => pair.name.startsWith(start))!;
/** The pairs the closer tests below run. */
const DELETE_QUERY = pairNamed('a new required query parameter on the delete');
const SECURITY_OPTIONAL = pairNamed('security made optional');
const PATTERN_CHANGED = pairNamed('a pattern changed');
/** Those first: each runs anyway, so where one is judged a way a row shows, its run is that way's row (compatRun runs it once). */
const CLOSER = [DELETE_QUERY, SECURITY_OPTIONAL, PATTERN_CHANGED];
const PREFERRED = [...CLOSER, ...PAIRS.filter((pair) => !CLOSER.includes(pair))];
const KEPT = new Set(WAYS.flatMap((way) => matrixRows(PREFERRED, way)));
const ROWS = PAIRS.filter((pair) => KEPT.has(pair));

describe(`compat execution, ${matrixLabel(ROWS.length, PAIRS.length)}`, { timeout: 600_000, concurrency: 2 }, () => {
  for (const pair of ROWS) {
    it(`${pair.name}: exit ${pair.exit}, each breaking side proven or said why not`, async () => {
      const { result, paths } = await compatRun(pair);
      const shown = renderCompatConsole(result);
      assert.equal(result.exitCode, pair.exit, shown);
      for (const id of pair.notFailing ?? [])
        assert.ok(!result.findings.some((f) => f.check.id === id), `${id} departs: ${shown}`);
      for (const side of ['clients', 'servers'] as const) {
        if (pair.notPossible?.includes(side)) {
          // The crossed run cannot run for this document: the report says why in a line (no stack trace), and the rules' verdict stands.
          assert.match(result.execution?.[side].notChecked ?? '', /\S/, shown);
          assert.doesNotMatch(result.execution![side].notChecked!, /\n\s+at /);
          assert.match(
            shown,
            new RegExp(`Execution, [^\n]*: not possible: [^\n]+; existing ${side} are judged by the rules`),
          );
          assert.equal(result.sides[side].judgedBy, 'rules');
        } else assert.equal(result.execution?.[side].notChecked, undefined, shown);
        // The label, decided before any tool ran, is the verdict the evidence reaches.
        if (pair.label)
          assert.equal(result.sides[side].verdict, pair.label[side], `${side}, labelled ${pair.label[side]}: ${shown}`);
        const expected = pair.proof?.[side];
        const change = result.changes.find((c) => c[side] === 'breaks');
        if (!expected) {
          // No rule says this side breaks: no failing check is tied to a change the rules called breaking.
          assert.equal(change, undefined, `${side}: ${shown}`);
          // A non-strict departure (the reference's own choice, on both documents) is listed and decides nothing.
          if (pair.exit === 0)
            assert.equal(result.findings.filter((f) => f.side === side && f.check.outcome === 'fail').length, 0, shown);
          continue;
        }
        assert.ok(change, `${side}: a change breaks it`);
        const agreement = result.agreements.find((a) => a.change === change.id && a.side === side);
        const witnessed = pair.witness?.includes(side) === true;
        assert.equal(
          agreement?.kind,
          expected === 'proof' ? 'proven' : witnessed ? 'witnessed' : 'rule-only',
          `${side}: ${shown}`,
        );
        if (expected === 'proof') {
          const findings = result.findings.filter((f) => f.side === side && f.changes.includes(change.id));
          assert.ok(findings.length > 0);
          for (const f of findings) {
            assert.ok(f.check.outcome === 'fail' || f.check.outcome === 'non-strict', f.check.outcome);
            // The request and the answer that show it: the curl line (replayable against a reference on npm start's port) and the status.
            assert.match(f.check.reproduce ?? '', /^(curl |printf |node -e|for i)/);
            assert.match(f.check.reproduce ?? '', /http:\/\/127\.0\.0\.1:4010\//);
            assert.match(f.check.actual ?? '', /\b[1-5]\d\d\b/);
          }
          assert.ok(
            findings.some((f) =>
              shown.includes(`proof of ${change.id} for existing ${side}: ${f.check.id} ${f.check.outcome} (`),
            ),
            shown,
          );
          const line = pair.shows?.[side];
          if (line !== undefined) {
            // The line names the call and the check; that check is the first proof shown.
            assert.match(agreement.shows ?? '', new RegExp(line), shown);
            const first = /\((PS-[A-Z]+-\d{3})\)$/.exec(agreement.shows!)![1];
            assert.ok(
              shown.includes(
                `     shown by execution: ${agreement.shows}\n     proof of ${change.id} for existing ${side}: ${first} fail (`,
              ),
              shown,
            );
            // Markdown escapes the parentheses (report/markdown.ts inline).
            const markdown = renderCompatMarkdown(result);
            assert.match(markdown, /\nShown by execution: /);
            assert.ok(
              markdown.includes(`\\(${first}\\).\n\nproof of ${change.id} for existing ${side}: ${first} fail`),
              markdown,
            );
          }
          assert.match(renderCompatMarkdown(result), /```sh\ncurl /);
        } else if (witnessed) {
          // The documents show the rule: a body one document's validator accepts and the other's refuses, or an exchange one declares and the other does not.
          const w = agreement.witness;
          assert.ok(w, `${side}: a witness: ${agreement.explanation}`);
          assert.match(agreement.explanation, /^the documents show it: /);
          assert.ok(shown.includes(`example: ${w.example}`), shown);
          if (w.body !== undefined && w.role === 'request') {
            const [accepting, refusing] = (
              w.validUnder === 'old' ? [paths.base, paths.head] : [paths.head, paths.base]
            ).map((p) => loadSpecModel(p));
            assert.equal(accepting!.create!.validateRequest(w.body as never).length, 0, JSON.stringify(w));
            assert.ok(refusing!.create!.validateRequest(w.body).length > 0, JSON.stringify(w));
          }
        } else {
          assert.match(shown, /no check fails/);
          assert.equal(agreement.witness, undefined);
        }
      }
    });
  }

  it("a departure present before the change is no proof of it: the old document's checks run against the reference serving it, and no proof shows a case they show", async () => {
    // The reference's own non-strict answers (once, its 400 to DELETE /plants/abc) depart whichever document it serves;
    // the mechanism on made-up departures of that shape is in verdict.test.ts. Here, end to end: the baseline runs
    // where a crossed run departs, and no finding keeps a departing case the baseline shows alike.
    const pair = DELETE_QUERY;
    const { result } = await compatRun(pair);
    const shown = renderCompatConsole(result);
    const baseline = result.execution?.clients.baseline;
    assert.ok(baseline, `the crossed run departed, so the baseline ran: ${shown}`);
    const before = new Set(baseline);
    for (const f of result.findings) assert.ok(!departureKeys(f.check).some((k) => before.has(k)), f.check.id);
    for (const p of result.preexisting)
      assert.ok(
        departureKeys(p.check).every((k) => before.has(k)),
        p.check.id,
      );
    // The change's own proof stands: existing clients' delete without force, answered 400.
    assert.equal(result.sides.clients.verdict, 'breaks', shown);
    assert.ok(
      result.findings.some((f) => f.side === 'clients' && f.check.id === 'PS-OP-002' && f.changes.length === 1),
      shown,
    );
  });

  it('security made optional breaks no existing client: the old refusal checks answered 200 are set apart, none is a finding', async () => {
    const pair = SECURITY_OPTIONAL;
    const { result } = await compatRun(pair);
    const shown = renderCompatConsole(result);
    assert.deepEqual(
      result.findings.filter((f) => f.side === 'clients').map((f) => f.check.id),
      [],
      shown,
    );
    // The old document's PS-AUTH-001 (no credentials: 401) meets a 200 from the new server: accepted, breaking no one.
    assert.ok(
      result.lenient.some((l) => l.side === 'clients' && l.check.id === 'PS-AUTH-001'),
      shown,
    );
    assert.equal(result.sides.clients.verdict, 'compatible', shown);
    assert.equal(result.sides.servers.verdict, 'breaks', shown);
  });

  it('a pattern the rules cannot compare is shown by execution: a check fails that no rule called breaking, and the report says the rules missed it', async () => {
    const pair = PATTERN_CHANGED;
    const { result } = await compatRun(pair);
    assert.equal(result.changes[0]!.clients, 'unknown');
    const onlyRun = result.agreements.find((a) => a.kind === 'execution-only' && a.side === 'clients');
    assert.ok(onlyRun, renderCompatConsole(result));
    assert.match(
      onlyRun.explanation,
      /^the execution stands: PS-[A-Z]+-\d{3} .* shows a request an existing client gets wrong, where the rules could not tell for C1: the execution decides, clients break$/,
    );
    assert.equal(result.sides.clients.verdict, 'breaks');
    assert.match(renderCompatConsole(result), /Found by execution, which no rule called breaking/);
  });
});
