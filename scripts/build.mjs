#!/usr/bin/env node
// Builds dist/ without ever taking it away from what runs from it: the
// TypeScript is compiled into a fresh folder beside it (dist.build-PID), the
// server bundled there, and only a complete build is swapped in, by renaming
// folders. A server started from dist/, a test reading it, an `npm start` in
// another terminal: each finds the whole previous build or the whole new one,
// never an empty or half-written folder (the build used to delete dist/ first,
// for a minute or two of tsc).
//
//   node scripts/build.mjs                  the JavaScript (npm run build)
//   node scripts/build.mjs --declarations   and the package's type declarations
//   node scripts/build.mjs --prepare        npm's `prepare`: both, except under `npm exec`
//                                           (npx) when dist/ is built already
//
// `prepare` runs when npm installs this folder itself (`npm ci`, `npm
// install`), packs it (`npm pack`, `npm publish`), installs it as a git or
// directory dependency, and when `npx plantstore-conformance` runs inside a
// clone: npm then installs the clone into its npx cache, which runs
// `prepare` (docs/development.md). That last one must not rebuild what the
// user is running from: it builds only when dist/ has no build yet.
//
// Two builds at once each swap in a complete build; the later one wins.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');
// Beside dist/, at the same depth: the compiled code finds the document at
// ../../spec/openapi.yaml from either place.
const fresh = join(root, `dist.build-${process.pid}`);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function run(what, args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    rmSync(fresh, { recursive: true, force: true });
    process.stderr.write(`build: ${what} failed (exit ${result.status ?? result.signal}); dist/ is unchanged\n`);
    process.exit(result.status ?? 1);
  }
}

const prepare = process.argv.includes('--prepare');
if (prepare && process.env.npm_command === 'exec' && existsSync(join(dist, 'conformance', 'cli', 'main.js'))) {
  process.stderr.write(
    'plantstore: npx installs this clone into its cache; dist/ is built already and stays as it is (npm run build rebuilds it)\n',
  );
  process.exit(0);
}

rmSync(fresh, { recursive: true, force: true });
mkdirSync(fresh);
await compile(fresh);
run('the server bundle', [join(root, 'scripts', 'bundle-server.mjs'), fresh]);
if (prepare || process.argv.includes('--declarations'))
  run('the type declarations', [tsc, '-p', 'tsconfig.package.json', '--outDir', fresh]);
swapIn(fresh);

/**
 * Compiles every TypeScript file tsconfig.json includes into `out`, file for
 * file, at the same paths tsc would write (esbuild, each file on its own:
 * tsconfig.json's `isolatedModules` keeps the code to what that can compile).
 * It does not type-check: `npm run lint` does (`tsc --noEmit`), and CI runs
 * it before the tests. tsc took about 20 s of every `npm test` to compile
 * what esbuild writes in one or two (docs/development.md).
 */
async function compile(out) {
  const { include, compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'));
  const folders = include.map((pattern) => {
    const folder = /^([\w-]+)\/\*\*\/\*\.ts$/.exec(pattern)?.[1];
    if (folder === undefined) throw new Error(`build: tsconfig.json's include ${pattern} is not FOLDER/**/*.ts`);
    return folder;
  });
  // A folder that is not there (the image's build copies only what the server and the harness need) holds nothing to compile.
  const entryPoints = folders
    .filter((folder) => existsSync(join(root, folder)))
    .flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
        .map((entry) => join(entry.parentPath, entry.name))
        .filter((path) => !path.split(sep).includes('node_modules')),
    );
  try {
    await build({
      entryPoints,
      outdir: out,
      outbase: root,
      bundle: false,
      platform: 'node',
      format: 'esm',
      target: compilerOptions.target.toLowerCase(),
      sourcemap: compilerOptions.sourceMap === true,
      tsconfig: join(root, 'tsconfig.json'),
      logLevel: 'warning',
    });
  } catch {
    rmSync(out, { recursive: true, force: true });
    process.stderr.write('build: esbuild failed (its errors are above); dist/ is unchanged\n');
    process.exit(1);
  }
}

/**
 * Renames the fresh build to dist/: the old one is moved aside first (a
 * rename cannot replace a folder that has files), then removed. Between the
 * two renames dist/ is missing for the time of one system call. When another
 * build swaps its own in between, its dist/ is moved aside in turn.
 */
function swapIn(build) {
  const aside = `${dist}.old-${process.pid}`;
  for (let attempt = 1; ; attempt++) {
    rmSync(aside, { recursive: true, force: true });
    if (existsSync(dist)) renameSync(dist, aside);
    try {
      renameSync(build, dist);
      break;
    } catch (error) {
      if (!['ENOTEMPTY', 'EEXIST', 'EPERM'].includes(error.code) || attempt === 10) throw error;
    }
  }
  rmSync(aside, { recursive: true, force: true });
}
