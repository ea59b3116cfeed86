// Run-unique ids of any kind a document gives an id: an integer (folded into
// its bounds and onto its multipleOf, number-values.ts), or a string: a UUID
// for `format: uuid` (RFC 9562 §5.4, version 4, its bits from the run's seed),
// a string its `pattern` matches (drawn by fast-check from the run's seed),
// a value of another format the validator knows, or letters and digits
// within its lengths. Every candidate is put to `fits` (the document's own
// validator on a body holding it): a wrong guess costs a candidate, never a
// wrong request.
import fc from 'fast-check';
import { isSchemaObject, type JsonSchema } from '../../spec/schema-keywords.js';
import type { JsonValue } from '../model/json.js';
import { RuledOut } from '../model/ruled-out.js';
import type { IdAllocator } from './ids.js';
import { numberLattice, type NumberLattice } from './number-values.js';

/** A v4 UUID from 16 bytes (RFC 9562 §5.4: version 4 in the 13th hex digit, variant 10 in the 17th). */
export function uuidFrom(bytes: Buffer): string {
  const b = Buffer.from(bytes.subarray(0, 16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A run-unique string of a format the validators know, from the run-unique number `n` (undefined: no rule for it). */
function formatted(format: string, n: bigint, bytes: Buffer): string | undefined {
  const t = n.toString(36);
  switch (format) {
    case 'uuid':
      return uuidFrom(bytes);
    case 'email':
      return `id-${t}@example.com`;
    case 'hostname':
      return `id-${t}.example.com`;
    case 'uri':
    case 'url':
    case 'iri':
      return `https://example.com/ids/${t}`;
    case 'uri-reference':
    case 'iri-reference':
      return `/ids/${t}`;
    case 'json-pointer':
      return `/ids/${t}`;
    case 'relative-json-pointer':
      return `${n % 1000n}/ids`;
    case 'date': {
      const day = new Date(Date.UTC(2000, 0, 1) + Number(n % 3_000_000n) * 86_400_000);
      return day.toISOString().slice(0, 10);
    }
    case 'date-time':
    case 'iso-date-time':
      return new Date(Date.UTC(2000, 0, 1) + Number(n % 10n ** 12n) * 1000).toISOString().replace(/\.000Z$/, 'Z');
    case 'byte':
      return bytes.subarray(0, 12).toString('base64');
    case 'ipv4':
      return [Number((n >> 16n) % 256n), Number((n >> 8n) % 256n), Number(n % 256n)].reduce(
        (s, x) => `${s}.${x}`,
        '10',
      );
    case 'ipv6':
      return `2001:db8::${(n % 0xffffn).toString(16)}:${((n >> 16n) % 0xffffn).toString(16)}`;
    default:
      return undefined;
  }
}

/** Letters and digits that say what they are, at least `min` and at most `max` code points long. */
function plain(n: bigint, min: number, max: number): string {
  let s = `id${n.toString(36)}`;
  if (s.length < min) s = s.padEnd(min, '0');
  return s.length > max ? s.slice(s.length - max) : s;
}

/** The keywords of the id's schemas that bind a string (the last one that says wins). */
function stringKeywords(nodes: readonly JsonSchema[]): { format?: string; pattern?: string; min: number; max: number } {
  let format: string | undefined;
  let pattern: string | undefined;
  let min = 0;
  let max = Infinity;
  for (const node of nodes) {
    if (typeof node.format === 'string') format = node.format;
    if (typeof node.pattern === 'string') pattern = node.pattern;
    if (typeof node.minLength === 'number') min = Math.max(min, node.minLength);
    if (typeof node.maxLength === 'number') max = Math.min(max, node.maxLength);
  }
  return { ...(format !== undefined ? { format } : {}), ...(pattern !== undefined ? { pattern } : {}), min, max };
}

/** A fresh string id: candidates by format, then pattern, then plain letters and digits; the first that fits. */
export function freshStringId(nodes: readonly JsonSchema[], ids: IdAllocator, fits: (v: JsonValue) => boolean): string {
  const k = stringKeywords(nodes);
  for (let attempt = 0; attempt < 16; attempt++) {
    const n = ids.fresh();
    const bytes = ids.bytes(`string id ${n}`, 32);
    const candidates: string[] = [];
    const f = k.format !== undefined ? formatted(k.format, n, bytes) : undefined;
    if (f !== undefined) candidates.push(f);
    if (k.pattern !== undefined) {
      try {
        const seed = Number(bytes.readUInt32BE(0) & 0x7fffffff);
        candidates.push(...fc.sample(fc.stringMatching(new RegExp(k.pattern, 'u')), { seed, numRuns: 8 }));
      } catch {
        // A pattern fast-check cannot read: the other candidates.
      }
    }
    candidates.push(plain(n, k.min, k.max === Infinity ? 64 : k.max));
    const found = candidates.find((c) => fits(c) && ids.claimText(c));
    if (found !== undefined) return found;
  }
  throw new RuledOut(
    `the harness cannot find a fresh string id the document allows (${[
      k.format !== undefined ? `format ${k.format}` : '',
      k.pattern !== undefined ? `pattern ${k.pattern}` : '',
    ]
      .filter(Boolean)
      .join(', ')})`,
  );
}

/** A fresh integer id from `r` folded into the lattice's range and onto its step. */
export function foldInto(lattice: NumberLattice, r: bigint): bigint {
  const step = lattice.step?.n ?? 1n;
  const { kMin, kMax } = lattice;
  let k: bigint;
  if (kMin !== undefined && kMax !== undefined) k = kMin + (r % (kMax - kMin + 1n));
  else if (kMin !== undefined) k = kMin + r;
  else if (kMax !== undefined) k = kMax - r;
  else k = r;
  return k * step;
}

/**
 * A fresh id of the kind the schemas `nodes` give (resolved schema objects of
 * one member or parameter): an integer, a number or a string. Throws RuledOut
 * when the harness finds none that fits.
 */
export function freshIdOf(
  nodes: readonly JsonSchema[],
  type: string | undefined,
  ids: IdAllocator,
  fits: (v: JsonValue) => boolean,
): JsonValue {
  if (type === 'integer' || type === 'number') {
    const lattice = numberLattice(nodes.filter(isSchemaObject), true);
    for (let attempt = 0; attempt < 16; attempt++) {
      const r = ids.fresh();
      if (fits(r)) return r;
      const folded = lattice ? foldInto(lattice, r) : undefined;
      if (folded !== undefined && fits(folded) && ids.claim(folded)) return folded;
    }
    throw new RuledOut('the harness cannot find a fresh integer id the document allows');
  }
  return freshStringId(nodes, ids, fits);
}
