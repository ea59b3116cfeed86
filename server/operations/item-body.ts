// What the operations on one item (item.ts) make of a body: the id a body
// or a patch names must be the path's (a replace or a merge does not move
// an item to another id); a replacement keeps the id member the item
// declares where the body leaves it out (a readOnly id is not sent); a
// merge is the stored item with the patch applied (RFC 7396), judged as a
// whole item.
import { ApiError } from '../http/errors.js';
import { NonIntegralNumber, parseJson, type JsonObject, type JsonValue } from '../json/json.js';
import { storedPlantText } from './stored-plant.js';
import { describe } from '../http/validation.js';
import type { ItemKind } from './item-kind.js';
import { mergePatch } from './merge-patch.js';
import { idJson, idOfValue, type IdRule } from './resource-ids.js';

export function isObject(value: JsonValue): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof NonIntegralNumber);
}

/** A body member's value as an error message quotes it: a number's or string's own text, else its JSON type. */
function describedValue(value: JsonValue): string {
  if (value instanceof NonIntegralNumber) return JSON.stringify(value.numeral);
  if (typeof value === 'object' && value !== null) return Array.isArray(value) ? 'an array' : 'an object';
  return JSON.stringify(String(value));
}

/** The id a body or a patch names, when it names one, must be the path's (400, ID_MISMATCH). */
export function checkSameId(
  value: JsonValue,
  id: string,
  rule: IdRule,
  noun: string,
  what: 'replace' | 'merge' = 'replace',
): void {
  const property = rule.property;
  if (property === undefined || !isObject(value) || !Object.hasOwn(value, property)) return;
  const named = value[property]!;
  const same =
    rule.kind === 'integer'
      ? (typeof named === 'number' || typeof named === 'bigint') &&
        Number.isInteger(Number(named)) &&
        BigInt(named) === BigInt(id)
      : idOfValue(named, 'string') === id;
  if (!same) {
    const verb = what === 'merge' ? 'A merge patch cannot change' : 'A replacement cannot change';
    throw new ApiError(
      'ID_MISMATCH',
      `${verb} the ${noun}'s id: the body's ${property} is ${describedValue(named)}, the path names ${id}.`,
    );
  }
}

/** The item's text with its id member first where the item declares one and the body (`value`) has none (it left a readOnly id out). */
export function withIdMember(kind: ItemKind, json: string, id: string, value: JsonObject): string {
  const { property, kind: idKind } = kind.resource.id;
  if (property === undefined || !kind.shape.keeps(property) || Object.hasOwn(value, property)) return json;
  return `{${JSON.stringify(property)}:${idJson(id, idKind)}${json === '{}' ? '' : `,${json.slice(1, -1)}`}}`;
}

/** The stored item `old` with the patch applied (RFC 7396), judged as a whole item (400, nothing changed), keeping what the item declares. */
export function mergedItem(kind: ItemKind, old: string, patch: string): string {
  const text = mergePatch(old, patch);
  const topLevelNames: string[] = [];
  const value = parseJson(text, { topLevelNames });
  const what = `The merged ${kind.resource.noun} is not a valid ${kind.resource.noun === 'plant' ? 'Plant' : 'item'}`;
  const violations = kind.validateItem()(value);
  if (violations.length > 0) throw new ApiError('INVALID_BODY', `${what}: ${describe(violations).join('; ')}.`);
  if (!isObject(value)) throw new ApiError('INVALID_BODY', `${what}: it must be a JSON object.`);
  return storedPlantText(kind.shape, value, { sent: { text, topLevelNames }, at: 0 });
}
