// No import cycles in the shipped sources: a module of server/, spec/, lib/
// or conformance/ never comes back to itself through what it imports, type
// imports and dynamic imports included (a cycle makes a reader hunt for
// where the chain starts, and makes the order modules are initialised in
// matter). The imports are read from the TypeScript sources with
// TypeScript's own pre-processor, which skips comments and strings
// (test/support/import-graph.ts, which the layers test reads them with too).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importGraph, scratchTree, type Graph } from '../support/import-graph.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url)); // from dist/test/lib/
const FOLDERS = ['server', 'spec', 'lib', 'conformance'];

/** Cycles allowed: none (take a new one apart rather than list it here). */
const KNOWN_CONFORMANCE_CYCLES: readonly string[][] = [];

/** The strongly connected components of more than one module (or one that imports itself): each holds a cycle. Tarjan's algorithm. */
function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (module: string): void => {
    index.set(module, index.size);
    low.set(module, index.get(module)!);
    stack.push(module);
    onStack.add(module);
    for (const next of graph.get(module) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(module, Math.min(low.get(module)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(module, Math.min(low.get(module)!, index.get(next)!));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    if (component.length > 1 || graph.get(module)?.includes(module)) found.push(component.sort());
  };
  for (const module of [...graph.keys()].sort()) if (!index.has(module)) visit(module);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** One way round a component, for the message: `a.ts → b.ts → a.ts`. */
function oneCycle(graph: Graph, component: readonly string[]): string {
  const members = new Set(component);
  const start = component[0]!;
  const path = [start];
  const seen = new Set<string>();
  const walk = (module: string): boolean => {
    for (const next of graph.get(module) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) return true;
      if (seen.has(next)) continue;
      seen.add(next);
      path.push(next);
      if (walk(next)) return true;
      path.pop();
    }
    return false;
  };
  walk(start);
  return [...path, start].join(' → ');
}

const describeCycles = (graph: Graph, found: string[][]) =>
  found.map((component) => oneCycle(graph, component)).join('\n');

describe('import cycles', { timeout: 60_000 }, () => {
  const graph = importGraph(ROOT, FOLDERS);
  const found = cycles(graph);

  test('the imports are read: every folder, type and dynamic imports included', () => {
    for (const folder of FOLDERS)
      assert.ok(
        [...graph.keys()].some((file) => file.startsWith(`${folder}/`)),
        folder,
      );
    assert.ok(
      graph.get('server/http/routes.ts')?.includes('server/operations/served.ts'),
      'a type import (routes.ts → operations/served.ts)',
    );
    assert.ok(
      graph.get('server/start.ts')?.includes('server/store/postgres-store.ts'),
      'a dynamic import (start.ts → postgres-store.ts)',
    );
    assert.ok(
      graph.get('server/http/validation.ts')?.includes('spec/openapi.validator.d.ts'),
      'a module the build writes (its declaration)',
    );
  });

  test('server/, spec/ and lib/ have none', () => {
    const ours = found.filter((component) => !component.some((file) => file.startsWith('conformance/')));
    assert.deepEqual(ours, [], `cycles:\n${describeCycles(graph, ours)}`);
  });

  test('conformance/ has only the cycles known today (a new one fails; one that is gone is to be taken out of the list)', () => {
    const theirs = found.filter((component) => component.some((file) => file.startsWith('conformance/')));
    assert.deepEqual(theirs, KNOWN_CONFORMANCE_CYCLES, `cycles found:\n${describeCycles(graph, theirs)}`);
  });

  describe('the finder', () => {
    const { dir, write } = scratchTree('plantstore-cycles-');

    test('finds a cycle made of a type import, one through a dynamic import, and no cycle where there is none', () => {
      write('a/one.ts', "import { two } from './two.js';\nexport const one = two;\n");
      write('a/two.ts', "import type { Three } from '../b/three.js';\nexport const two: Three = 2;\n");
      write(
        'b/three.ts',
        "// import { nothing } from './nowhere.js'\nimport { one } from '../a/one.js';\nexport type Three = number;\nexport const three = one;\n",
      );
      write('b/four.ts', "export const four = async () => (await import('./five.js')).five;\n");
      write('b/five.ts', "import { four } from './four.js';\nexport const five = four;\n");
      write(
        'b/six.ts',
        "import { three } from './three.js';\nimport { five } from './five.js';\nexport const six = [three, five];\n",
      );
      const graph = importGraph(dir, ['a', 'b']);
      assert.deepEqual(cycles(graph), [
        ['a/one.ts', 'a/two.ts', 'b/three.ts'],
        ['b/five.ts', 'b/four.ts'],
      ]);
      assert.equal(
        oneCycle(graph, ['a/one.ts', 'a/two.ts', 'b/three.ts']),
        'a/one.ts → a/two.ts → b/three.ts → a/one.ts',
      );
    });
  });
});
