// The imports of the project's sources, read with TypeScript's own
// pre-processor (which skips comments and strings), type imports and dynamic
// imports included: the import-cycle test and the layers test read the same.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { after } from 'node:test';
import ts from 'typescript';

/** Each module and the modules it imports, as paths relative to the root. */
export type Graph = Map<string, string[]>;

/** Source files, by how their names end: TypeScript (declaration files included) and the JavaScript modules of scripts/. */
const SOURCE = /\.(ts|mts|mjs)$/;

/** Every source file under `dir` (none when it does not exist). */
export function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : SOURCE.test(name) ? [path] : [];
  });
}

/** The source of an import of `./x.js`: x.ts, or x.d.ts for a module the build writes, or the file itself (an .mjs). */
function moduleFile(path: string): string | undefined {
  const base = path.replace(/\.(js|mjs|ts)$/, '');
  return [`${base}.ts`, `${base}.d.ts`, path].find((file) => existsSync(file) && statSync(file).isFile());
}

/** The files of the project that `file` imports by a relative specifier, as absolute paths. */
export function importsOf(file: string): string[] {
  const imported = ts
    .preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => moduleFile(resolve(dirname(file), specifier)))
    .filter((target): target is string => target !== undefined);
  return [...new Set(imported)];
}

/**
 * Every module under `folders` of `root` and what it imports: of the modules
 * of those folders only (`within`, for cycles), or of any folder of `root`.
 */
export function importGraph(root: string, folders: readonly string[], { within = true } = {}): Graph {
  const files = folders.flatMap((folder) => sources(join(root, folder)));
  const inGraph = new Set(files);
  const graph: Graph = new Map();
  for (const file of files) {
    const imported = importsOf(file).filter((target) => !within || inGraph.has(target));
    graph.set(
      relative(root, file),
      imported.map((target) => relative(root, target)),
    );
  }
  return graph;
}

/** A temporary folder of source files that a test writes to try these readers on, removed after the suite it is made in. */
export function scratchTree(prefix: string): { dir: string; write: (file: string, text: string) => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  };
  return { dir, write };
}
