// Witnesses of the rules about the parts of an operation (witness.ts): an
// operation gone, come or moved; a parameter or a body now required, or no
// longer; a media type or a status declared or not; the credentials a
// security requirement asks; what the answer carries back. Each is the
// exchange one document declares and the other does not, said in one line.
import { resolveReference } from '../../spec/openapi.js';
import { childPointer, isSchemaObject } from '../../spec/schema-keywords.js';
import { schemaAtPointer } from '../cases/draw.js';
import type { DocumentSchemas, Validator } from '../model/spec-model.js';
import type { Change, Side } from './change.js';

export interface Witness {
  role: 'request' | 'response';
  /** The exchange in one line, as a spec author reads it: what is sent or answered. */
  example: string;
  /** The body, where the witness is one (judged by the documents' validators). */
  body?: unknown;
  /** The document that allows it; the other refuses it with `refusal`. */
  validUnder: 'old' | 'new';
  refusal: string;
}

export interface WitnessDocument extends DocumentSchemas {
  /** The validator of the schema at `pointer`, as the harness compiles it (undefined: no schema there). */
  validator(pointer: string): Validator | undefined;
}

/** JSON on one line, long strings cut short (a witness is read, the JSON report keeps the whole body). */
export function shortJson(value: unknown): string {
  const text =
    JSON.stringify(value, (_k, v: unknown) =>
      typeof v === 'bigint'
        ? `${v}n:bigint`
        : typeof v === 'string' && v.length > 40
          ? `${v.slice(0, 12)}…(${v.length} characters)`
          : v,
    ) ?? String(value);
  return text.replace(/"(-?\d+)n:bigint"/g, '$1');
}

const operationOf = (usage: string) => usage.slice(usage.lastIndexOf(' of ') + 4);

/** What a security scheme asks to be sent, in words. */
function credentials(scheme: unknown, name: string): string {
  if (!isSchemaObject(scheme)) return name;
  if (scheme.type === 'http') {
    const word = typeof scheme.scheme === 'string' ? scheme.scheme : '';
    return `Authorization: ${word.slice(0, 1).toUpperCase()}${word.slice(1)} …`;
  }
  if (scheme.type === 'apiKey') return `the ${String(scheme.in)} ${String(scheme.name)}`;
  return `${String(scheme.type)} credentials (${name})`;
}

function alternatives(d: DocumentSchemas, described: unknown): string {
  const list = Array.isArray(described) ? described.map(String) : [];
  if (list.length === 0) return 'no credentials';
  return list
    .map((alt) =>
      alt
        .split(' + ')
        .map((n) => {
          const name = n.replace(/ \(.*\)$/, '');
          return credentials(d.doc.components.securitySchemes?.[name], name);
        })
        .join(' and '),
    )
    .join(', or ');
}

const witness = (role: Witness['role'], example: string, validUnder: 'old' | 'new', refusal: string): Witness => ({
  role,
  example,
  validUnder,
  refusal,
});

/** A body the declared schema of the response at `pointer` refuses (any JSON will do: an undeclared status holds anything). */
function refusedBody(d: WitnessDocument, pointer: string): { body: unknown; why: string } | undefined {
  let response: { value: unknown; pointer: string };
  try {
    response = resolveReference(d.doc, schemaAtPointer(d, pointer), pointer);
  } catch {
    return undefined;
  }
  const content =
    isSchemaObject(response.value) && isSchemaObject(response.value.content) ? response.value.content : {};
  const type = Object.keys(content)[0];
  const validate =
    type === undefined ? undefined : d.validator(childPointer(response.pointer, 'content', type, 'schema'));
  for (const body of [{}, 'w', [], null, 0]) {
    const refused = validate?.(body) ?? [];
    if (refused.length > 0)
      return { body, why: `${type} ${refused.map((v) => `${v.instancePath || '/'} ${v.message}`).join('; ')}` };
  }
  return undefined;
}

/** The witness of a change to an operation's parts; undefined for a change to a schema (witness.ts builds that) or one no exchange shows. */
export function exchangeWitness(
  change: Change,
  side: Side,
  base: WitnessDocument,
  head: WitnessDocument,
): Witness | undefined {
  const b = change.bearings.find((x) => x[side] === 'breaks');
  if (!b || b.site !== undefined) return undefined;
  const label = operationOf(b.usage);
  // Fewer valid requests break clients (the old document allows what the new refuses); more break servers.
  const old = side === 'clients';
  const [allows, refuses] = old ? (['old', 'new'] as const) : (['new', 'old'] as const);
  switch (change.keyword) {
    case 'operation': {
      const was = typeof change.before === 'string' ? change.before : undefined;
      const is = typeof change.after === 'string' ? change.after : undefined;
      const call = old ? was : is;
      if (!call) return undefined;
      return witness(
        'request',
        call,
        allows,
        `the ${refuses} document declares no ${call}${was && is ? ` (it moved: ${was} → ${is})` : ''}`,
      );
    }
    case 'parameter': {
      const p = (change.after ?? change.before) as { name?: string; in?: string } | undefined;
      return witness(
        'request',
        `${label} without the ${p?.in} parameter ${p?.name}`,
        allows,
        `the ${refuses} document requires the ${p?.in} parameter ${p?.name}`,
      );
    }
    case 'required':
    case 'requestBody': {
      const what = b.usage.slice(0, b.usage.lastIndexOf(' of '));
      const thing = what === 'request body' ? 'a body' : `the ${what}`;
      return witness('request', `${label} without ${thing}`, allows, `the ${refuses} document requires ${thing}`);
    }
    case 'content': {
      const type = String(change.after ?? change.before);
      if (b.role === 'request')
        return witness(
          'request',
          `${label} with Content-Type: ${type}`,
          allows,
          `the ${refuses} document declares no ${type} for the request body (415)`,
        );
      // An answer: in a type one document declares and the other does not.
      const declaredIn = change.after !== undefined ? 'new' : 'old';
      if ((declaredIn === 'new') !== (side === 'clients')) return undefined;
      return witness(
        'response',
        `${b.usage.slice(0, b.usage.lastIndexOf(' of '))} as ${type}`,
        declaredIn,
        `the ${declaredIn === 'new' ? 'old' : 'new'} document declares no ${type} for it`,
      );
    }
    case 'response':
      return statusWitness(change, side, label, base, head);
    case 'security':
    case 'securityScheme': {
      const doc = old ? base : head;
      const sent =
        change.keyword === 'securityScheme'
          ? credentials(old ? change.before : change.after, change.pointer.split('/').pop()!)
          : alternatives(doc, old ? change.before : change.after);
      const asked =
        change.keyword === 'securityScheme'
          ? credentials(old ? change.after : change.before, change.pointer.split('/').pop()!)
          : alternatives(old ? head : base, old ? change.after : change.before);
      return witness('request', `${label} with ${sent}`, allows, `the ${refuses} document asks for ${asked}`);
    }
    case 'echo': {
      const name = change.member ?? '';
      return witness(
        'response',
        `the answer to a ${label} that sent ${name}, without ${name}`,
        side === 'servers' ? 'old' : 'new',
        `the ${side === 'servers' ? 'new' : 'old'} document's answer carries back ${name} (the stored plant record, as sent)`,
      );
    }
    default:
      return undefined;
  }
}

/** A status one document declares and the other does not (response-diff.ts says which side each breaks). */
function statusWitness(
  change: Change,
  side: Side,
  label: string,
  base: WitnessDocument,
  head: WitnessDocument,
): Witness | undefined {
  const status = String(change.after ?? change.before);
  const added = change.after !== undefined;
  if (status.startsWith('2')) {
    // A success status: what a valid request is answered with.
    if (added && side === 'clients')
      return witness(
        'response',
        `a valid request to ${label} answered ${status}`,
        'new',
        `the old document declares no ${status} for ${label}`,
      );
    if (!added && side === 'servers')
      return witness(
        'response',
        `a valid request to ${label} answered ${status}`,
        'old',
        `the new document declares no ${status} for ${label}`,
      );
    return undefined;
  }
  // An error status: undeclared, it may hold anything; declared, what its schema allows.
  const declaring = added ? head : base;
  const refused = refusedBody(declaring, change.pointer);
  if (!refused || (added ? side !== 'servers' : side !== 'clients')) return undefined;
  return witness(
    'response',
    `a ${status} answer of ${label}: ${shortJson(refused.body)}`,
    added ? 'old' : 'new',
    `${refused.why} (where the ${added ? 'old' : 'new'} document declares no ${status}, a ${status} may hold anything)`,
  );
}
