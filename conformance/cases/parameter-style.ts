// A parameter's value written as OpenAPI 3.1 §4.8.12.4 (Style Values, and
// the table of Style Examples) says for its location, style and explode: a
// primitive as its text, an array or an object in the path (simple, label,
// matrix), the query (form, spaceDelimited, pipeDelimited, deepObject), a
// header (simple) or a cookie (form). A parameter declared with `content`
// is its media type's text (JSON), as one value. What the harness cannot
// write (an object under spaceDelimited, say) is RuledOut, naming the style.
import { Numeral, toJson, type JsonValue } from '../model/json.js';
import type { ParameterModel } from '../model/operation-model.js';
import { RuledOut } from '../model/ruled-out.js';

/** What a parameter puts in a request: query pairs (name, value; both unencoded), a path segment, a header value or cookie pairs. */
export type Written =
  | { in: 'query'; pairs: Array<[string, string]> }
  | { in: 'path'; segment: string }
  | { in: 'header'; value: string }
  | { in: 'cookie'; pairs: Array<[string, string]> };

const isObject = (v: JsonValue): v is Record<string, JsonValue> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Numeral);

/** A primitive's text: a string as it is, a number by its digits, a boolean or null as JSON writes it. */
export function primitiveText(value: JsonValue): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Numeral) return value.text;
  return toJson(value);
}

/** An object's members as name, value pairs, in order. */
const entries = (v: Record<string, JsonValue>) => Object.entries(v).map(([k, x]) => [k, primitiveText(x)] as const);

/** Writes `value` as the parameter's style says (OpenAPI 3.1 §4.8.12.4). */
export function writeParameter(p: ParameterModel, value: JsonValue): Written {
  const name = p.name;
  const explode = p.explode;
  // A `content` parameter: its media type's text, one value (JSON: the value's JSON text).
  const raw = p.contentType !== undefined ? (typeof value === 'string' ? value : toJson(value)) : undefined;
  if (p.in === 'path') {
    const enc = encodeURIComponent;
    if (raw !== undefined) return { in: 'path', segment: enc(raw) };
    const parts = (sep: string, prefix: (k?: string) => string) => {
      if (Array.isArray(value)) return value.map((x) => enc(primitiveText(x))).join(sep);
      if (isObject(value))
        return entries(value)
          .map(([k, x]) => (explode ? `${prefix(k)}${enc(k)}=${enc(x)}` : `${enc(k)}${sep}${enc(x)}`))
          .join(explode ? '' : sep);
      return enc(primitiveText(value));
    };
    switch (p.style) {
      case 'label':
        if (isObject(value) && explode) return { in: 'path', segment: parts('', () => '.') };
        return { in: 'path', segment: `.${parts(explode ? '.' : ',', () => '.')}` };
      case 'matrix':
        if (Array.isArray(value) && explode)
          return { in: 'path', segment: value.map((x) => `;${enc(name)}=${enc(primitiveText(x))}`).join('') };
        if (isObject(value) && explode) return { in: 'path', segment: parts('', () => ';') };
        return { in: 'path', segment: `;${enc(name)}=${parts(',', () => '')}` };
      default: {
        // simple
        if (isObject(value) && explode)
          return {
            in: 'path',
            segment: entries(value)
              .map(([k, x]) => `${enc(k)}=${enc(x)}`)
              .join(','),
          };
        return { in: 'path', segment: parts(',', () => '') };
      }
    }
  }
  if (p.in === 'header') {
    if (raw !== undefined) return { in: 'header', value: raw };
    if (Array.isArray(value)) return { in: 'header', value: value.map(primitiveText).join(',') };
    if (isObject(value))
      return {
        in: 'header',
        value: entries(value)
          .map(([k, x]) => (explode ? `${k}=${x}` : `${k},${x}`))
          .join(','),
      };
    return { in: 'header', value: primitiveText(value) };
  }
  const where = p.in === 'cookie' ? 'cookie' : 'query';
  const pairs = (list: Array<[string, string]>): Written =>
    where === 'cookie' ? { in: 'cookie', pairs: list } : { in: 'query', pairs: list };
  if (raw !== undefined) return pairs([[name, raw]]);
  const style = p.style;
  if (style === 'deepObject') {
    if (!isObject(value))
      throw new RuledOut(`the ${p.in} parameter ${name} is deepObject, and its value is not an object`);
    return pairs(entries(value).map(([k, x]) => [`${name}[${k}]`, x]));
  }
  if (style === 'spaceDelimited' || style === 'pipeDelimited') {
    const sep = style === 'spaceDelimited' ? ' ' : '|';
    if (Array.isArray(value)) {
      if (explode) return pairs(value.map((x) => [name, primitiveText(x)]));
      return pairs([[name, value.map(primitiveText).join(sep)]]);
    }
    if (isObject(value)) {
      if (explode)
        throw new RuledOut(`the ${p.in} parameter ${name}: ${style} with explode defines no way to write an object`);
      return pairs([[name, entries(value).flat().join(sep)]]);
    }
    return pairs([[name, primitiveText(value)]]);
  }
  // form (the default of query and cookie)
  if (Array.isArray(value)) {
    if (explode) return pairs(value.map((x) => [name, primitiveText(x)]));
    return pairs([[name, value.map(primitiveText).join(',')]]);
  }
  if (isObject(value)) {
    if (explode) return pairs(entries(value).map(([k, x]) => [k, x]));
    return pairs([[name, entries(value).flat().join(',')]]);
  }
  return pairs([[name, primitiveText(value)]]);
}

/** Query pairs as a query string (each name and value percent-encoded, RFC 3986 §3.4). */
export function queryString(pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}
