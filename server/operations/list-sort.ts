// A list's sort (docs/server.md, "The list's parameters", switch `sort`): a
// query parameter named sort, sort_by, order_by or ordering (a string, or an
// array of them) whose values name an item member, ascending, or descending
// with a leading `-` (`-name`), a `:desc` or ` desc` after it (`name:desc`);
// a separate direction parameter (order, direction, sort_dir, sort_order)
// whose value is `asc` or `desc` applies to every member named.
//
// Decisions where the document is silent: strings are ordered by their code
// points (not by UTF-16 code units, and by no locale), numbers by value,
// false before true; values of different types by type (numbers, strings,
// booleans, then anything else); an item without the member comes last
// whichever the direction; items that compare equal keep the order stored.
import { NonIntegralNumber, parseJson, type JsonObject, type JsonValue } from '../json/json.js';
import type { ParameterRule } from './parameters.js';

const SORT_NAMES = new Set(['sort', 'sort_by', 'sortby', 'order_by', 'orderby', 'ordering']);
const DIRECTION_NAMES = new Set(['order', 'direction', 'dir', 'sort_dir', 'sortdir', 'sort_order', 'sortorder']);

export interface SortRule {
  /** The query parameter that names the members. */
  name: string;
  /** A query parameter that says the direction of them all, where the list has one. */
  direction?: string;
}

/** One member to order by. */
export interface SortKey {
  member: string;
  descending: boolean;
}

/** The sort `parameter` is, where its name and type say it is one. */
export function sortRule(parameter: ParameterRule, parameters: readonly ParameterRule[]): SortRule | undefined {
  if (!SORT_NAMES.has(parameter.name.toLowerCase())) return undefined;
  const strings = parameter.types.has('array') ? (parameter.items ?? new Set()) : parameter.types;
  if (strings.size > 0 && !strings.has('string')) return undefined;
  const direction = parameters.find(
    (other) => other.in === 'query' && other !== parameter && DIRECTION_NAMES.has(other.name.toLowerCase()),
  );
  return { name: parameter.name, ...(direction === undefined ? {} : { direction: direction.name }) };
}

/** The members a request's values name, in order, each with its direction. */
export function sortKeys(values: JsonValue | undefined, direction: JsonValue | undefined): SortKey[] {
  const list = values === undefined ? [] : Array.isArray(values) ? values : [values];
  const descendingAll = typeof direction === 'string' && /^desc(ending)?$/i.test(direction.trim());
  const keys: SortKey[] = [];
  for (const value of list) {
    if (typeof value !== 'string') continue;
    // A comma-separated list in one value is several members (sort=name,-tag).
    for (const part of value.split(',')) {
      const text = part.trim();
      const suffix = /^(.+?)(?::|\s+)(asc|desc)$/i.exec(text);
      if (suffix !== null) keys.push({ member: suffix[1]!, descending: suffix[2]!.toLowerCase() === 'desc' });
      else if (text.startsWith('-')) keys.push({ member: text.slice(1), descending: true });
      else if (text.startsWith('+')) keys.push({ member: text.slice(1), descending: false });
      else if (text !== '') keys.push({ member: text, descending: descendingAll });
    }
  }
  return keys;
}

/** The items' texts in the order `keys` say; equal items keep their order (Array.prototype.sort is stable). */
export function sortedTexts<T extends { json: string }>(entries: T[], keys: readonly SortKey[]): T[] {
  if (keys.length === 0) return entries;
  const decorated = entries.map((entry) => {
    const value = parseJson(entry.json);
    const object = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};
    return { entry, values: keys.map(({ member }) => (Object.hasOwn(object, member) ? object[member] : undefined)) };
  });
  decorated.sort((a, b) => {
    for (const [i, { descending }] of keys.entries()) {
      const order = compareValues(a.values[i], b.values[i], descending);
      if (order !== 0) return order;
    }
    return 0;
  });
  return decorated.map(({ entry }) => entry);
}

/** Missing last whichever the direction; else by type, then by value, reversed for a descending key. */
function compareValues(a: JsonValue | undefined, b: JsonValue | undefined, descending: boolean): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  const rank = typeRank(a) - typeRank(b);
  const order = rank !== 0 ? rank : sameTypeOrder(a, b);
  return descending ? -order : order;
}

function typeRank(value: JsonValue): number {
  if (typeof value === 'number' || typeof value === 'bigint' || value instanceof NonIntegralNumber) return 0;
  if (typeof value === 'string') return 1;
  if (typeof value === 'boolean') return 2;
  return 3;
}

function sameTypeOrder(a: JsonValue, b: JsonValue): number {
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (isNumeric(a) && isNumeric(b)) return compareNumbers(a, b);
  return 0;
}

const isNumeric = (value: JsonValue): value is number | bigint | NonIntegralNumber => typeRank(value) === 0;

function compareNumbers(a: number | bigint | NonIntegralNumber, b: number | bigint | NonIntegralNumber): number {
  if (typeof a !== 'object' && typeof b !== 'object' && (typeof a === 'bigint' || typeof b === 'bigint'))
    if (Number.isInteger(Number(a)) && Number.isInteger(Number(b)))
      return BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0;
  const x = Number(a instanceof NonIntegralNumber ? a.numeral : a);
  const y = Number(b instanceof NonIntegralNumber ? b.numeral : b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Code point order: UTF-16 code units order astral characters (surrogates) before U+E000–U+FFFF, which code points do not. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
