// `npm run build` (which `npm test` runs first) never takes dist/ away from
// what runs from it: it compiles into a fresh folder and swaps it in
// (scripts/build.mjs). Here in a copy of the project, so that the suite's own
// dist/ is left alone: a server started from dist/ keeps answering through
// the build, one started while the build is under way starts, dist/ is whole
// every time it is looked at, and the new build serves.
//
// The copy compiles what the servers and the CLI run from (lib/, spec/,
// server/, conformance/): how the build swaps dist/ in does not depend on how
// much it compiles, and compiling the tests and tools as well cost a fifth
// of the file's CPU time (every npm test's own build compiles them, and
// fails on a type error anywhere).
import assert from 'node:assert/strict';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runProcess, startProcess, type StartedProcess } from '../../lib/process.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url)); // from dist/test/suite/
const COMPILED = ['lib', 'spec', 'server', 'conformance'];
const COPIED = ['package.json', 'tsconfig.package.json', 'scripts', ...COMPILED, 'dist'];

const copy = mkdtempSync(join(tmpdir(), 'plantstore-build-'));
after(() => rmSync(copy, { recursive: true, force: true }));

function startServer(): Promise<StartedProcess> {
  return startProcess({
    file: process.execPath,
    args: [join(copy, 'dist', 'server', 'start.bundle.mjs')],
    env: { PORT: '0', HOST: '127.0.0.1', PLANTSTORE_TOKENS: 't' },
    readyLine: /Server listening at (http:\/\/[^\s"]+)/,
    timeoutMs: 60_000,
    name: 'a server from dist/',
  });
}

async function health(server: StartedProcess): Promise<number> {
  return (await fetch(`${server.url}/__health`)).status;
}

test(
  'the build swaps a whole dist/ in: servers from dist/ start and answer throughout',
  { timeout: 600_000 },
  async () => {
    for (const entry of COPIED) cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
    // The project's compiler options, on the code the servers and the CLI run from.
    const tsconfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { include: string[] };
    tsconfig.include = COMPILED.map((folder) => `${folder}/**/*.ts`);
    writeFileSync(join(copy, 'tsconfig.json'), JSON.stringify(tsconfig));
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
    const servers = [await startServer()];
    try {
      const build = runProcess({
        file: 'npm',
        args: ['run', 'build', '--silent'],
        cwd: copy,
        env: { npm_config_update_notifier: 'false' },
        timeoutMs: 540_000,
      });
      let done = false;
      void build.finally(() => (done = true));
      let looks = 0;
      let sawFreshBuild = false;
      const missing: string[] = [];
      const statuses = new Set<number>();
      while (!done) {
        looks++;
        for (const file of ['server/start.bundle.mjs', 'conformance/cli/main.js', 'spec/openapi.parsed.json'])
          if (!existsSync(join(copy, 'dist', file))) missing.push(`dist/${file} (look ${looks})`);
        statuses.add(await health(servers[0]!));
        if (!sawFreshBuild && readdirSync(copy).some((name) => name.startsWith('dist.build-'))) {
          // The build is under way: a server started now starts from the previous build.
          sawFreshBuild = true;
          const second = await startServer();
          servers.push(second);
          assert.equal(await health(second), 200);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const { code, stderr } = await build;
      assert.equal(code, 0, stderr);
      assert.deepEqual(missing, [], 'dist/ was whole every time it was looked at');
      assert.deepEqual([...statuses], [200], 'the server started before the build answered every time');
      assert.ok(sawFreshBuild, 'the build compiled into a folder of its own');
      assert.equal(await health(servers[0]!), 200);
      assert.deepEqual(
        readdirSync(copy).filter((name) => name.startsWith('dist.')),
        [],
        'no build folder is left behind',
      );
      const fresh = await startServer();
      servers.push(fresh);
      assert.equal(await health(fresh), 200, 'the new build serves');
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  },
);
