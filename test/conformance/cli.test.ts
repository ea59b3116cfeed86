// The CLI end to end: a spawned `node dist/conformance/cli/main.js` against the
// fake server's baseline (exit 0), against mutants (exit 1, the failing
// check named with a curl line), with bad arguments and an unreachable
// target (exit 2). The length of the output of a whole run that fails many
// checks for one cause is first-run.test.ts's (it shares that run).
import { catalog } from '../../conformance/checks/index.js';
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { freePort } from '../../lib/process.js';
import { OPTIONS } from '../../conformance/cli/options.js';
import { OPENAPI_PATH } from '../../spec/openapi.js';
import { startFake } from '../support/fake-server.js';
import type { FakeOptions } from '../support/fake-mutations.js';
import { RULED_OUT } from '../support/ruled-out.js';

const CLI = fileURLToPath(new URL('../../conformance/cli/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'plantstore-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

// Asynchronous on purpose: the fake server answers from this process's event loop.
function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, ...env, NO_COLOR: '1' }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function withFake<T>(opts: FakeOptions, body: (url: string) => Promise<T>): Promise<T> {
  const fake = await startFake({ tokens: ['cli-token'], ...opts });
  try {
    return await body(fake.url);
  } finally {
    await fake.close();
  }
}

describe('plantstore-conformance CLI', { timeout: 300_000 }, () => {
  it('exits 0 against the baseline and writes the JSON and JUnit reports', async () => {
    const json = join(dir, 'ok.json');
    const junit = join(dir, 'ok.xml');
    const r = await withFake({}, (url) =>
      cli(['--target', url, '--invalid-token', '--seed', '11', '--cases', '10', '--json', json, '--junit', junit], {
        PLANTSTORE_TOKEN: 'cli-token',
      }),
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    // The seed's document rules out RULED_OUT checks, each skipping with its reason.
    assert.match(
      r.stdout,
      new RegExp(`${catalog.length - RULED_OUT} pass, 0 non-strict, 0 fail, ${RULED_OUT} skip, 0 error; seed 11`),
    );
    const report = JSON.parse(readFileSync(json, 'utf8'));
    assert.equal(report.seed, 11);
    assert.equal(report.targets.length, 1);
    const t = report.targets[0];
    assert.deepEqual(Object.keys(t.summary).sort(), ['error', 'fail', 'non-strict', 'pass', 'skip']);
    for (const res of t.results) {
      for (const key of ['id', 'title', 'outcome', 'requirement', 'source', 'expected', 'actual', 'reproduce'])
        assert.ok(key in res, `${res.id} has ${key}`);
    }
    // The shipped document against a --target: its lint cannot change the run, so it is not run, and the report says why
    // (rerun-failed.test.ts shows another document linted).
    assert.deepEqual(report.lint, []);
    assert.match(report.lintSkipped, /^the shipped document, against a --target/);
    const xml = readFileSync(junit, 'utf8');
    assert.match(
      xml,
      new RegExp(`<testsuite name="target" tests="${catalog.length}" failures="0" errors="0" skipped="${RULED_OUT}">`),
    );
    assert.equal(xml.match(/<testcase /g)?.length, catalog.length);
  });

  it('runs against a base URL with a path prefix', async () => {
    const r = await withFake({ prefix: '/api/v1' }, (url) =>
      cli([
        '--target',
        `${url}/api/v1/`,
        '--token',
        'cli-token',
        '--cases',
        '5',
        '--only',
        'PS-ACCEPT-001,PS-AUTH-001,PS-HTTP-001',
      ]),
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /3 checks, 3 pass/);
    // A narrow run's coverage is its counts, in one line and a note: what the other checks would exercise is no news.
    const coverage = r.stdout.slice(r.stdout.indexOf('Coverage of the document')).split('\n');
    assert.match(coverage[1]!, /^ {2}\(--only: what the other checks would exercise is not listed/);
    assert.doesNotMatch(r.stdout, /not exercised: |no target gave it/);
  });

  const mutants: Array<[keyof FakeOptions, string]> = [
    ['coerceStrings', 'PS-REJECT-002'],
    ['noWwwAuthenticate', 'PS-AUTH-001'],
    ['roundIds', 'PS-STATE-002'],
  ];
  for (const [mutant, id] of mutants) {
    it(`exits 1 against ${mutant}, naming ${id} and how to reproduce it`, async () => {
      const json = join(dir, `${mutant}.json`);
      // Only the check the mutant breaks: every assertion here is about that check's line, its entry in What failed and
      // its result. How a whole run's failures are grouped in What failed is first-run.test.ts's (the 201 server); that
      // no report shows the token from any check's exchanges, harness-output.test.ts's.
      const r = await withFake({ [mutant]: true }, (url) =>
        cli(['--target', url, '--token', 'cli-token', '--only', id, '--cases', '10', '--seed', '3', '--json', json]),
      );
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const lines = r.stdout.split('\n');
      const line = lines.find((l) => l.includes(id) && l.includes('fail'));
      assert.ok(line, `the output names ${id} as failed:\n${r.stdout}`);
      // The check's line points to its departures in What failed ([n]), where its cause, Expected, Actual and curl line are.
      const ref = /\[(\d+)\]$/.exec(line)?.[1];
      assert.ok(ref, `the line of ${id} points to What failed: ${line}`);
      const entry = lines.findIndex((l) => l.startsWith(`  [${ref}] `));
      assert.ok(entry >= 0, `What failed has entry [${ref}]:\n${r.stdout}`);
      assert.match(lines.slice(entry, entry + 4).join('\n'), new RegExp(id));
      const block = lines.slice(entry, entry + 8).join('\n');
      assert.match(block, /Expected: /);
      assert.match(block, /Actual: /);
      assert.match(block, /Reproduce: (printf .* \| )?curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/plants'/);
      assert.ok(!r.stdout.includes('cli-token'), 'the token is redacted');
      const result = JSON.parse(readFileSync(json, 'utf8')).targets[0].results.find((x: { id: string }) => x.id === id);
      assert.equal(result.outcome, 'fail');
    });
  }

  it('lists both departures of one check in the JSON report, each with its reproduce line', async () => {
    const json = join(dir, 'two-departures.json');
    // Without id read as id 0, without name accepted: PS-REJECT-001 departs on both of its cases.
    const r = await withFake({ zeroValueIds: true, acceptMissingName: true }, (url) =>
      cli(['--target', url, '--token', 'cli-token', '--only', 'PS-REJECT-001', '--json', json]),
    );
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const result = JSON.parse(readFileSync(json, 'utf8')).targets[0].results[0];
    assert.equal(result.outcome, 'fail');
    assert.deepEqual(result.cases.map((c: { case: string }) => c.case).sort(), ['without id', 'without name']);
    for (const c of result.cases) {
      assert.equal(c.check, 'PS-REJECT-001');
      assert.match(c.reproduce, /^curl -sS -i -X POST /);
    }
  });

  it('counts non-strict as failure with --strict', async () => {
    const args = (url: string) => ['--target', url, '--token', 'cli-token', '--only', 'PS-HTTP-001'];
    const lenient = await withFake({ no405: true }, (url) => cli(args(url)));
    assert.equal(lenient.code, 0, lenient.stdout);
    assert.match(lenient.stdout, /non-strict\s+PS-HTTP-001/);
    const strict = await withFake({ no405: true }, (url) => cli([...args(url), '--strict']));
    assert.equal(strict.code, 1, strict.stdout);
  });

  it('exits 2 on bad arguments', async () => {
    for (const args of [
      ['--no-such-flag'],
      ['--target', 'not a url'],
      ['--seed', 'abc'],
      ['--only', 'PS-NOPE-001'],
      ['--target', 'ftp://127.0.0.1/'],
    ]) {
      const r = await cli(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, /plantstore-conformance: /);
    }
  });

  it('exits 2 when the target is unreachable', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await freePort();
    const r = await cli(['--target', `http://127.0.0.1:${port}`, '--timeout', '3000']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      new RegExp(`cannot connect: nothing listens on 127\\.0\\.0\\.1:${port} \\(connection refused\\)`),
    );
  });

  it('exits 2 when the spec does not load', async () => {
    const r = await cli(['--spec', join(dir, 'missing.yaml'), '--target', 'http://127.0.0.1:9']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot read the spec/);
  });

  it('a $ref that resolves to nothing is reported as its author wrote it, with line and column', async () => {
    const text = readFileSync(OPENAPI_PATH, 'utf8').split('\n');
    const at = text.findIndex(
      (l) => l.includes("$ref: '#/components/schemas/Plant'") && l.trimStart().startsWith('- '),
    );
    assert.ok(at >= 0, 'the document has an allOf reference to Plant');
    text[at] = text[at]!.replace("'#/components/schemas/Plant'", "'#/components/schemas/Plantt'");
    const broken = join(dir, 'broken-ref.yaml');
    writeFileSync(broken, text.join('\n'));
    const r = await cli(['--spec', broken, '--target', 'http://127.0.0.1:9']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    const column = text[at].indexOf("'#/") + 1;
    assert.ok(
      r.stderr.includes(
        `cannot read the spec ${broken}:${at + 1}:${column}: $ref at #/components/schemas/NewPlant/allOf/0/$ref: "#/components/schemas/Plantt" resolves to nothing`,
      ),
      r.stderr,
    );
    assert.doesNotMatch(r.stderr, /\$defs/);
  });

  it('says "did you mean" for an unknown option and check, and lists the checks', async () => {
    const option = await cli(['--targt', 'http://127.0.0.1:9']);
    assert.equal(option.code, 2);
    assert.match(option.stderr, /unknown option --targt \(did you mean --target\?\)/);
    const id = await cli(['--only', 'PS-ACEPT-001']);
    assert.equal(id.code, 2);
    assert.match(id.stderr, /no check PS-ACEPT-001 \(did you mean PS-ACCEPT-001\?\); --list shows every check/);
    const list = await cli(['--list']);
    assert.equal(list.code, 0);
    assert.equal(list.stdout.trimEnd().split('\n').length, catalog.length + 1);
    for (const c of catalog)
      assert.match(
        list.stdout,
        new RegExp(`^${c.id}\\s+${c.level}\\s+${c.source.document.replace(/[.()]/g, '\\$&')}, `, 'm'),
      );
    const version = await cli(['--version']);
    assert.match(version.stdout, /^plantstore-conformance \d+\.\d+\.\d+\n$/);
    const short = await cli(['-h']);
    assert.equal(short.code, 0);
    assert.match(short.stdout, /^Usage: plantstore-conformance \[run\] \[options\]/);
  });

  it('prints its help and exits 0', async () => {
    const r = await cli(['--help']);
    assert.equal(r.code, 0);
    for (const flag of [
      '--target',
      '--reference',
      '--token',
      '--seed',
      '--timeout',
      '--strict',
      '--json',
      '--junit',
      '--invalid-token',
    ])
      assert.ok(r.stdout.includes(flag), flag);
    // Every option that sets something has its environment variable, named in the help and in the docs.
    const docs = readFileSync(fileURLToPath(new URL('../../../docs/conformance.md', import.meta.url)), 'utf8');
    for (const o of OPTIONS) {
      assert.ok(docs.includes(`\`--${o.name}`), `docs/conformance.md names --${o.name}`);
      if (['list', 'help', 'version'].includes(o.name)) continue;
      assert.ok(o.env, `--${o.name} has an environment variable`);
      assert.ok(r.stdout.includes(`[${o.env}]`), `the help names ${o.env}`);
      assert.ok(docs.includes(`\`${o.env}\``), `docs/conformance.md names ${o.env}`);
    }
  });
});
