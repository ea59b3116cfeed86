// The test runner (scripts/run-tests.mjs) gives every test file a deadline:
// a file that hangs fails by name, whether its event loop is blocked (a
// synchronous retry loop, as sonic-boom's flushSync on EBADF) or merely kept
// alive by a handle, and the files beside it still run and pass. The run
// ends with a summary that names every failed, cancelled and timed-out file.
// The files it runs are test/fixtures/run-tests/.
import { strict as assert } from 'node:assert';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runProcess } from '../../lib/process.js';
import { fixturePath } from '../support/fixtures.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RUN_TESTS = join(ROOT, 'scripts', 'run-tests.mjs');
const dir = mkdtempSync(join(tmpdir(), 'plantstore-run-tests-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('scripts/run-tests.mjs', { timeout: 120_000 }, () => {
  let out = '';
  let code: number | null = null;
  before(async () => {
    for (const name of readdirSync(fixturePath('run-tests')).filter((f) => f.endsWith('.mjs'))) {
      copyFileSync(fixturePath(`run-tests/${name}`), join(dir, name.replace('.mjs', '.test.js')));
    }
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    // NODE_TEST_CONTEXT unset: the inner runner is a runner of its own, not a child reporting to this one.
    // The hanging files never end by themselves: only the deadline can end them, so the verdict does not depend on timing.
    const run = await runProcess({
      file: process.execPath,
      args: [RUN_TESTS, dir],
      env: { TEST_FILE_TIMEOUT_MS: '3000', NODE_TEST_CONTEXT: undefined },
      timeoutMs: 90_000,
      name: 'run-tests',
    });
    code = run.code;
    out = run.lines.join('\n');
  });

  /** The summary's lines: everything after its heading. */
  const summary = () => out.slice(out.lastIndexOf('== run-tests summary'));

  it('fails a run with a failing, a cancelled or a hanging file', () => {
    assert.equal(code, 1, out);
  });

  it('ends with a summary that counts the files', () => {
    assert.ok(out.includes('== run-tests summary'), out);
    assert.match(summary(), /\n6 files: 2 passed, 1 failed, 1 cancelled, 2 timed out, in \d/);
  });

  it('names each hanging file as timed out, whether its event loop is blocked or a timer keeps it alive', () => {
    assert.match(summary(), /\ntimed out: \S*blocked\.test\.js\n/);
    assert.match(summary(), /\ntimed out: \S*kept-alive\.test\.js\n/);
    assert.match(summary(), /test timed out after 3000ms/);
  });

  it('names the file whose subtest was cancelled, and the subtest', () => {
    assert.match(
      summary(),
      /\ncancelled: \S*cancelled\.test\.js\n\s+is left pending: test did not finish before its parent/,
    );
  });

  it('names the failing file, its failing test and the assertion', () => {
    assert.match(
      summary(),
      /\nfailed: \S*failing\.test\.js\n\s+expects one to be two: Expected values to be strictly equal/,
    );
  });

  it('still runs the files beside them, and does not name them', () => {
    assert.match(out, /✔ passes/);
    assert.match(out, /✔ runs with PLANTSTORE_TEST_MATRIX=unset/);
    assert.doesNotMatch(summary(), /passing\.test\.js|matrix\.test\.js/);
  });

  it('--full-matrix runs only the files with a long matrix, each with every row', async () => {
    const run = await runProcess({
      file: process.execPath,
      args: [RUN_TESTS, '--full-matrix', dir],
      env: { TEST_FILE_TIMEOUT_MS: '3000', NODE_TEST_CONTEXT: undefined, PLANTSTORE_TEST_MATRIX: undefined },
      timeoutMs: 90_000,
      name: 'run-tests --full-matrix',
    });
    const text = run.lines.join('\n');
    assert.equal(run.code, 0, text);
    assert.match(text, /✔ runs with PLANTSTORE_TEST_MATRIX=full/);
    assert.match(text, /\n1 file: 1 passed, 0 failed, 0 cancelled, 0 timed out/);
  });
});

// A matrix cut from npm test must still run somewhere: CI runs it in full after the README's command.
describe('the long matrices in CI', () => {
  it('.ci/run runs npm run test:full after npm test, and test:full is run-tests.mjs --full-matrix', () => {
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    const tests = ci.indexOf('\nnpm test\n');
    assert.ok(tests > 0, '.ci/run runs npm test');
    assert.ok(ci.indexOf('\nnpm run test:full\n') > tests, '.ci/run runs npm run test:full after npm test');
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    assert.match(scripts['test:full'] ?? '', /node scripts\/run-tests\.mjs --full-matrix test$/);
  });
});

// The costliest files start first (scripts/test-order.mjs): the order changes when files start, never what they run.
describe('the order in which the files start', () => {
  interface Cost {
    cpu: number;
    wall: number;
  }
  interface TestOrder {
    orderByCost: (files: string[], costs: Map<string, Cost>, testRoot: string) => string[];
    readCosts: (url?: URL) => Map<string, Cost>;
  }
  const load = async () => (await import(pathToFileURL(join(ROOT, 'scripts', 'test-order.mjs')).href)) as TestOrder;
  const root = join('dist', 'test');
  const file = (name: string) => join(root, name);

  it('starts the files by their measured wall time, longest first; equal costs keep their order', async () => {
    const { orderByCost } = await load();
    const costs = new Map([
      ['a/short.test.js', { cpu: 1, wall: 1 }],
      ['a/long.test.js', { cpu: 5, wall: 60 }],
      ['b/twin-1.test.js', { cpu: 2, wall: 10 }],
      ['b/twin-2.test.js', { cpu: 9, wall: 10 }],
    ]);
    const files = ['a/short.test.js', 'b/twin-1.test.js', 'a/long.test.js', 'b/twin-2.test.js'].map(file);
    assert.deepEqual(
      orderByCost(files, costs, root),
      ['a/long.test.js', 'b/twin-1.test.js', 'b/twin-2.test.js', 'a/short.test.js'].map(file),
    );
  });

  it('takes a file it has no cost for to cost the median, and keeps every file, once', async () => {
    const { orderByCost } = await load();
    const costs = new Map([
      ['one.test.js', { cpu: 1, wall: 1 }],
      ['five.test.js', { cpu: 5, wall: 5 }],
      ['nine.test.js', { cpu: 9, wall: 9 }],
    ]);
    const files = ['one.test.js', 'new.test.js', 'nine.test.js', 'five.test.js'].map(file);
    assert.deepEqual(
      orderByCost(files, costs, root),
      ['nine.test.js', 'new.test.js', 'five.test.js', 'one.test.js'].map(file),
    );
    assert.deepEqual(orderByCost(files, new Map(), root), files, 'no costs: the order given');
  });

  it('runs the files in that order: the costlier of two passing files first, whatever their names', async () => {
    const files = mkdtempSync(join(tmpdir(), 'plantstore-run-order-'));
    try {
      writeFileSync(join(files, 'package.json'), '{"type":"module"}');
      copyFileSync(fixturePath('run-tests/matrix.mjs'), join(files, 'a-cheap.test.js'));
      copyFileSync(fixturePath('run-tests/passing.mjs'), join(files, 'z-costly.test.js'));
      // Keyed as run-tests.mjs keys them: under dist/test/ of the folder it runs in.
      const key = (name: string) => relative(join(process.cwd(), 'dist', 'test'), join(files, name));
      const costs = {
        files: { [key('a-cheap.test.js')]: { cpu: 1, wall: 1 }, [key('z-costly.test.js')]: { cpu: 9, wall: 9 } },
      };
      writeFileSync(join(files, 'costs.json'), JSON.stringify(costs));
      const run = await runProcess({
        file: process.execPath,
        args: [RUN_TESTS, files],
        env: { TEST_CONCURRENCY: '1', TEST_COSTS_FILE: join(files, 'costs.json'), NODE_TEST_CONTEXT: undefined },
        timeoutMs: 90_000,
        name: 'run-tests in cost order',
      });
      const text = run.lines.join('\n');
      assert.equal(run.code, 0, text);
      const costly = text.indexOf('✔ passes');
      const cheap = text.indexOf('✔ runs with PLANTSTORE_TEST_MATRIX');
      assert.ok(costly >= 0 && cheap >= 0, text);
      assert.ok(costly < cheap, `z-costly.test.js ran first:\n${text}`);
    } finally {
      rmSync(files, { recursive: true, force: true });
    }
  });

  // A stale entry (a file renamed since the profile) costs nothing but its place: it is never a failure.
  it('reads scripts/test-costs.json: a cost for most test files, each a wall time', async () => {
    const { readCosts } = await load();
    const costs = readCosts();
    assert.ok(costs.size > 100, `${costs.size} costs`);
    for (const [key, cost] of costs) assert.ok(key.endsWith('.test.js') && cost.wall > 0 && cost.cpu >= 0, key);
  });
});
