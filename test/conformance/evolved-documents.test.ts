// The harness and the server follow the document as it evolves. For each
// evolved document of test/fixtures/ (one change a spec author would make):
// `--reference --spec FILE` exits 0 (the reference server, serving that
// document, passes the harness derived from it), and the fake server's
// baseline, which follows only today's document, is reported: the check
// named in test/support/fixtures.ts grades it, and --strict exits 1.
// `npm test` runs one document per check and outcome that reports the fake
// (test/support/matrix.ts), the first through the CLI and the others in
// process: the same reference server, a process serving the document, and
// the same checks, without the CLI's process and the document's lint (each
// document's Spectral lint was about half of the file's CPU; the lint and
// --strict's exit are the first row's, cli.test.ts's and lint.test.ts's).
// `npm run test:full`, in CI, runs every document through the CLI.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { loadSpecModel } from '../../conformance/model/spec-model.js';
import type { JsonReport } from '../../conformance/report/json.js';
import type { CheckResult } from '../../conformance/run/result.js';
import { runTarget } from '../../conformance/run/runner.js';
import { startReference } from '../../conformance/run/targets/reference.js';
import { startFake } from '../support/fake-server.js';
import { EVOLVED_DOCUMENTS, fixturePath, NOT_EVOLVED, type EvolvedDocument } from '../support/fixtures.js';
import { FULL_MATRIX, matrixLabel, matrixRows } from '../support/matrix.js';

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

interface Runs {
  /** The reference server serving the document: the checks it fails, and the outcome of the one that reports the fake. */
  reference: { failing: string[]; reportedBy: string | undefined };
  /** The fake baseline, which follows only today's document, graded by that check. */
  ignored: Pick<CheckResult, 'outcome' | 'actual' | 'reproduce'>;
}

const failing = (results: readonly Pick<CheckResult, 'id' | 'outcome' | 'actual'>[]) =>
  results.filter((r) => r.outcome === 'fail' || r.outcome === 'error').map((r) => `${r.id} ${r.outcome}: ${r.actual}`);

/** `--reference --spec FILE` (exit 0), then the fake through `--target --spec FILE --strict --only CHECK` (exit 1). */
async function runsThroughTheCli(doc: EvolvedDocument): Promise<Runs> {
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
  assert.equal(run.code, 1, run.stdout + run.stderr);
  const passed = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
  assert.equal(passed.targets[0]!.summary.fail, 0);
  return {
    reference: { failing: failing(passed.targets[0]!.results), reportedBy: resultOf(passed, doc.reportedBy).outcome },
    ignored: resultOf(JSON.parse(readFileSync(ignored, 'utf8')) as JsonReport, doc.reportedBy),
  };
}

/** The same runs in this process: the reference server (a process of its own) serving the document, and the fake. */
async function runsInProcess(doc: EvolvedDocument): Promise<Runs> {
  const spec = fixturePath(doc.file);
  const model = loadSpecModel(spec);
  const run = { model, targets: [], seed: 5, cases: 5, timeoutMs: 10_000 };
  const reference = await startReference({ specPath: spec });
  const passed = await runTarget(run, reference.target).finally(() => reference.stop());
  const fake = await startFake({ tokens: ['evolved'] });
  const reported = await runTarget(
    { ...run, only: [doc.reportedBy] },
    { name: 'fake', url: fake.url, token: 'evolved', role: 'target', informs: false, restrictsTokens: false },
  ).finally(() => fake.close());
  return {
    reference: {
      failing: failing(passed.results),
      reportedBy: passed.results.find((r) => r.id === doc.reportedBy)?.outcome,
    },
    ignored: reported.results.find((r) => r.id === doc.reportedBy)!,
  };
}

// Two fixtures at a time: each runs two CLIs, one after the other.
describe(
  `evolved documents, ${matrixLabel(ROWS.length, EVOLVED_DOCUMENTS.length)}`,
  { concurrency: 2, timeout: 600_000 },
  () => {
    for (const doc of ROWS) {
      const throughCli = FULL_MATRIX || doc === ROWS[0];
      it(`${doc.file} (${doc.change}): the reference server passes, a server that ignores the change is reported${throughCli ? ' (through the CLI)' : ' (in process)'}`, async () => {
        const { reference, ignored } = await (throughCli ? runsThroughTheCli : runsInProcess)(doc);
        assert.deepEqual(reference.failing, [], 'no check fails the reference server');
        assert.equal(reference.reportedBy, 'pass', `${doc.reportedBy} passes on the reference server`);
        assert.equal(ignored.outcome, doc.outcome, `${doc.reportedBy}: ${ignored.actual}`);
        // The request and the answer that show it: the curl line, and the answer's status in the Actual.
        assert.match(ignored.reproduce ?? '', /curl |node -e/);
        assert.match(ignored.actual ?? '', /\b[1-5]\d\d\b/);
      });
    }

    it('lists every evolved document of test/fixtures/ with what reports a server that ignores it', () => {
      const files = readdirSync(fixturePath('.')).filter((f) => f.endsWith('.yaml') && !NOT_EVOLVED.includes(f));
      assert.deepEqual(files.sort(), EVOLVED_DOCUMENTS.map((d) => d.file).sort());
    });
  },
);
