// Bundles the GitHub Action (action.yml: `runs: using: node24, main:
// action/index.mjs`) into one file that is committed with the repository,
// the way JavaScript actions ship: a workflow that uses the action starts
// checking at once, with no `npm ci` and no build. `npm run bundle:action`
// writes action/index.mjs and action/licenses.txt (the licenses of the
// packages inside); test/action/action.test.ts bundles again into a
// temporary folder and fails when the committed files differ.
//
// The bundle is made from the TypeScript sources, not from dist/, and runs
// from the action's checkout, where spec/openapi.yaml is read at run time
// (as the harness reads it in a clone). Two things differ from the compiled
// harness, both done here and nowhere in the sources:
// - each module's import.meta.url is the URL its compiled file would have
//   under dist/ in the checkout, so every path the sources derive from it
//   (spec/openapi.yaml, package.json) is the same as in a clone;
// - the Spectral ruleset (.spectral.yaml) is compiled into the bundle:
//   Spectral's loader would require() the ruleset's functions from
//   node_modules at run time, and the action has none. conformance/model/ruleset.ts
//   is replaced by a module that returns that compiled ruleset;
// - the reference server that `compat` serves each document with (in
//   process) has no request-body validator generated at build time
//   (dist/spec/openapi.validator.js, which the sources do not hold): it
//   compiles the validator of each document it serves, as it does for any
//   document but the shipped one.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
/** Where the bundle lives in the repository: the paths inside it are relative to this, wherever it is written. */
export const ACTION_DIR = 'action';
export const BUNDLE_FILES = ['index.mjs', 'licenses.txt'];

const posix = (path) => path.split(sep).join('/');

/** A URL relative to the bundle's place in the repository, as a JavaScript expression. */
function urlFromBundle(pathInRepository) {
  return `new URL(${JSON.stringify(posix(relative(join(ROOT, ACTION_DIR), join(ROOT, pathInRepository))))}, import.meta.url)`;
}

/** The ruleset, compiled: .spectral.yaml as an ES module (Spectral's migrator), loaded as conformance/model/ruleset.ts's loadRuleset would. */
async function rulesetModule() {
  const fs = await import('node:fs');
  const { migrateRuleset } = require('@stoplight/spectral-ruleset-migrator');
  const { fetch } = require('@stoplight/spectral-runtime');
  const source = await migrateRuleset(join(ROOT, '.spectral.yaml'), { format: 'esm', fs, fetch });
  return [
    "import { resolve } from 'node:path';",
    "import { fileURLToPath } from 'node:url';",
    "import { Ruleset } from '@stoplight/spectral-core';",
    // Only the OpenAPI ruleset: the package index also loads the AsyncAPI and Arazzo ones, with their schemas (megabytes).
    source
      .replace(/^export default /m, 'const definition = ')
      .replace(
        /^import \{oas\} from "@stoplight\/spectral-rulesets";$/m,
        'import oas from "@stoplight/spectral-rulesets/dist/oas/index.js";',
      ),
    `const BUNDLED = fileURLToPath(${urlFromBundle('.spectral.yaml')});`,
    'export async function loadRuleset(rulesetPath) {',
    '  if (resolve(rulesetPath) !== BUNDLED) throw new Error(`the action lints with the ruleset compiled into it (.spectral.yaml), not ${rulesetPath}`);',
    "  return new Ruleset(definition, { severity: 'recommended', source: BUNDLED });",
    '}',
  ].join('\n');
}

const asInTheCheckout = (ruleset) => ({
  name: 'as-in-the-checkout',
  setup(b) {
    b.onResolve({ filter: /^\.\/ruleset\.js$/ }, (args) =>
      posix(args.importer).endsWith('conformance/model/lint.ts')
        ? { path: 'ruleset', namespace: 'plantstore' }
        : undefined,
    );
    b.onResolve({ filter: /^(\.\.\/)+spec\/openapi\.validator\.js$/ }, (args) =>
      posix(args.importer).endsWith('server/http/validation.ts')
        ? { path: 'no-generated-validator', namespace: 'plantstore' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'plantstore' }, (args) =>
      args.path === 'no-generated-validator'
        ? {
            contents:
              'export const source = undefined; export const schemaPointer = undefined; export const validate = undefined; export const uncheckedFormats = [];',
            loader: 'js',
          }
        : { contents: ruleset, loader: 'js', resolveDir: ROOT },
    );
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`) || !args.path.startsWith(ROOT)) return undefined;
      const compiled = join('dist', relative(ROOT, args.path)).replace(/\.ts$/, '.js');
      let text = readFileSync(args.path, 'utf8');
      // require() through createRequire(import.meta.url) is invisible to a bundler: a plain require() is bundled.
      for (const [whole, name] of text.matchAll(/const (\w+) = createRequire\(import\.meta\.url\);/g)) {
        text = text.replace(whole, '').replace(new RegExp(`\\b${name}\\(`, 'g'), 'require(');
      }
      text = text.replace(/import\.meta\.url/g, `${urlFromBundle(compiled)}.href`);
      return { contents: text, loader: 'ts' };
    });
  },
});

/** The licenses of the packages in the bundle, from the build's list of inputs. */
function licenses(metafile) {
  const roots = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(posix(input));
    if (m) roots.add(m[1]);
  }
  const entries = [...roots]
    .map((root) => {
      const pkg = JSON.parse(readFileSync(join(ROOT, root, 'package.json'), 'utf8'));
      const file = readdirSync(join(ROOT, root)).find((f) => /^licen[cs]e(\.|$)/i.test(f));
      return {
        name: pkg.name,
        version: pkg.version,
        license: typeof pkg.license === 'string' ? pkg.license : 'see the text',
        text: file ? readFileSync(join(ROOT, root, file), 'utf8').trim() : '(no license file in the package)',
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : 1));
  const head = `The GitHub Action's bundle (index.mjs) contains these packages (${entries.length}), each under its license.\n`;
  return `${head}${entries.map((e) => `\n${'-'.repeat(78)}\n${e.name} ${e.version} (${e.license})\n\n${e.text}\n`).join('')}`;
}

/** Writes the bundle and its licenses into `outdir`; returns the files written. */
export async function bundleAction(outdir = join(ROOT, ACTION_DIR)) {
  const result = await build({
    entryPoints: [join(ROOT, 'scripts', 'action-entry.ts')],
    outfile: join(outdir, 'index.mjs'),
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Several packages have an ES module build beside a UMD one whose require() calls a bundler cannot follow.
    mainFields: ['module', 'main'],
    // macOS only, and optional in rollup (which Spectral's ruleset bundler carries).
    external: ['fsevents'],
    banner: {
      js: [
        '// The Plant Store conformance GitHub Action, bundled by scripts/bundle-action.mjs (npm run bundle:action); do not edit.',
        "import { createRequire as __bundleRequire } from 'node:module';",
        "import { dirname as __bundleDirname } from 'node:path';",
        "import { fileURLToPath as __bundleFileURLToPath } from 'node:url';",
        'const require = __bundleRequire(import.meta.url);',
        'const __filename = __bundleFileURLToPath(import.meta.url);',
        'const __dirname = __bundleDirname(__filename);',
      ].join('\n'),
    },
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    plugins: [asInTheCheckout(await rulesetModule())],
  });
  mkdirSync(outdir, { recursive: true });
  writeFileSync(join(outdir, 'licenses.txt'), licenses(result.metafile));
  return BUNDLE_FILES.map((f) => join(outdir, f));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ? resolve(process.argv[2]) : undefined;
  const files = await bundleAction(out);
  for (const f of files)
    console.log(`${relative(process.cwd(), f)}: ${(readFileSync(f).length / 1024 / 1024).toFixed(2)} MiB`);
  if (!existsSync(join(ROOT, 'spec', 'openapi.yaml'))) process.exitCode = 1;
}
