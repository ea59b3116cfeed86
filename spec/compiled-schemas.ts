// The validators compiled in this process, kept by what they were compiled
// from (spec/validator.ts compiles through here).
import type { ValidateFunction } from 'ajv';

/**
 * The functions compiled in this process, by their bundled schema written
 * out whole (every keyword, every pointer, the exact rules): a server built
 * again on the same document, a second run of the harness, the server and
 * the harness in one process, each used to compile every schema again, with
 * a new Ajv whose first check of a schema compiles the 2020-12 meta-schema.
 * Compiling was about a seventh of the test suite's CPU. A bundled schema
 * holds everything Ajv reads (bundleSchema: its references are in its
 * $defs), and a compiled function keeps no state between calls but the
 * errors of the last one, read at once by validatorOf. Oldest out first.
 */
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED_SCHEMAS = 2_000;

/** The bundled schema as text: bigints, numbers JSON cannot write and objects of a class are marked, so that no two values share a text. */
export function schemaKey(bundled: unknown): string {
  return JSON.stringify(bundled, (_key, value: unknown) => {
    if (typeof value === 'bigint') return { '\u0000bigint': value.toString() };
    if (typeof value === 'number' && !Number.isFinite(value)) return { '\u0000number': String(value) };
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const proto = Object.getPrototypeOf(value) as object | null;
      if (proto !== Object.prototype && proto !== null)
        return { '\u0000class': value.constructor?.name ?? '?', ...value };
    }
    return value;
  });
}

/** The function compiled from the schema with this key, if it is still kept. */
export function compiledSchema(key: string): ValidateFunction | undefined {
  return compiled.get(key);
}

/** Keeps a function compiled from the schema with this key, the oldest let go beyond the bound. */
export function rememberCompiled(key: string, validate: ValidateFunction): void {
  compiled.set(key, validate);
  for (const [oldest] of compiled) {
    if (compiled.size <= MAX_COMPILED_SCHEMAS) break;
    compiled.delete(oldest);
  }
}

/** How many compiled functions are kept. */
export function compiledSchemaCount(): number {
  return compiled.size;
}
