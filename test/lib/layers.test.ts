// The harness's folders are its layers, and imports go one way, from a layer
// to its own and the layers below it, type and dynamic imports included:
//   model ← redact ← cases ← checks ← run ← report ← compat ← cli ← index.ts
// - model/: the document, exact JSON, the targets;
// - redact/: what of a target's words may reach a report;
// - cases/: what to send (values, bodies, ids), drawn from the document;
// - checks/: the catalog, data and pure functions over exchanges (no I/O);
// - run/: sending, grading, results, targets, the side-by-side comparison;
// - report/: the reports of a run;
// - compat/: the compatibility of two documents, over a run and its reports;
// - cli/: the command line of both commands;
// - index.ts: the package's entry (the library).
// And nothing outside test/ imports from test/: the tests' helpers are not
// shipped, and a benchmark or a script that needs one needs it elsewhere.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importGraph, scratchTree, type Graph } from '../support/import-graph.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url)); // from dist/test/lib/
const HARNESS = 'conformance';

/** The harness's layers, lowest first: a module may import from its own layer and the ones before it. */
const LAYERS = ['model', 'redact', 'cases', 'checks', 'run', 'report', 'compat', 'cli'] as const;
/** The package's entry, above every layer. */
const ENTRY = `${HARNESS}/index.ts`;

/** The rank of a harness module's layer: its folder's place in LAYERS, the entry above all; undefined for a module in no layer's folder. */
function rank(module: string, harness = HARNESS): number | undefined {
  if (module === `${harness}/index.ts`) return LAYERS.length;
  const folder = module.slice(harness.length + 1).split('/')[0]!;
  const at = (LAYERS as readonly string[]).indexOf(folder);
  return at === -1 || !module.slice(harness.length + 1).includes('/') ? undefined : at;
}

const layerName = (at: number) => LAYERS[at] ?? 'the entry';

/** Each import of a harness module from a layer above its own, as `a.ts → b.ts (checks imports run)`. */
function upwardImports(graph: Graph, harness = HARNESS): string[] {
  const found: string[] = [];
  for (const [module, imported] of graph) {
    const own = rank(module, harness);
    if (own === undefined) continue;
    for (const target of imported) {
      const theirs = rank(target, harness);
      if (theirs !== undefined && theirs > own)
        found.push(`${module} → ${target} (${layerName(own)} imports ${layerName(theirs)})`);
    }
  }
  return found.sort();
}

/** The modules of the harness in no layer's folder (the entry aside). */
function outsideLayers(graph: Graph, harness = HARNESS): string[] {
  return [...graph.keys()].filter((module) => rank(module, harness) === undefined).sort();
}

/** The folders of `root` that hold code outside test/: every folder but test/ and those nobody writes (dependencies, the build, git's). */
function foldersBesideTest(root: string): string[] {
  return readdirSync(root).filter(
    (name) =>
      !name.startsWith('.') &&
      !['test', 'node_modules', 'dist'].includes(name) &&
      statSync(join(root, name)).isDirectory(),
  );
}

/** Each import of a module under test/ from a module outside it, as `a.ts → test/b.ts`. */
function importsOfTest(root: string): string[] {
  const graph = importGraph(root, foldersBesideTest(root), { within: false });
  return [...graph]
    .flatMap(([module, imported]) =>
      imported.filter((target) => target.startsWith('test/')).map((target) => `${module} → ${target}`),
    )
    .sort();
}

describe('layers', { timeout: 60_000 }, () => {
  const graph = importGraph(ROOT, [HARNESS]);

  test('the imports are read: every layer has modules, type and dynamic imports included', () => {
    for (const layer of LAYERS)
      assert.ok(
        [...graph.keys()].some((module) => module.startsWith(`${HARNESS}/${layer}/`)),
        layer,
      );
    assert.ok(
      graph.get(`${HARNESS}/checks/types.ts`)?.includes(`${HARNESS}/checks/exchange.ts`),
      'a type import (checks/types.ts → checks/exchange.ts)',
    );
    assert.ok(
      graph.get(`${HARNESS}/cli/main.ts`)?.includes(`${HARNESS}/cli/compat-deadline.ts`),
      'a dynamic import (cli/main.ts → cli/compat-deadline.ts)',
    );
    assert.ok(existsSync(join(ROOT, ENTRY)), ENTRY);
  });

  test('every module of the harness is in a layer’s folder (the entry aside)', () => {
    assert.deepEqual(outsideLayers(graph), []);
  });

  test('no module imports from a layer above its own', () => {
    const found = upwardImports(graph);
    assert.deepEqual(found, [], `imports against the layers:\n${found.join('\n')}`);
  });

  test('nothing outside test/ imports from test/', () => {
    const found = importsOfTest(ROOT);
    assert.deepEqual(found, [], `imports of test/:\n${found.join('\n')}`);
  });

  describe('the rules', () => {
    const { dir, write } = scratchTree('plantstore-layers-');

    test('find an import from a layer above (a type import too), a module in no layer, and an import of test/; allow imports downwards and within a layer', () => {
      const tree: Record<string, string> = {
        'h/model/doc.ts': 'export const doc = 1;\n',
        'h/checks/check.ts':
          "import { doc } from '../model/doc.js';\nimport type { Client } from '../run/client.js';\nexport const check = (c: Client) => doc + c;\n",
        'h/checks/other.ts': "import { check } from './check.js';\nexport const other = check;\n",
        'h/run/client.ts':
          "import { other } from '../checks/other.js';\nexport type Client = number;\nexport const run = other;\n",
        'h/cli/main.ts': "export const main = async () => (await import('../run/client.js')).run;\n",
        'h/loose.ts': 'export const loose = 1;\n',
        'h/index.ts': "export { main } from './cli/main.js';\n",
        'bench/uses-helper.ts': "import { helper } from '../test/support/helper.js';\nexport const b = helper;\n",
        'test/support/helper.ts': 'export const helper = 1;\n',
        'test/a.test.ts': "import { helper } from './support/helper.js';\nexport const t = helper;\n",
      };
      for (const [file, text] of Object.entries(tree)) write(file, text);
      const graph = importGraph(dir, ['h']);
      assert.deepEqual(upwardImports(graph, 'h'), ['h/checks/check.ts → h/run/client.ts (checks imports run)']);
      assert.deepEqual(outsideLayers(graph, 'h'), ['h/loose.ts']);
      assert.deepEqual(importsOfTest(dir), ['bench/uses-helper.ts → test/support/helper.ts']);
    });
  });
});
