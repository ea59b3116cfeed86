// The Link header field (RFC 8288 §3), which the harness follows to a list's
// next page and the test doubles write:
//   Link       = #link-value
//   link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )
//   link-param = token BWS [ "=" BWS ( token / quoted-string ) ]
// The rel parameter holds one or more relation types, separated by spaces,
// compared case-insensitively (§3.3, §2.1.1).

export interface LinkValue {
  /** The target, as written between < and >. */
  target: string;
  /** Its parameters, names lower-cased, values unquoted; the first of a repeated name wins (§3: "rel … MUST NOT appear more than once"). */
  params: Map<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

/** The link values of a Link field value; undefined when it is not RFC 8288's syntax. */
export function parseLinkHeader(field: string): LinkValue[] | undefined {
  const out: LinkValue[] = [];
  let rest = field.trim();
  while (rest.length > 0) {
    if (rest.startsWith(',')) {
      rest = rest.slice(1).trimStart();
      continue;
    }
    const target = /^<([^>]*)>/.exec(rest);
    if (!target) return undefined;
    rest = rest.slice(target[0].length).trimStart();
    const params = new Map<string, string>();
    while (rest.startsWith(';')) {
      rest = rest.slice(1).trimStart();
      const name = TOKEN.exec(rest);
      if (!name) return undefined;
      rest = rest.slice(name[0].length).trimStart();
      let value = '';
      if (rest.startsWith('=')) {
        rest = rest.slice(1).trimStart();
        const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
        const token = quoted ? undefined : TOKEN.exec(rest);
        if (!quoted && !token) return undefined;
        value = quoted ? quoted[1]!.replace(/\\(.)/g, '$1') : token![0];
        rest = rest.slice((quoted ?? token)![0].length).trimStart();
      }
      const key = name[0].toLowerCase();
      if (!params.has(key)) params.set(key, value);
    }
    if (rest.length > 0 && !rest.startsWith(',')) return undefined;
    out.push({ target: target[1]!, params });
  }
  return out;
}

/** The relation types of a link value (its rel, split on white space, lower-cased). */
export function relationsOf(link: LinkValue): string[] {
  return (link.params.get('rel') ?? '')
    .split(/\s+/)
    .filter((r) => r !== '')
    .map((r) => r.toLowerCase());
}

/** The target of the first link with rel="next" (RFC 8288 §3.3), or undefined. */
export function nextLink(field: string): string | undefined {
  return parseLinkHeader(field)?.find((l) => relationsOf(l).includes('next'))?.target;
}
