// The harness and the server follow the document as it evolves. For each
// evolved document of test/fixtures/ (one change a spec author would make):
// `--reference --spec FILE` exits 0 (the reference server, serving that
// document, passes the harness derived from it), and the fake server's
// baseline, which follows only today's document, is reported: the check
// named in test/support/fixtures.ts grades it, and --strict exits 1.
// `npm test` runs one document per check and outcome that reports the fake
// (test/support/matrix.ts); `npm run test:full`, in CI, runs every document.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import type { JsonReport } from '../../conformance/report/json.js';
import { startFake } from '../support/fake-server.js';
import { EVOLVED_DOCUMENTS, fixturePath, NOT_EVOLVED } from '../support/fixtures.js';
import { matrixLabel, matrixRows } from '../support/matrix.js';

const CLI = fileURLToPath(new URL('../../conformance/cli/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'plantstore-evolved-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, NO_COLOR: '1' }, timeout: 180_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

function resultOf(report: JsonReport, id: string) {
  return report.targets[0]!.results.find((r) => r.id === id)!;
}

// One row per way the fake is reported: the check that reports it and the outcome.
const ROWS = matrixRows(EVOLVED_DOCUMENTS, (doc) => `${doc.reportedBy} ${doc.outcome}`);

// Two fixtures at a time: each runs two CLIs, one after the other.
describe(
  `evolved documents, ${matrixLabel(ROWS.length, EVOLVED_DOCUMENTS.length)}`,
  { concurrency: 2, timeout: 600_000 },
  () => {
    for (const doc of ROWS) {
      it(`${doc.file} (${doc.change}): the reference server passes, a server that ignores the change is reported`, async () => {
        const spec = fixturePath(doc.file);
        const json = join(dir, `${doc.file}.reference.json`);
        const ignored = join(dir, `${doc.file}.fake.json`);
        const fake = await startFake({ tokens: ['evolved'] });
        // One run after the other: the second reads the document's lint from the cache the first filled
        // (conformance/model/lint-cache.ts), instead of linting it again beside it. The fake server answers
        // from this process, the CLIs are children. The reference runs the whole catalog (none fails it);
        // the fake only the check that reports it (none of them is an aggregate check): --strict's exit 1
        // is then that check's alone. What the rest of the catalog says of the fake baseline on today's
        // document is checks.mutants.test.ts's (every check passes it).
        const reference = await cli(['--reference', '--spec', spec, '--cases', '5', '--seed', '5', '--json', json]);
        const run = await cli([
          '--target',
          fake.url,
          '--token',
          'evolved',
          '--spec',
          spec,
          '--cases',
          '5',
          '--seed',
          '5',
          '--strict',
          '--only',
          doc.reportedBy,
          '--json',
          ignored,
        ]).finally(() => fake.close());

        assert.equal(reference.code, 0, reference.stdout + reference.stderr);
        const passed = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
        assert.equal(passed.targets[0]!.summary.fail, 0);
        assert.equal(
          resultOf(passed, doc.reportedBy).outcome,
          'pass',
          `${doc.reportedBy} passes on the reference server`,
        );

        assert.equal(run.code, 1, run.stdout + run.stderr);
        const result = resultOf(JSON.parse(readFileSync(ignored, 'utf8')) as JsonReport, doc.reportedBy);
        assert.equal(result.outcome, doc.outcome, `${doc.reportedBy}: ${result.actual}`);
        // The request and the answer that show it: the curl line, and the answer's status in the Actual.
        assert.match(result.reproduce ?? '', /curl |node -e/);
        assert.match(result.actual ?? '', /\b[1-5]\d\d\b/);
      });
    }

    it('lists every evolved document of test/fixtures/ with what reports a server that ignores it', () => {
      const files = readdirSync(fixturePath('.')).filter((f) => f.endsWith('.yaml') && !NOT_EVOLVED.includes(f));
      assert.deepEqual(files.sort(), EVOLVED_DOCUMENTS.map((d) => d.file).sort());
    });
  },
);
