// The credentials each security scheme of the document accepts, from the
// configuration: PLANTSTORE_TOKENS for every bearer scheme (HTTP bearer,
// oauth2, openIdConnect), PLANTSTORE_CREDENTIALS per scheme by its name
// (config.ts reads its syntax). A scheme with none configured accepts any
// well-formed credential of its kind, and the start says so at warn, naming
// the scheme and what to set.
import { B64TOKEN_SYNTAX, isB64Token } from '../../lib/http-syntax.js';
import { ConfigError } from '../config.js';
import { acceptedValues, type AcceptedValues } from './accepted.js';
import { COOKIE_OCTETS, FIELD_VALUE, isBasicPair } from './presented.js';
import type { Scheme } from './schemes.js';

export interface CredentialSettings {
  /** PLANTSTORE_TOKENS: accepted by every bearer scheme; undefined when unset. */
  tokens?: readonly string[] | undefined;
  /** PLANTSTORE_CREDENTIALS: accepted values by scheme name; undefined when unset. */
  credentials?: ReadonlyMap<string, readonly string[]> | undefined;
}

export interface SchemeCredentials {
  /** The values `scheme` accepts. */
  accepted(scheme: Scheme): AcceptedValues;
  /** Every configured value: redacted by value wherever the server shows a request or logs a line (redact.ts). */
  secrets: string[];
  /** What start.ts logs at warn: schemes that accept any credential, settings that open nothing; each with what to set. */
  warnings: string[];
}

/**
 * The accepted values of every scheme of the document. `used` names the
 * schemes some operation requires (a warning is about those). A scheme named
 * in PLANTSTORE_CREDENTIALS that the document does not declare, or a value
 * that no request of its kind could present, is a ConfigError naming the
 * scheme, never the value.
 */
export function schemeCredentials(
  schemes: ReadonlyMap<string, Scheme>,
  used: ReadonlySet<string>,
  { tokens, credentials = new Map() }: CredentialSettings,
): SchemeCredentials {
  for (const [name, values] of credentials) {
    const scheme = schemes.get(name);
    if (scheme === undefined)
      throw new ConfigError(
        `PLANTSTORE_CREDENTIALS names the scheme ${name}, which the document does not declare; its security schemes: ${[...schemes.keys()].join(', ') || 'none'}`,
      );
    for (const value of values) checkForm(scheme, value);
  }
  const byScheme = new Map<string, AcceptedValues>();
  for (const scheme of schemes.values()) {
    const own = credentials.get(scheme.name);
    const values = scheme.kind === 'bearer' && tokens !== undefined ? [...tokens, ...(own ?? [])] : own;
    byScheme.set(scheme.name, acceptedValues(values));
  }
  const secrets = [...(tokens ?? []), ...configuredSecrets(credentials)];
  return {
    accepted: (scheme) => byScheme.get(scheme.name) ?? acceptedValues([]),
    secrets,
    warnings: warnings(schemes, used, tokens, credentials),
  };
}

/** Every configured value (PLANTSTORE_CREDENTIALS) in every form a request or a line may show it (start.ts redacts them from the log). */
export function configuredSecrets(credentials: ReadonlyMap<string, readonly string[]> | undefined): string[] {
  return [...(credentials?.values() ?? [])].flat().flatMap(secretForms);
}

/** A configured value in every form a request or a line may show it: Basic's pair, its password, and its base64. */
function secretForms(value: string): string[] {
  const colon = value.indexOf(':');
  if (colon === -1) return [value];
  return [value, value.slice(colon + 1), Buffer.from(value, 'utf8').toString('base64')];
}

/** Refuses a value that no request could present for `scheme`. */
function checkForm(scheme: Scheme, value: string): void {
  const where = `PLANTSTORE_CREDENTIALS: a value of ${scheme.name}`;
  switch (scheme.kind) {
    case 'bearer':
      if (!isB64Token(value))
        throw new ConfigError(`${where} is outside RFC 6750 §2.1 b64token syntax (${B64TOKEN_SYNTAX})`);
      return;
    case 'basic':
      if (!isBasicPair(value))
        throw new ConfigError(
          `${where} is not user-id:password without control characters (RFC 7617 §2): write it as user-id:password`,
        );
      return;
    case 'apiKey':
      if (scheme.in === 'cookie' && !COOKIE_OCTETS.test(value))
        throw new ConfigError(
          `${where} holds a character a cookie value cannot (RFC 6265 §4.1.1: no space, comma, semicolon, backslash or double quote)`,
        );
      if (scheme.in === 'header' && !FIELD_VALUE.test(value))
        throw new ConfigError(
          `${where} is not a header field value (RFC 9110 §5.5): no control characters, nor white space at either end`,
        );
      return;
    case 'unserved':
      throw new ConfigError(`${where}: the server does not check ${scheme.declared} credentials`);
  }
}

function warnings(
  schemes: ReadonlyMap<string, Scheme>,
  used: ReadonlySet<string>,
  tokens: readonly string[] | undefined,
  credentials: ReadonlyMap<string, readonly string[]>,
): string[] {
  const out: string[] = [];
  const usedSchemes = [...schemes.values()].filter(({ name }) => used.has(name));
  const bearers = usedSchemes.filter(({ kind }) => kind === 'bearer');
  if (tokens === undefined) {
    const open = bearers.filter(({ name }) => !credentials.has(name));
    if (open.length > 0 && open.length === bearers.length && bearers.length === 1)
      out.push(
        'PLANTSTORE_TOKENS is not set: any well-formed bearer token is accepted; set PLANTSTORE_TOKENS to the tokens your clients send',
      );
    else if (open.length > 0)
      out.push(
        `PLANTSTORE_TOKENS is not set: any well-formed bearer token is accepted by ${open.map(({ name }) => name).join(', ')}; set PLANTSTORE_TOKENS to the tokens your clients send`,
      );
  } else if (bearers.length === 0) {
    out.push(
      'PLANTSTORE_TOKENS is set, but no operation of the document requires a bearer token: its tokens open nothing',
    );
  }
  for (const scheme of usedSchemes) {
    if (credentials.has(scheme.name)) continue;
    if (scheme.kind === 'basic')
      out.push(
        `no credentials are configured for the security scheme ${scheme.name} (HTTP Basic): any well-formed user-id and password are accepted; set PLANTSTORE_CREDENTIALS=${scheme.name}=<user-id>:<password>`,
      );
    else if (scheme.kind === 'apiKey')
      out.push(
        `no credentials are configured for the security scheme ${scheme.name} (an API key in the ${scheme.in} ${scheme.parameter}): any key that is not empty is accepted; set PLANTSTORE_CREDENTIALS=${scheme.name}=<key>`,
      );
  }
  return out;
}
