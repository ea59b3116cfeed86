// The npm package, as a user gets it: `npm pack`, then `npm i --omit=dev
// ./plantstore-*.tgz` into an empty folder. The tarball holds the compiled
// harness and server, the document, the divergence file, the ruleset and the
// type declarations, and nothing of the tests; installed without the
// development dependencies, `npx plantstore-server` serves the API and
// `npx plantstore-conformance --target` passes against it (exit 0), and the
// exports load. Installs come from npm's cache when it has the packages
// (`npm ci` put them there), else from the registry. Run by `npm run
// test:package` (and `.ci/run`), not `npm test`: the install takes CPU and
// seconds the unit tests should not share.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { runProcess, startProcess, type StartedProcess } from '../lib/process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
// npm's own variables (set when `npm test` runs this file) would point the nested npm at this project.
const CLEAN_ENV = Object.fromEntries(
  Object.keys(process.env)
    .filter((k) => k.toLowerCase().startsWith('npm_'))
    .map((k) => [k, undefined]),
);
const LISTENING = /"msg":"Server listening at (http:\/\/[^"\s]+)"/;

const folder = mkdtempSync(join(tmpdir(), 'plantstore-package-'));
const installed = join(folder, 'user');
let packed: string[];
let tarball: string;

async function run(
  file: string,
  args: string[],
  cwd: string,
  timeoutMs = 180_000,
  env: Record<string, string | undefined> = {},
) {
  const result = await runProcess({
    file,
    args,
    cwd,
    env: { ...CLEAN_ENV, ...env },
    timeoutMs,
    name: `${file} ${args.join(' ')}`,
  });
  return { ...result, stdout: result.lines.join('\n') };
}

before(async () => {
  // `npm test` builds the JavaScript; the declarations are the package build's (`prepare` makes both).
  const types = await run(process.execPath, [TSC, '-p', 'tsconfig.package.json'], ROOT);
  assert.equal(types.code, 0, types.stdout + types.stderr);
  // --ignore-scripts: `prepare` would rebuild dist/ under the tests running beside this one.
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', folder], ROOT);
  assert.equal(pack.code, 0, pack.stderr);
  const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = info!.files.map((f) => f.path);
  tarball = join(folder, info!.filename);
  mkdirSync(installed);
  writeFileSync(join(installed, 'package.json'), '{"name": "a-user", "private": true}\n');
  const install = await run(
    'npm',
    ['i', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', tarball],
    installed,
  );
  assert.equal(install.code, 0, install.stdout + install.stderr);
});

after(() => rmSync(folder, { recursive: true, force: true }));

describe('the npm package', () => {
  it('holds the harness, the server, the document, the divergence file, the ruleset and types, and no tests', () => {
    for (const file of [
      'dist/conformance/cli/main.js',
      'dist/conformance/index.js',
      'dist/conformance/index.d.ts',
      'dist/server/start.js',
      'dist/server/start.bundle.mjs',
      'dist/server/app.js',
      'dist/server/app.d.ts',
      'spec/openapi.yaml',
      'conformance/differential/divergences/prism.json',
      '.spectral.yaml',
      'package.json',
    ]) {
      assert.ok(packed.includes(file), `${file} is in the tarball`);
    }
    assert.deepEqual(
      packed.filter((f) => /(^|\/)test\/|\.test\.|\.map$|\.ts$/.test(f) && !f.endsWith('.d.ts')),
      [],
      'no tests, sources or source maps',
    );
  });

  it('installed with --omit=dev: npx plantstore-server serves the API and npx plantstore-conformance --target passes against it', async () => {
    let server: StartedProcess | undefined;
    try {
      server = await startProcess({
        file: 'npx',
        args: ['--no-install', 'plantstore-server'],
        cwd: installed,
        env: { ...CLEAN_ENV, PORT: '0', HOST: '127.0.0.1', PLANTSTORE_TOKENS: 'T', LOG_LEVEL: 'info' },
        group: true,
        readyLine: LISTENING,
        timeoutMs: 30_000,
        name: 'npx plantstore-server',
      });
      const harness = await run(
        'npx',
        ['--no-install', 'plantstore-conformance', '--target', server.url!, '--token', 'T', '--json', 'out.json'],
        installed,
        120_000,
      );
      assert.equal(harness.code, 0, harness.stdout + harness.stderr);
      assert.match(harness.stdout, /^OK: 1 target\(s\)/m);
      const report = JSON.parse(readFileSync(join(installed, 'out.json'), 'utf8')) as {
        targets: Array<{ summary: Record<string, number> }>;
      };
      assert.equal(report.targets[0]!.summary.fail, 0);
      assert.equal(report.targets[0]!.summary.error, 0);
    } finally {
      await server?.stop();
    }
  });

  it('installed: --reference starts the server inside the package, and --help answers', async () => {
    const reference = await run(
      'npx',
      ['--no-install', 'plantstore-conformance', '--reference', '--only', 'PS-AUTH-001'],
      installed,
      120_000,
    );
    assert.equal(reference.code, 0, reference.stdout + reference.stderr);
    assert.match(reference.stderr, /reference: the project's server at http:\/\/127\.0\.0\.1:\d+/);
    const help = await run('npx', ['--no-install', 'plantstore-conformance', '--help'], installed);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: plantstore-conformance/m);
    assert.match(help.stdout, /--rate-limit N/);
  });

  it('installed: plantstore/server exports buildApp and plantstore/conformance the harness', async () => {
    writeFileSync(
      join(installed, 'use.mjs'),
      `import { buildApp } from 'plantstore/server';
import { catalog, loadSpecModel, main } from 'plantstore/conformance';
const app = buildApp({ tokens: ['T'] });
const res = await app.inject({ method: 'POST', url: '/plants', headers: { authorization: 'Bearer T', 'content-type': 'application/json' }, payload: '{"id": 1, "name": "Fern"}' });
console.log(JSON.stringify({ status: res.statusCode, body: res.body, checks: catalog.length, operation: loadSpecModel().create.path, main: typeof main }));
await app.close();
`,
    );
    const used = await run(process.execPath, ['use.mjs'], installed);
    assert.equal(used.code, 0, used.stderr);
    const seen = JSON.parse(used.stdout) as {
      status: number;
      body: string;
      checks: number;
      operation: string;
      main: string;
    };
    assert.deepEqual(
      { ...seen, checks: seen.checks > 0 },
      { status: 200, body: '{"name":"Fern"}', checks: true, operation: '/plants', main: 'function' },
    );
  });
});
