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
