// A document error as its author can act on it: the file, the line and the
// column where the JSON pointer of the error lands in the text
// (`spec.yaml:49:21: $ref at #/paths/…: "#/components/schemas/NewPlantt"
// resolves to nothing`), the way compilers and linters point at a source.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { DocumentError } from '../../spec/openapi.js';

const requireFromHere = createRequire(import.meta.url);

/** Line and column (from 1) of the value at `pointer` (`#/a/b/0`) in YAML or JSON text; undefined when the text does not have it. */
export function locatePointer(text: string, pointer: string): { line: number; column: number } | undefined {
  const yaml = requireFromHere('yaml') as typeof Yaml;
  const lineCounter = new yaml.LineCounter();
  let node: unknown;
  try {
    node = yaml.parseDocument(text, { lineCounter }).contents;
  } catch {
    return undefined;
  }
  let range = (node as { range?: [number, number, number] } | null)?.range;
  const tokens = pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((t) => t !== '')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (const token of tokens) {
    if (yaml.isMap(node)) {
      const pair = node.items.find((p) => String(yaml.isScalar(p.key) ? p.key.value : p.key) === token);
      if (!pair) return undefined;
      node = pair.value;
      range =
        (yaml.isNode(pair.value) ? pair.value.range : undefined) ??
        (yaml.isNode(pair.key) ? pair.key.range : undefined) ??
        undefined;
    } else if (yaml.isSeq(node)) {
      node = node.items[Number(token)];
      range = yaml.isNode(node) ? (node.range ?? undefined) : undefined;
    } else return undefined;
  }
  if (!range) return undefined;
  const { line, col } = lineCounter.linePos(range[0]);
  return { line, column: col };
}

/** `FILE:LINE:COLUMN: message` for a DocumentError whose pointer is found in the file; `FILE: message` otherwise. */
export function describeDocumentError(err: unknown, file: string): string {
  const message = (err as Error).message;
  if (!(err instanceof DocumentError)) return `${file}: ${message}`;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return `${file}: ${message}`;
  }
  const at = locatePointer(text, err.pointer);
  return at ? `${file}:${at.line}:${at.column}: ${message}` : `${file}: ${message}`;
}
