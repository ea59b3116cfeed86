// `Prefer: code=NNN` (RFC 7240, in Prism's syntax) on the API's operation:
// the stub answers the operation's declared response for that status.
import type { FastifyReply } from 'fastify';
import { TOKEN } from '../../lib/http-syntax.js';
import { ApiError } from '../errors.js';
import type { OperationContract } from '../validation.js';

export interface PreferredAnswer {
  status: number;
  body: unknown;
  preferenceApplied: string;
}

/**
 * Resolves a Prefer header; throws an ApiError for a malformed header or an
 * undeclared status; returns the forced answer, or undefined when the request
 * is to be answered normally (no `code`, or the operation's success status).
 */
export type PreferenceResolver = (header: string | string[]) => PreferredAnswer | undefined;

// RFC 7240 §2:  Prefer     = "Prefer" ":" 1#preference
//               preference = token [ BWS "=" BWS word ] *( OWS ";" [ OWS parameter ] )
//               word       = token / quoted-string
const TCHARS = TOKEN.source.slice(1, -1); // lib's token (RFC 9110 §5.6.2) without its anchors
const WORD = `(?:${TCHARS}|"(?:[^"\\\\]|\\\\.)*")`;
const PARAMETER = `${TCHARS}(?:[ \\t]*=[ \\t]*${WORD})?`;
const PREFERENCE = new RegExp(`^(${TCHARS})(?:[ \\t]*=[ \\t]*(${WORD}))?((?:[ \\t]*;(?:[ \\t]*${PARAMETER})?)*)$`);

type ResponseContent = { schema?: Record<string, unknown>; example?: unknown; examples?: Record<string, { value?: unknown }> };

/** A resolver for the operation's declared responses (read from the OpenAPI document, not listed here). */
export function preferenceResolver(contract: OperationContract): PreferenceResolver {
  const { responses } = contract;
  const declared = Object.keys(responses).filter((status) => /^[1-5]\d\d$/.test(status));
  const success = declared.find((status) => status.startsWith('2'));
  return (header) => {
    // RFC 9110 §5.3: repeated header lines are one comma-separated list.
    const preferences = parsePrefer(Array.isArray(header) ? header.join(',') : header);
    if (!preferences.has('code')) return undefined; // RFC 7240 §2: preferences a server does not know are ignored
    const code = preferences.get('code') ?? '';
    if (!/^\d{3}$/.test(code)) throw new ApiError('PREFER_MALFORMED', `Prefer: code must be a three-digit HTTP status, got ${JSON.stringify(code)}.`);
    if (!declared.includes(code)) {
      throw new ApiError(
        'PREFER_UNDECLARED',
        `Prefer: code=${code} is not a response that ${contract.method.toUpperCase()} ${contract.path} declares; declared: ${declared.join(', ')}.`,
      );
    }
    if (code === success) return undefined;
    const status = Number(code);
    const content = responses[code]?.content?.['application/json'] as ResponseContent | undefined;
    const wanted = preferences.get('example');
    const examples = content?.examples ?? {};
    // Own properties only: `example=__proto__` or `example=constructor` must not resolve through Object.prototype.
    if (wanted !== undefined && !Object.hasOwn(examples, wanted)) {
      throw new ApiError(
        'PREFER_UNDECLARED',
        `Prefer: example=${wanted} is not an example of the ${code} response; examples: ${Object.keys(examples).join(', ') || 'none'}.`,
      );
    }
    const example = wanted !== undefined ? examples[wanted]?.value : (content?.example ?? Object.values(examples)[0]?.value);
    const body = example ?? {
      // No example in the document: an Error record of our own.
      error: status * 100 + 99,
      message: `Answer requested by the header Prefer: code=${code}.`,
    };
    return { status, body, preferenceApplied: wanted === undefined ? `code=${code}` : `code=${code}, example=${wanted}` };
  };
}

/** The preferences of a Prefer header by name (lower case), values unquoted. */
export function parsePrefer(header: string): Map<string, string | undefined> {
  const preferences = new Map<string, string | undefined>();
  // Commas inside quoted strings are rare in practice and not part of Prism's
  // syntax; splitting on every comma keeps the hot path a plain split.
  for (const part of header.split(',')) {
    const trimmed = part.trim();
    if (trimmed === '') continue; // RFC 9110 §5.6.1: empty list elements are allowed
    const match = PREFERENCE.exec(trimmed);
    if (match === null) {
      throw new ApiError('PREFER_MALFORMED', `Malformed Prefer header: ${JSON.stringify(trimmed)} is not a preference (RFC 7240 §2).`);
    }
    const name = (match[1] as string).toLowerCase();
    const raw = match[2];
    const value = raw?.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    // RFC 7240 §2: with a repeated preference, the first one counts.
    if (!preferences.has(name)) preferences.set(name, value);
  }
  if (preferences.size === 0) throw new ApiError('PREFER_MALFORMED', 'Malformed Prefer header: it names no preference (RFC 7240 §2).');
  return preferences;
}

/** Sends a forced answer. */
export function sendPreferred(reply: FastifyReply, answer: PreferredAnswer): FastifyReply {
  // RFC 7240 §3: Preference-Applied names the preferences that were honoured.
  return reply
    .code(answer.status)
    .header('preference-applied', answer.preferenceApplied)
    .type('application/json; charset=utf-8')
    .send(answer.body);
}
