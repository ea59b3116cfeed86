// The Action's step summary and masks, from a report alone: the token and
// each run of 8 of its characters masked in every form a target writes it,
// and hostile text from a target kept inside its code block.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { JsonReport } from '../../conformance/report/json.js';
import { maskedValues, summaryMarkdown, worseCode } from '../../scripts/action.js';

describe("the GitHub Action's summary and masks", { timeout: 60_000 }, () => {
  it('maskedValues: the token, each run of 8 of its characters in each form a target writes it; nothing for no token', () => {
    assert.deepEqual(maskedValues(''), []);
    assert.deepEqual(maskedValues('short'), ['short']);
    const values = maskedValues('abcdefghij/k');
    for (const value of [
      'abcdefghij/k',
      'abcdefgh',
      'bcdefghi',
      'defghij/',
      'efghij/k',
      'abcdefghij\\/k',
      'fghij\\/k',
      'abcdefghij%2Fk',
      'ghij%2Fk',
    ])
      assert.ok(values.includes(value), value);
  });

  it('hostile text from a target stays inside its code block', () => {
    const report = {
      seed: 1,
      strict: false,
      lint: [],
      targets: [
        {
          name: 'target',
          url: 'http://127.0.0.1:1',
          role: 'target',
          informs: false,
          summary: { pass: 0, 'non-strict': 0, fail: 1, skip: 0, error: 0 },
          results: [
            {
              id: 'PS-X-001',
              title: 'a title',
              level: 'MUST',
              outcome: 'fail',
              requirement: 'r',
              source: { document: 'RFC 9110', section: '§1', url: null },
              expected: '200',
              actual: 'body ```\n# injected heading\n```',
              reproduce: "curl -sS 'http://127.0.0.1:1/plants'",
            },
          ],
        },
      ],
    } as unknown as JsonReport;
    const md = summaryMarkdown(report, 1, {
      target: 'http://127.0.0.1:1',
      token: '',
      strict: false,
      seed: '',
      reports: 'r',
    });
    const block = md.slice(md.indexOf('Actual:'));
    assert.match(
      block,
      /^Actual:\n````\nbody ```\n# injected heading\n```\n````$/m,
      'the fence is longer than any backtick run inside',
    );
  });

  it('a check that failed before the target stopped answering: FAILED, and the request after which it went silent with its curl line', () => {
    const reproduce = "curl -sS -X POST 'http://127.0.0.1:1/plants' --data-binary '[[[['";
    const report = {
      seed: 1,
      strict: false,
      lint: [],
      targets: [
        {
          name: 'target',
          url: 'http://127.0.0.1:1',
          role: 'target',
          informs: false,
          unreachable: 'target closed the connection before answering (5 requests in a row got no answer)',
          stoppedBy: { check: 'PS-ROBUST-001', method: 'POST', path: '/plants', case: 'unclosed [', reproduce },
          summary: { pass: 3, 'non-strict': 0, fail: 1, skip: 0, error: 2 },
          results: [],
        },
      ],
    } as unknown as JsonReport;
    const md = summaryMarkdown(report, 1, {
      target: 'http://127.0.0.1:1',
      token: '',
      strict: false,
      seed: '',
      reports: 'r',
    });
    assert.match(
      md,
      /^## Plant Store conformance: FAILED: a check failed \(and the harness could not finish: see below\)$/m,
    );
    assert.match(
      md,
      /^It stopped answering after PS-ROBUST-001's POST \/plants \\\(unclosed \\\[\\\); every verdict reached before stands\.$/m,
    );
    assert.ok(md.includes(reproduce), md);
  });

  it('the step keeps findings: compat or the harness finding something makes it 1, even where the other could not run', () => {
    assert.equal(worseCode(1, 2), 1);
    assert.equal(worseCode(2, 1), 1);
    assert.equal(worseCode(0, 2), 2);
    assert.equal(worseCode(0, 0), 0);
  });
});
