// The document's security, as the server enforces it: every security scheme
// of components/securitySchemes (OpenAPI 3.1 §4.8.27) as one of the kinds of
// credential the server reads, and each operation's requirements (its own
// `security`, else the document's: OpenAPI 3.1 §4.8.10, §4.8.30) as
// alternatives, each a list of schemes that are all needed.
import { DocumentError, resolveReference, type OpenApiDocument, type OperationLocation } from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import type { CredentialNames } from '../redact.js';

/** Where an API key is sent (OpenAPI 3.1 §4.8.27.1, `in`). */
export type KeyLocation = 'header' | 'query' | 'cookie';

/**
 * A security scheme as the server reads its credential:
 * - `bearer`: `Authorization: Bearer <token>` (RFC 6750): HTTP `bearer`, and
 *   `oauth2` and `openIdConnect`, whose access tokens a resource server
 *   receives as bearer tokens (RFC 6750 §1; OpenID Connect Core §5.3.1);
 * - `basic`: `Authorization: Basic <base64 of user-id:password>` (RFC 7617);
 * - `apiKey`: a key in a header, a query parameter or a cookie, under its name;
 * - `unserved`: a scheme the server cannot check (HTTP Digest, mutualTLS, …):
 *   a requirement that needs it is never met, and the start says so.
 */
export type Scheme =
  | { kind: 'bearer'; name: string; declared: string }
  | { kind: 'basic'; name: string }
  /** `parameter`: the header, query parameter or cookie that carries the key, as the document names it. */
  | { kind: 'apiKey'; name: string; in: KeyLocation; parameter: string }
  | { kind: 'unserved'; name: string; declared: string; authScheme: string | undefined };

/** One scheme of a requirement, with the scopes it lists (oauth2 and openIdConnect; roles for the others). */
export interface RequiredScheme {
  scheme: Scheme;
  scopes: readonly string[];
}

/** An operation's security: alternatives, any one of which is enough; each needs all of its schemes. */
export interface OperationSecurity {
  /** Empty when the operation requires no credentials (`security: []`, or an empty requirement `{}` among them). */
  alternatives: ReadonlyArray<readonly RequiredScheme[]>;
}

/** Every scheme the document declares, by name, read once. */
export function documentSchemes(doc: OpenApiDocument): Map<string, Scheme> {
  const schemes = new Map<string, Scheme>();
  const declared = doc.components?.securitySchemes ?? {};
  for (const [name, raw] of Object.entries(declared)) {
    const pointer = childPointer('#/components/securitySchemes', name);
    const { value, pointer: at } = resolveReference(doc, raw, pointer);
    schemes.set(name, schemeOf(name, value, at));
  }
  return schemes;
}

function schemeOf(name: string, scheme: Record<string, unknown>, pointer: string): Scheme {
  const type = scheme.type;
  if (type === 'http') {
    const authScheme = typeof scheme.scheme === 'string' ? scheme.scheme : undefined;
    if (authScheme === undefined)
      throw new DocumentError(pointer, 'scheme', 'an http security scheme names its scheme');
    // RFC 9110 §11.1: an auth-scheme is case-insensitive.
    const lower = authScheme.toLowerCase();
    if (lower === 'bearer') return { kind: 'bearer', name, declared: 'HTTP bearer' };
    if (lower === 'basic') return { kind: 'basic', name };
    return { kind: 'unserved', name, declared: `HTTP ${authScheme}`, authScheme };
  }
  if (type === 'oauth2') return { kind: 'bearer', name, declared: 'OAuth 2.0' };
  if (type === 'openIdConnect') return { kind: 'bearer', name, declared: 'OpenID Connect' };
  if (type === 'apiKey') {
    const where = scheme.in;
    if (where !== 'header' && where !== 'query' && where !== 'cookie')
      throw new DocumentError(
        childPointer(pointer, 'in'),
        'in',
        'an apiKey scheme is in a header, a query or a cookie',
      );
    if (typeof scheme.name !== 'string' || scheme.name === '')
      throw new DocumentError(pointer, 'name', 'an apiKey scheme names its header, query parameter or cookie');
    return { kind: 'apiKey', name, in: where, parameter: scheme.name };
  }
  if (type === 'mutualTLS') return { kind: 'unserved', name, declared: 'mutual TLS', authScheme: undefined };
  throw new DocumentError(
    childPointer(pointer, 'type'),
    'type',
    `${JSON.stringify(type)} is not a type of security scheme (OpenAPI 3.1 §4.8.27: apiKey, http, mutualTLS, oauth2, openIdConnect)`,
  );
}

/**
 * The operation's security: its own `security`, else the document's
 * (OpenAPI 3.1 §4.8.10); none when the list is empty or holds an empty
 * requirement (`{}`: anonymous access is one of the choices). A name that
 * no scheme of the document declares is a DocumentError (§4.8.30: each
 * name "MUST correspond to a security scheme which is declared").
 */
export function operationSecurity(
  doc: OpenApiDocument,
  { operation, pointer }: OperationLocation,
  schemes: ReadonlyMap<string, Scheme>,
): OperationSecurity {
  const own = operation.security !== undefined;
  const requirements = operation.security ?? doc.security;
  const at = own ? childPointer(pointer, 'security') : '#/security';
  if (!Array.isArray(requirements)) return { alternatives: [] };
  const alternatives: RequiredScheme[][] = [];
  for (const [index, requirement] of requirements.entries()) {
    if (!isSchemaObject(requirement)) continue;
    const entries = Object.entries(requirement);
    // An empty requirement: no credentials is one of the choices, so none are required.
    if (entries.length === 0) return { alternatives: [] };
    alternatives.push(
      entries.map(([name, scopes]) => {
        const scheme = schemes.get(name);
        if (scheme === undefined)
          throw new DocumentError(
            childPointer(at, index, name),
            undefined,
            `the security requirement names ${name}, which components/securitySchemes does not declare (OpenAPI 3.1 §4.8.30)`,
          );
        return { scheme, scopes: Array.isArray(scopes) ? scopes.filter((s) => typeof s === 'string') : [] };
      }),
    );
  }
  return { alternatives };
}

/**
 * Why an alternative can never be met, or undefined when it can: a scheme
 * the server cannot check, or two kinds of credential that both are the
 * one Authorization header (Basic and Bearer) make it impossible. Two bearer
 * schemes together are met by one token both accept.
 */
export function unsatisfiable(alternative: readonly RequiredScheme[]): string | undefined {
  const unserved = alternative.find(({ scheme }) => scheme.kind === 'unserved');
  if (unserved !== undefined) return `it needs ${unserved.scheme.name}, which the server does not check`;
  const kinds = new Set(alternative.filter(({ scheme }) => usesAuthorization(scheme)).map(({ scheme }) => scheme.kind));
  if (kinds.size > 1)
    return `it needs ${[...kinds].join(' and ')} credentials at once, and a request has one Authorization header`;
  return undefined;
}

/** Whether the scheme's credential is the Authorization header (Bearer, Basic, or an API key sent in it). */
export function usesAuthorization(scheme: Scheme): boolean {
  return (
    scheme.kind === 'bearer' ||
    scheme.kind === 'basic' ||
    (scheme.kind === 'apiKey' && scheme.in === 'header' && scheme.parameter.toLowerCase() === 'authorization')
  );
}

/** The names of the document's API keys, by where they are sent (a header's in lower case): what they carry is redacted by name. */
export function keyNames(schemes: ReadonlyMap<string, Scheme>): CredentialNames {
  const names = { header: [] as string[], query: [] as string[], cookie: [] as string[] };
  for (const scheme of schemes.values())
    if (scheme.kind === 'apiKey')
      names[scheme.in].push(scheme.in === 'header' ? scheme.parameter.toLowerCase() : scheme.parameter);
  return names;
}
