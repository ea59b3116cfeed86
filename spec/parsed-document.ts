// The document's text into values: YAML (a superset of JSON) with integers
// beyond 2^53 kept exact, and the shipped document parsed once at build time.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as Yaml from 'yaml';
import { isSchemaObject } from './schema-keywords.js';

/**
 * Whether this module runs compiled: from dist/, or from the fresh folder
 * beside it that scripts/build.mjs builds into before swapping it in.
 */
export const COMPILED = /\/dist(?:\.build-\d+)?\//.test(import.meta.url);

/**
 * The build (scripts/bundle-server.mjs) parses the shipped document once and
 * writes it, with its source text, as JSON next to dist/spec/: YAML parsing
 * is a tenth of the server's start-up. It is used only for exactly the text
 * it was made from, so an edited document is parsed as usual. The path is
 * the same from dist/spec/ (this module) and from dist/server/ (the
 * server's bundle, which holds this module).
 */
export const PARSED_DOCUMENT_PATH = fileURLToPath(new URL('../spec/openapi.parsed.json', import.meta.url));

/** A bigint in the parsed document's JSON, which has no integers beyond 2^53. */
const BIGINT_KEY = '$plantstore-bigint';

export function parsedAtBuild(text: string): unknown {
  if (!COMPILED) return undefined;
  let saved: { source?: unknown; document?: unknown };
  try {
    saved = JSON.parse(readFileSync(PARSED_DOCUMENT_PATH, 'utf8'), (_key, value: unknown) =>
      isSchemaObject(value) && Object.keys(value).length === 1 && typeof value[BIGINT_KEY] === 'string'
        ? BigInt(value[BIGINT_KEY])
        : value,
    ) as typeof saved;
  } catch {
    return undefined;
  }
  return saved.source === text ? saved.document : undefined;
}

/** The JSON text of a parsed document and its source, for parsedAtBuild. */
export function serializeParsedDocument(source: string): string {
  const document = safeIntegersAsNumbers(parseYaml(source));
  return JSON.stringify({ source, document }, (_key, value: unknown) =>
    typeof value === 'bigint' ? { [BIGINT_KEY]: value.toString() } : value,
  );
}

const requireFromHere = createRequire(import.meta.url);

/**
 * YAML (a superset of JSON), integers as bigints first, so that a bound like
 * 9223372036854775807 keeps its digits. The parser is loaded when first
 * needed (it is CommonJS): the server serving the shipped document never
 * needs it, and its bundle leaves it out.
 */
export function parseYaml(text: string): unknown {
  // logLevel error: its warnings (an unknown tag) go to standard error with the text around them, which is not ours to print.
  return (requireFromHere('yaml') as typeof Yaml).parse(text, { intAsBigInt: true, logLevel: 'error' });
}

/** Bigints that fit a double exactly become numbers; larger ones stay bigints (only numeric keywords and examples can hold them). */
export function safeIntegersAsNumbers(node: unknown): unknown {
  if (typeof node === 'bigint')
    return node >= BigInt(Number.MIN_SAFE_INTEGER) && node <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(node) : node;
  if (Array.isArray(node)) return node.map(safeIntegersAsNumbers);
  if (isSchemaObject(node))
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, safeIntegersAsNumbers(v)]));
  return node;
}
