// The proof by execution, for each pair of test/compat/pairs.ts: the checks
// of the old document run against the reference serving the new one, and
// the checks of the new document against the reference serving the old one
// (in process, on 127.0.0.1). Each side a change breaks gets its proof (a
// failing check tied to the change, with its Expected, Actual and curl
// line), or, where the reference cannot show it, the rule stands alone and
// the result says why; a compatible pair gives no failing check.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compat } from '../../conformance/compat/compat.js';
import { renderCompatConsole, renderCompatMarkdown } from '../../conformance/compat/report.js';
import { loadSpecModel, type SpecModel } from '../../conformance/model/spec-model.js';
import { PAIRS, slugOf, writePair } from './pairs.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-compat-run-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('compat execution', { timeout: 300_000, concurrency: 2 }, () => {
  for (const pair of PAIRS) {
    it(`${pair.name}: exit ${pair.exit}, each breaking side proven or said why not`, async () => {
      const paths = writePair(pair, dir, slugOf(pair.name));
      const result = await compat({ base: { label: 'old.yaml', path: paths.base }, head: { label: 'new.yaml', path: paths.head }, seed: 7, cases: 10, timeoutMs: 15_000 });
      const shown = renderCompatConsole(result);
      const models = { base: loadSpecModel(paths.base), head: loadSpecModel(paths.head) };
      assert.equal(result.exitCode, pair.exit, shown);
      for (const side of ['clients', 'servers'] as const) {
        assert.equal(result.execution?.[side].notChecked, undefined, shown);
        const expected = pair.proof?.[side];
        const change = result.changes.find((c) => c[side] === 'breaks');
        if (!expected) {
          // No rule says this side breaks: no failing check is tied to a change the rules called breaking.
          assert.equal(change, undefined, `${side}: ${shown}`);
          if (pair.exit === 0) assert.equal(result.findings.filter((f) => f.side === side).length, 0, shown);
          continue;
        }
        assert.ok(change, `${side}: a change breaks it`);
        const agreement = result.agreements.find((a) => a.change === change.id && a.side === side);
        assert.equal(agreement?.kind, expected === 'proof' ? 'proven' : 'rule-only', `${side}: ${shown}`);
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
          assert.ok(findings.some((f) => shown.includes(`proof: ${f.check.id} ${f.check.outcome}`)), shown);
          assert.match(renderCompatMarkdown(result), /```sh\ncurl /);
        } else {
          assert.match(shown, /no check fails/);
          // Where the pair says so, the documents' own validators show the rule: one accepts the body, the other refuses it.
          if (pair.witness?.includes(side)) {
            const w = agreement!.witness;
            assert.ok(w, `${side}: a witness: ${agreement!.explanation}`);
            const [accepting, refusing] = w.validUnder === 'old' ? [models.base, models.head] : [models.head, models.base];
            const validate = (m: SpecModel) => (w.role === 'request' ? m.create!.validateRequest(w.body).length : (m.create!.success.validate?.(w.body) ?? []).length);
            assert.equal(validate(accepting), 0, JSON.stringify(w));
            assert.ok(validate(refusing) > 0, JSON.stringify(w));
            assert.match(agreement!.explanation, /^the rule stands, as the documents' own validators show/);
          } else assert.equal(agreement!.witness, undefined);
        }
      }
    });
  }

  it('a pattern the rules cannot compare is shown by execution: a check fails that no rule called breaking, and the report says the rules missed it', async () => {
    const pair = PAIRS.find((p) => p.name.startsWith('a pattern changed'))!;
    const paths = writePair(pair, dir, 'pattern-again');
    const result = await compat({ base: { label: 'old.yaml', path: paths.base }, head: { label: 'new.yaml', path: paths.head }, seed: 7, cases: 10, timeoutMs: 15_000 });
    assert.equal(result.changes[0]!.clients, 'unknown');
    const onlyRun = result.agreements.find((a) => a.kind === 'execution-only' && a.side === 'clients');
    assert.ok(onlyRun, renderCompatConsole(result));
    assert.match(onlyRun.explanation, /^the execution stands: PS-[A-Z]+-\d{3} .* shows a request an existing client gets wrong, where the rules could not tell for C1: the execution decides, clients break$/);
    assert.equal(result.sides.clients.verdict, 'breaks');
    assert.match(renderCompatConsole(result), /Found by execution, which no rule called breaking/);
  });
});
