// Small rules of HTTP syntax that the server, the harness and the test
// doubles all apply, written once. Each quotes the RFC it implements.

/**
 * RFC 6750 §2.1:
 *   b64token    = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
 *   credentials = "Bearer" 1*SP b64token
 */
export const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

export function isB64Token(token: string): boolean {
  return B64TOKEN.test(token);
}

export const B64TOKEN_SYNTAX = 'A-Z a-z 0-9 - . _ ~ + / then any =';

/** RFC 9110 §5.6.2: token = 1*tchar (the syntax of an auth-scheme, a media type's type and subtype, a parameter name). */
export const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export interface MediaType {
  /** "type/subtype", lower-cased: RFC 9110 §8.3.1, "The type and subtype tokens are case-insensitive." */
  essence: string;
  /** Parameter names lower-cased (case-insensitive, §5.6.6), values unquoted; the first of a repeated name wins. */
  parameters: Map<string, string>;
}

/**
 * Parses a Content-Type value (RFC 9110 §8.3.1, §5.6.6):
 *   media-type = type "/" subtype parameters
 *   type = token, subtype = token
 *   parameters = *( OWS ";" OWS [ parameter ] )
 *   parameter  = parameter-name "=" parameter-value
 *   parameter-value = ( token / quoted-string )
 * Undefined when there is no type "/" subtype of two tokens. Lenient where
 * being lenient cannot change the meaning: an empty parameter, or one
 * without "=" or with an unterminated quoted-string, is passed over.
 */
export function parseMediaType(value: string | undefined): MediaType | undefined {
  if (value === undefined) return undefined;
  const semicolon = value.indexOf(';');
  const essence = (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  const slash = essence.indexOf('/');
  if (slash === -1 || !TOKEN.test(essence.slice(0, slash)) || !TOKEN.test(essence.slice(slash + 1))) return undefined;
  const parameters = new Map<string, string>();
  if (semicolon !== -1) {
    for (const part of splitParameters(value.slice(semicolon + 1))) {
      const eq = part.indexOf('=');
      if (eq === -1) continue;
      const name = part.slice(0, eq).trim().toLowerCase();
      const parameterValue = unquote(part.slice(eq + 1).trim());
      if (name !== '' && parameterValue !== undefined && !parameters.has(name)) parameters.set(name, parameterValue);
    }
  }
  return { essence, parameters };
}

/**
 * RFC 9110 §5.6.4: quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE,
 * quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text ). A value that is not
 * quoted is returned as it is; an unterminated quoted-string is undefined.
 */
function unquote(text: string): string | undefined {
  if (!text.startsWith('"')) return text;
  let result = '';
  for (let i = 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') return i === text.length - 1 ? result : undefined;
    if (c === '\\' && i + 1 < text.length) result += text[++i];
    else result += c;
  }
  return undefined;
}

/** Splits on ";" outside quoted strings. */
function splitParameters(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '\\' && i + 1 < text.length) {
      current += c + text[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ';' && !quoted) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

/** The essence ("type/subtype", lower case) of a Content-Type value, or undefined. */
export function mediaTypeEssence(value: string | undefined): string | undefined {
  return parseMediaType(value)?.essence;
}

/** One challenge of a WWW-Authenticate field value. */
export interface Challenge {
  /** The auth-scheme as written (compared case-insensitively, RFC 9110 §11.1). */
  scheme: string;
  /** Its auth-params, names lower-cased (case-insensitive, §11.2), values unquoted. */
  params: Map<string, string>;
  /** Its token68, when it has one instead of auth-params. */
  token68?: string;
}

const TCHAR = "[!#$%&'*+.^_`|~0-9A-Za-z-]";

/**
 * Parses a WWW-Authenticate field value (RFC 9110 §11.6.1, §11.2, §5.6.1):
 *   WWW-Authenticate = [ challenge *( OWS "," OWS challenge ) ]
 *   challenge  = auth-scheme [ 1*SP ( token68 / [ auth-param ] *( OWS "," OWS [ auth-param ] ) ) ]
 *   auth-param = token BWS "=" BWS ( token / quoted-string )
 * A comma may part two auth-params or two challenges: a token followed by
 * "=" is a parameter, a token followed by a space or the end is the next
 * challenge's scheme. Undefined when the value does not parse (the error
 * names where).
 */
export function parseChallenges(value: string): { challenges: Challenge[] } | { error: string } {
  const challenges: Challenge[] = [];
  let i = 0;
  const ows = () => {
    while (value[i] === ' ' || value[i] === '\t') i++;
  };
  const token = (): string | undefined => {
    const m = new RegExp(`^${TCHAR}+`).exec(value.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    return m[0];
  };
  const quoted = (): string | undefined => {
    if (value[i] !== '"') return undefined;
    let out = '';
    for (i++; i < value.length; i++) {
      const c = value[i]!;
      if (c === '"') return (i++, out);
      if (c === '\\') {
        i++;
        if (i >= value.length) return undefined;
        out += value[i];
      } else out += c;
    }
    return undefined;
  };
  ows();
  while (i < value.length) {
    const at = i;
    const scheme = token();
    if (scheme === undefined) return { error: `no auth-scheme at character ${at + 1}` };
    const challenge: Challenge = { scheme, params: new Map() };
    challenges.push(challenge);
    if (i < value.length && value[i] === ' ') {
      while (value[i] === ' ') i++;
      // An auth-param is a name, "=" and a value; a token68 has no "=" but its padding, before "," or the end.
      const rest = value.slice(i);
      const isParam = new RegExp(`^${TCHAR}+[ \\t]*=[ \\t]*("|${TCHAR})`).test(rest);
      const t68 = /^[A-Za-z0-9\-._~+/]+=*(?=[ \t]*(,|$))/.exec(rest);
      if (t68 && !isParam) {
        challenge.token68 = t68[0];
        i += t68[0].length;
      } else {
        // auth-params until a token that is not followed by "=" (the next challenge's scheme).
        for (;;) {
          ows();
          const save = i;
          const name = token();
          if (name === undefined)
            return { error: `no auth-param name at character ${i + 1} in the ${scheme} challenge` };
          ows();
          if (value[i] !== '=') {
            i = save;
            break;
          }
          i++;
          ows();
          const v = value[i] === '"' ? quoted() : token();
          if (v === undefined)
            return { error: `the value of ${name} at character ${i + 1} is neither a token nor a quoted-string` };
          const key = name.toLowerCase();
          if (!challenge.params.has(key)) challenge.params.set(key, v);
          ows();
          if (i >= value.length) break;
          if (value[i] !== ',') return { error: `a "," or the end was expected at character ${i + 1}, after ${name}` };
          i++;
          ows();
          // Empty list elements are allowed (#rule): ", ,".
          while (value[i] === ',') {
            i++;
            ows();
          }
          if (i >= value.length) break;
        }
        continue;
      }
    }
    ows();
    if (i >= value.length) break;
    if (value[i] !== ',')
      return { error: `a "," or the end was expected at character ${i + 1}, after the ${scheme} challenge` };
    i++;
    ows();
  }
  return { challenges };
}

/** application/json and the media types built on it (application/problem+json, …: RFC 6839 §3.1's +json suffix). */
export function isJsonBased(mediaType: string): boolean {
  const essence = mediaType.split(';')[0]!.trim().toLowerCase();
  return essence === 'application/json' || essence.endsWith('+json');
}
