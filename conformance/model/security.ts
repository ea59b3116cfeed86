// The security schemes of the document as the harness sends them (OpenAPI
// 3.1 §4.8.27 Security Scheme Object): what kind of credential each takes,
// where it goes in a request, and the challenge a refusal of it carries
// where an RFC registers one. operation-model.ts gives every operation its
// requirement's alternatives, each a list of these.
import type { OpenApiDocument } from '../../spec/openapi.js';

/**
 * The credentials the harness can send:
 * - `bearer`: a token in `Authorization: Bearer` (RFC 6750 §2.1): HTTP
 *   bearer, and the access tokens of oauth2 and openIdConnect (OpenAPI 3.1
 *   §4.8.27: both are used with bearer tokens);
 * - `basic`: `user:password` in `Authorization: Basic` (RFC 7617 §2);
 * - `apiKey`: a value in a header, a query parameter or a cookie.
 * Other schemes (mutualTLS, HTTP Digest, …) the harness cannot send: the
 * checks that need one name it and skip.
 */
export type CredentialKind = 'bearer' | 'basic' | 'apiKey';

/** The auth-schemes of challenges an RFC ties to a credential kind: Bearer (RFC 6750 §3), Basic (RFC 7617 §2). */
export type ChallengeScheme = 'Bearer' | 'Basic';

export interface SecuritySchemeModel {
  /** Its name under components.securitySchemes. */
  name: string;
  /** `http`, `apiKey`, `oauth2`, `openIdConnect`, `mutualTLS`, as the document writes it. */
  type: string;
  /** An http scheme's `scheme` (case-insensitive, RFC 9110 §11.1). */
  scheme?: string;
  /** An apiKey's location. */
  in?: 'header' | 'query' | 'cookie';
  /** An apiKey's parameter name (the header, query parameter or cookie). */
  key?: string;
  /** The scopes the requirement lists for it (oauth2, openIdConnect; OpenAPI 3.1 §4.8.30). */
  scopes: string[];
}

/** The kind of credential a scheme takes; undefined when the harness cannot send it. */
export function credentialKind(
  s: Pick<SecuritySchemeModel, 'type' | 'scheme' | 'in' | 'key'>,
): CredentialKind | undefined {
  const http = s.type === 'http' ? s.scheme?.toLowerCase() : undefined;
  if (http === 'bearer' || s.type === 'oauth2' || s.type === 'openIdConnect') return 'bearer';
  if (http === 'basic') return 'basic';
  if (s.type === 'apiKey' && s.in !== undefined && s.key !== undefined && s.key !== '') return 'apiKey';
  return undefined;
}

/** The challenge a refusal of this scheme's credential carries where an RFC registers one; undefined for an API key. */
export function challengeOf(s: SecuritySchemeModel): ChallengeScheme | undefined {
  const kind = credentialKind(s);
  return kind === 'bearer' ? 'Bearer' : kind === 'basic' ? 'Basic' : undefined;
}

/** Whether the credential goes in the Authorization field (bearer, basic). */
export function inAuthorization(s: SecuritySchemeModel): boolean {
  const kind = credentialKind(s);
  return kind === 'bearer' || kind === 'basic';
}

/** A scheme in words, for a message: "the API key X-API-Key (apiKey in header, scheme plantKey)". */
export function describeScheme(s: SecuritySchemeModel): string {
  const kind = credentialKind(s);
  if (kind === 'apiKey') return `the API key ${s.key} (apiKey in ${s.in}, scheme ${s.name})`;
  if (kind === 'basic') return `HTTP Basic credentials (scheme ${s.name})`;
  if (kind === 'bearer')
    return `a bearer token (${s.type === 'http' ? 'http bearer' : s.type}${s.scopes.length > 0 ? ` with scopes ${s.scopes.join(', ')}` : ''}, scheme ${s.name})`;
  return `${s.type}${s.scheme ? ` ${s.scheme}` : ''} credentials (scheme ${s.name}, which the harness cannot send)`;
}

/** A requirement's alternative in words: its schemes joined with "and". */
export function describeAlternative(alternative: readonly SecuritySchemeModel[]): string {
  return alternative.length === 0 ? 'no credentials' : alternative.map(describeScheme).join(' and ');
}

/** The document's security scheme `name`, with the scopes a requirement lists for it. */
export function schemeModel(doc: OpenApiDocument, name: string, scopes: readonly string[] = []): SecuritySchemeModel {
  const s = doc.components.securitySchemes?.[name] ?? {};
  const where = s.in;
  return {
    name,
    type: String(s.type),
    ...(typeof s.scheme === 'string' ? { scheme: s.scheme } : {}),
    ...(where === 'header' || where === 'query' || where === 'cookie' ? { in: where } : {}),
    ...(typeof s.name === 'string' ? { key: s.name } : {}),
    scopes: [...scopes],
  };
}

/** Every security scheme the document declares (no scopes). */
export function declaredSchemes(doc: OpenApiDocument): SecuritySchemeModel[] {
  return Object.keys(doc.components.securitySchemes ?? {}).map((name) => schemeModel(doc, name));
}
