// Security compared: each operation's requirements, alternative by
// alternative, and the schemes the components define.
import { operationsOf, type OpenApiDocument, type OperationLocation } from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import type { SideVerdict } from './change.js';
import { bearing, type Changes } from './changes.js';
import { sameJson } from './schema-delta.js';
import { SOURCES } from './sources.js';

interface SchemeUse {
  name: string;
  /** The scheme's definition as it bears on what is sent: type, scheme, where the key goes. */
  definition: string;
  scopes: string[];
}

const SCHEME_FIELDS = ['type', 'scheme', 'in', 'name', 'openIdConnectUrl', 'flows'];

function schemeDefinition(doc: OpenApiDocument, name: string): string {
  const s = doc.components.securitySchemes?.[name];
  if (!isSchemaObject(s)) return `undefined:${name}`;
  const norm = Object.fromEntries(
    SCHEME_FIELDS.filter((f) => s[f] !== undefined).map((f) => [
      f,
      f === 'scheme' || (f === 'name' && s.in === 'header') ? String(s[f]).toLowerCase() : s[f],
    ]),
  );
  return JSON.stringify(norm);
}

function requirementOf(doc: OpenApiDocument, op: OperationLocation): { alternatives: SchemeUse[][]; pointer: string } {
  const own = op.operation.security;
  const list = own ?? doc.security ?? [];
  return {
    pointer: own !== undefined ? childPointer(op.pointer, 'security') : '#/security',
    alternatives: list.map((req) =>
      Object.entries(req).map(([name, scopes]) => ({
        name,
        definition: schemeDefinition(doc, name),
        scopes: [...(scopes ?? [])].sort(),
      })),
    ),
  };
}

const alternativeKey = (alt: SchemeUse[]) => JSON.stringify(alt.map((u) => [u.definition, u.scopes]).sort());
const describeAlternative = (alt: SchemeUse[]) =>
  alt.length === 0
    ? 'no credentials'
    : alt.map((u) => `${u.name}${u.scopes.length ? ` (${u.scopes.join(' ')})` : ''}`).join(' + ');

/**
 * Security Requirement Objects: each alternative is a way to be let in
 * (OpenAPI 3.1 §4.8.30), compared by what the schemes ask to be sent, not by
 * their names (a renamed scheme asks the same). An alternative gone refuses
 * existing clients that used it; one added lets new clients use what
 * existing servers refuse. An empty alternative lets anyone in.
 */
export function securityDelta(
  changes: Changes,
  base: OpenApiDocument,
  head: OpenApiDocument,
  b: OperationLocation,
  h: OperationLocation,
  label: string,
): void {
  const before = requirementOf(base, b);
  const after = requirementOf(head, h);
  changes.claim(
    before.pointer === '#/security' ? undefined : before.pointer,
    after.pointer === '#/security' ? undefined : after.pointer,
  );
  changes.claim('#/security', '#/security');
  const bKeys = new Set(before.alternatives.map(alternativeKey));
  const hKeys = new Set(after.alternatives.map(alternativeKey));
  const anonymousBefore = before.alternatives.some((a) => a.length === 0);
  const anonymousAfter = after.alternatives.some((a) => a.length === 0);
  const gone = before.alternatives.filter((a) => !hKeys.has(alternativeKey(a)));
  const come = after.alternatives.filter((a) => !bKeys.has(alternativeKey(a)));
  if (gone.length === 0 && come.length === 0) return;
  const clients: SideVerdict = gone.length > 0 && !anonymousAfter ? 'breaks' : 'compatible';
  const servers: SideVerdict = come.length > 0 && !anonymousBefore ? 'breaks' : 'compatible';
  const why = [
    ...(clients === 'breaks'
      ? [`existing clients that authenticate with ${gone.map(describeAlternative).join(' or ')} are refused`]
      : []),
    ...(servers === 'breaks'
      ? [
          `new clients that authenticate with ${come.map(describeAlternative).join(' or ')} are refused by existing servers`,
        ]
      : []),
  ].join('; ');
  // A requirement written the same, whose scheme's definition changed: the change is the scheme's.
  const sameText = sameJson(
    before.alternatives.map((a) => a.map((u) => [u.name, u.scopes])),
    after.alternatives.map((a) => a.map((u) => [u.name, u.scopes])),
  );
  const scheme = sameText ? [...gone, ...come].flat().map((u) => u.name)[0] : undefined;
  const pointer = scheme !== undefined ? childPointer('#/components/securitySchemes', scheme) : after.pointer;
  changes.add({
    keyword: scheme !== undefined ? 'securityScheme' : 'security',
    pointer,
    ...(scheme === undefined && before.pointer !== after.pointer ? { basePointer: before.pointer } : {}),
    before:
      scheme !== undefined ? base.components.securitySchemes?.[scheme] : before.alternatives.map(describeAlternative),
    after:
      scheme !== undefined ? head.components.securitySchemes?.[scheme] : after.alternatives.map(describeAlternative),
    what:
      scheme !== undefined
        ? `security scheme ${scheme} changed`
        : `security requirement changed: ${before.alternatives.map(describeAlternative).join(' or ') || 'none'} → ${after.alternatives.map(describeAlternative).join(' or ') || 'none'}`,
    source: scheme !== undefined ? SOURCES.securityScheme : SOURCES.securityRequirement,
    bearing: bearing(
      `security of ${label}`,
      'request',
      clients === 'breaks' && servers === 'breaks'
        ? 'both'
        : clients === 'breaks'
          ? 'tighter'
          : servers === 'breaks'
            ? 'looser'
            : 'none',
      why || 'anyone was let in before, or is now',
      { clients, servers },
    ),
  });
}

/** The schemes' own fields: what a requirement does not already account for (a description, a bearerFormat) is an annotation. */
export function securitySchemesDelta(changes: Changes, base: OpenApiDocument, head: OpenApiDocument): void {
  const bs = base.components.securitySchemes ?? {};
  const hs = head.components.securitySchemes ?? {};
  for (const name of new Set([...Object.keys(bs), ...Object.keys(hs)])) {
    const p = childPointer('#/components/securitySchemes', name);
    // What the requirements use was compared there; a scheme no requirement names changes nothing sent.
    for (const f of SCHEME_FIELDS) changes.claim(childPointer(p, f), childPointer(p, f));
    if (!Object.hasOwn(bs, name) || !Object.hasOwn(hs, name)) {
      changes.claim(p, p);
      // A scheme a requirement names was compared there, by what it asks to be sent (a renamed scheme asks the same).
      if (Object.hasOwn(bs, name) ? namedByRequirement(base, name) : namedByRequirement(head, name)) continue;
      changes.add({
        keyword: 'securityScheme',
        pointer: p,
        ...(Object.hasOwn(bs, name) ? { before: bs[name] } : { after: hs[name] }),
        what: `security scheme ${name} ${Object.hasOwn(hs, name) ? 'added' : 'removed'}`,
        source: SOURCES.securityScheme,
        detail: 'presence',
        bearing: bearing(
          'components',
          'operation',
          'none',
          'a scheme matters where a security requirement names it: those are compared per operation',
        ),
      });
    }
  }
}

function namedByRequirement(doc: OpenApiDocument, name: string): boolean {
  const requirements = [...(doc.security ?? []), ...operationsOf(doc).flatMap((op) => op.operation.security ?? [])];
  return requirements.some((r) => Object.hasOwn(r, name));
}
