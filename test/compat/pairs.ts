// The pairs of documents of test/fixtures/compat/pairs.yaml, written out:
// each edit (set, remove, append, copy at a JSON pointer) applied to
// spec/openapi.yaml for the old document, then to the old one for the new.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as YAML from 'yaml';
import type { SideVerdict } from '../../conformance/compat/change.js';

const SPEC = fileURLToPath(new URL('../../../spec/openapi.yaml', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));

type Edit =
  | { set: string; value: unknown }
  | { remove: string }
  | { append: string; value: unknown }
  | { copy: string; to: string };

export interface ExpectedChange {
  keyword: string;
  /** A part of its pointer. */
  at: string;
  clients: SideVerdict;
  servers: SideVerdict;
}

export interface Pair {
  name: string;
  base?: Edit[];
  head: Edit[] | { file: string };
  changes: ExpectedChange[];
  /** Per side the rules say breaks: a failing check tied to the change (proof), or none (rule-only). */
  proof?: Partial<Record<'clients' | 'servers', 'proof' | 'rule-only'>>;
  /** The rule-only sides for which the documents give a witness. */
  witness?: Array<'clients' | 'servers'>;
  /** The sides whose crossed run cannot run (the document has no create operation, no integer id, no path the reference serves): judged by the rules. */
  notPossible?: Array<'clients' | 'servers'>;
  /** Per side, the line that opens the proofs (regular expression, whole line): which call broke the side, how it was answered, by which check, which is also the first proof shown. */
  shows?: Partial<Record<'clients' | 'servers', string>>;
  /** Checks that must not be among the departures: a server following the other document answers them as the checking one asks. */
  notFailing?: string[];
  /** Per side, whether the pair breaks it, decided before any tool ran: the verdict compat reaches must be it. */
  label?: Record<'clients' | 'servers', 'breaks' | 'compatible'>;
  exit: 0 | 1;
}

interface PairInFile extends Omit<Pair, 'changes'> {
  changes: Array<[string, string, SideVerdict, SideVerdict]>;
}

export const PAIRS: Pair[] = (
  YAML.parse(readFileSync(join(FIXTURES, 'compat', 'pairs.yaml'), 'utf8')) as PairInFile[]
).map((p) => ({
  ...p,
  changes: p.changes.map(([keyword, at, clients, servers]) => ({ keyword, at, clients, servers })),
}));

/** RFC 6901: the parent of the value at `pointer` and the last reference token. */
function locate(doc: unknown, pointer: string): { parent: Record<string, unknown>; key: string } {
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  const key = tokens.pop()!;
  let parent = doc as Record<string, unknown>;
  for (const t of tokens) parent = parent[t] as Record<string, unknown>;
  if (parent === undefined) throw new Error(`no ${pointer}`);
  return { parent, key };
}

function apply(doc: unknown, edits: Edit[]): void {
  for (const e of edits) {
    if ('set' in e) {
      const { parent, key } = locate(doc, e.set);
      parent[key] = structuredClone(e.value);
    } else if ('remove' in e) {
      const { parent, key } = locate(doc, e.remove);
      delete parent[key];
    } else if ('append' in e) {
      const { parent, key } = locate(doc, e.append);
      (parent[key] as unknown[]).push(structuredClone(e.value));
    } else {
      const from = locate(doc, e.copy);
      const to = locate(doc, e.to);
      to.parent[to.key] = structuredClone(from.parent[from.key]);
    }
  }
}

/** Writes the pair's two documents into `dir`; returns their paths. */
export function writePair(pair: Pair, dir: string, slug: string): { base: string; head: string } {
  mkdirSync(dir, { recursive: true });
  const base = YAML.parse(readFileSync(SPEC, 'utf8')) as unknown;
  apply(base, pair.base ?? []);
  const basePath = join(dir, `${slug}.base.yaml`);
  writeFileSync(basePath, YAML.stringify(base));
  if (!Array.isArray(pair.head)) return { base: basePath, head: join(FIXTURES, pair.head.file) };
  const head = structuredClone(base);
  apply(head, pair.head);
  const headPath = join(dir, `${slug}.head.yaml`);
  writeFileSync(headPath, YAML.stringify(head));
  return { base: basePath, head: headPath };
}

export const slugOf = (name: string) =>
  name
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()
    .slice(0, 60);
