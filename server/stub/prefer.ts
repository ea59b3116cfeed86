// The Prefer header (RFC 7240) on the API's operation: what a request asks
// of the stub, as a step (fault-schedule.ts), and the answer a step with a
// `code` gets.
//
//   code=N            a declared status (Prism's syntax: its example), or any error status 400 to 599
//   example=NAME      with a declared code: that example of the document
//   retry-after=S     with an error code: Retry-After: S
//   delay=MS          this request waits MS milliseconds first
//   fault=F           a failure on the wire (WIRE_FAULTS)
//   bytes=N           with fault=dribble: bytes per chunk
//   interval=MS       with fault=dribble: milliseconds between chunks
import type { FastifyReply } from 'fastify';
import { TOKEN, isJsonBased } from '../../lib/http-syntax.js';
import type { MediaTypeObject } from '../../spec/openapi.js';
import { REALM } from '../security/auth.js';
import type { ErrorRecord } from '../http/error-body.js';
import { sendRecord } from '../http/error-handler.js';
import { ApiError } from '../http/errors.js';
import { jsonText } from '../store/store.js';
import {
  MAX_DELAY_MS,
  MAX_DRIBBLE_BYTES,
  MAX_DRIBBLE_INTERVAL_MS,
  MAX_RETRY_AFTER_SECONDS,
  DEFAULT_DRIBBLE_BYTES,
  DEFAULT_DRIBBLE_INTERVAL_MS,
} from '../limits.js';
import type { OperationContract } from '../http/validation.js';
import {
  WIRE_FAULTS,
  type ExampleCheck,
  type InjectedFault,
  type StepObject,
  type WireFault,
} from './fault-schedule.js';

/**
 * Resolves a Prefer header; throws an ApiError for a malformed header or a
 * status it cannot answer; returns the step the request asks for, or
 * undefined when it asks for nothing of the stub (no code, fault or delay,
 * or only the operation's success status).
 */
export type PreferenceResolver = (header: string | string[]) => StepObject | undefined;

// RFC 7240 §2:  Prefer     = "Prefer" ":" 1#preference
//               preference = token [ BWS "=" BWS word ] *( OWS ";" [ OWS parameter ] )
//               word       = token / quoted-string
const TCHARS = TOKEN.source.slice(1, -1); // lib's token (RFC 9110 §5.6.2) without its anchors
const WORD = `(?:${TCHARS}|"(?:[^"\\\\]|\\\\.)*")`;
const PARAMETER = `${TCHARS}(?:[ \\t]*=[ \\t]*${WORD})?`;
const PREFERENCE = new RegExp(`^(${TCHARS})(?:[ \\t]*=[ \\t]*(${WORD}))?((?:[ \\t]*;(?:[ \\t]*${PARAMETER})?)*)$`);

/** The statuses the operation declares, and the answers a step's `code` gets (read from the OpenAPI document, not listed here). */
export interface CodeAnswers {
  /** Declared statuses, as the document lists them. */
  declared: readonly string[];
  /** The operation's success status (answered normally). */
  success: string | undefined;
  /** Why a code's example cannot be answered (no such example in the document), or undefined. */
  checkExample: ExampleCheck;
  /** The answer to a step with a code. */
  answer(step: StepObject, injected: InjectedFault): ForcedAnswer;
}

export interface ForcedAnswer {
  status: number;
  /** The document's example for the status, in its media type; else `record` is written as the operation writes that status's errors. */
  example: { contentType: string; text: string } | undefined;
  record: ErrorRecord;
  headers: Record<string, string>;
}

/**
 * RFC 9110 requires some statuses to carry a header: §15.5.2 a 401 MUST
 * send WWW-Authenticate, §15.5.6 a 405 MUST send Allow, §15.5.8 a 407 MUST
 * send Proxy-Authenticate; §15.5.9 a server SHOULD close the connection
 * after a 408. A forced answer carries them, as a real one would.
 */
function requiredHeaders(status: number, method: string, challenge: string | undefined): Record<string, string> {
  // The operation's own challenge (security/check.ts); an operation that requires no credentials gets a Bearer one.
  if (status === 401) return { 'www-authenticate': challenge ?? `Bearer realm="${REALM}"` };
  if (status === 405) return { allow: method };
  if (status === 407) return { 'proxy-authenticate': `Bearer realm="${REALM}"` };
  if (status === 408) return { connection: 'close' };
  return {};
}

/** What Prefer reads of an operation: its method, its path, the responses it declares, and its 401's challenge. */
export type DeclaredOperation = Pick<OperationContract, 'method' | 'path' | 'responses'> & { challenge?: string };

/** The media type of a response's content that Prefer answers examples in: its JSON one (application/json first), else none. */
function jsonContent(content: Record<string, MediaTypeObject> | undefined): [string, MediaTypeObject] | undefined {
  if (content === undefined) return undefined;
  if (content['application/json'] !== undefined) return ['application/json', content['application/json']];
  const mediaType = Object.keys(content).find(isJsonBased);
  return mediaType === undefined ? undefined : [mediaType, content[mediaType]!];
}

export function codeAnswers(contract: DeclaredOperation): CodeAnswers {
  const { responses } = contract;
  const method = contract.method.toUpperCase();
  const declared = Object.keys(responses).filter((status) => /^[1-5]\d\d$/.test(status));
  const success = declared.find((status) => status.startsWith('2'));
  const examplesOf = (code: string) => jsonContent(responses[code]?.content)?.[1].examples ?? {};
  // Own properties only: `example=__proto__` or `example=constructor` must not resolve through Object.prototype.
  return {
    declared,
    success,
    checkExample: (code, example) => {
      const examples = examplesOf(String(code));
      if (example === undefined || Object.hasOwn(examples, example)) return undefined;
      return `${example} is not an example of the ${code} response; examples: ${Object.keys(examples).join(', ') || 'none'}.`;
    },
    answer(step, injected) {
      const status = step.code as number;
      const code = String(status);
      const declared = jsonContent(responses[code]?.content);
      const content = declared?.[1];
      const examples = content?.examples ?? {};
      const example =
        step.example !== undefined
          ? examples[step.example]?.value
          : (content?.example ?? Object.values(examples)[0]?.value);
      // No example in the document (or an undeclared status): an error of our own, in the status's declared shape.
      const record = {
        status,
        error: status * 100 + 99,
        message:
          injected.from === 'prefer'
            ? `Answer requested by the header Prefer: code=${code}.`
            : `Answer requested by the stub's fault schedule: ${JSON.stringify(injected.step)}.`,
      };
      const mediaType = declared?.[0];
      const headers = requiredHeaders(status, method, contract.challenge);
      if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
      if (injected.from === 'prefer') headers['preference-applied'] = preferenceApplied(step);
      return {
        status,
        example:
          example === undefined || mediaType === undefined
            ? undefined
            : {
                contentType: mediaType === 'application/json' ? 'application/json; charset=utf-8' : mediaType,
                text: jsonText(example),
              },
        record,
        headers,
      };
    },
  };
}

/** A resolver for the operation's Prefer header. */
export function preferenceResolver(
  contract: DeclaredOperation,
  answers: CodeAnswers = codeAnswers(contract),
): PreferenceResolver {
  const { declared, success } = answers;
  const refuse = (message: string) => new ApiError('PREFER_MALFORMED', message);
  return (header) => {
    // RFC 9110 §5.3: repeated header lines are one comma-separated list.
    // RFC 7240 §2: preferences a server does not know are ignored.
    const preferences = parsePrefer(Array.isArray(header) ? header.join(',') : header);
    const step: StepObject = {};
    if (preferences.has('code')) {
      const code = preferences.get('code') ?? '';
      if (!/^\d{3}$/.test(code))
        throw refuse(`Prefer: code must be a three-digit HTTP status, got ${JSON.stringify(code)}.`);
      if (preferences.has('fault'))
        throw refuse('Prefer: code and fault do not go together: a request gets one or the other.');
      const status = Number(code);
      if (!declared.includes(code) && (status < 400 || status > 599)) {
        throw new ApiError(
          'PREFER_UNDECLARED',
          `Prefer: code=${code} is not a response that ${contract.method.toUpperCase()} ${contract.path} declares; declared: ${declared.join(', ')}; any error status from 400 to 599 is answered with an Error record.`,
        );
      }
      const wanted = preferences.get('example');
      if (code !== success) {
        const problem = answers.checkExample(status, wanted);
        if (problem !== undefined) throw new ApiError('PREFER_UNDECLARED', `Prefer: example=${problem}`);
        step.code = status;
        if (wanted !== undefined) step.example = wanted;
      }
      const retryAfter = wholeNumber(preferences, 'retry-after', 0, MAX_RETRY_AFTER_SECONDS, 'seconds');
      if (retryAfter !== undefined) {
        if (status < 400)
          throw refuse(`Prefer: retry-after goes with an error status (code=400 to 599), not code=${code}.`);
        step.retryAfter = retryAfter;
      }
    } else if (preferences.has('retry-after')) {
      throw refuse('Prefer: retry-after goes with code=N.');
    }
    if (preferences.has('fault')) {
      const fault = preferences.get('fault') ?? '';
      if (!(WIRE_FAULTS as readonly string[]).includes(fault))
        throw refuse(`Prefer: fault must be one of ${WIRE_FAULTS.join(', ')}, got ${JSON.stringify(fault)}.`);
      step.fault = fault as WireFault;
    }
    if (step.fault === 'dribble') {
      step.bytes = wholeNumber(preferences, 'bytes', 1, MAX_DRIBBLE_BYTES, 'bytes') ?? DEFAULT_DRIBBLE_BYTES;
      step.intervalMs =
        wholeNumber(preferences, 'interval', 1, MAX_DRIBBLE_INTERVAL_MS, 'milliseconds') ?? DEFAULT_DRIBBLE_INTERVAL_MS;
    } else {
      for (const name of ['bytes', 'interval'])
        if (preferences.has(name)) throw refuse(`Prefer: ${name} goes with fault=dribble.`);
    }
    const delay = wholeNumber(preferences, 'delay', 0, MAX_DELAY_MS, 'milliseconds');
    if (delay !== undefined) step.delayMs = delay;
    return step.code === undefined && step.fault === undefined && step.delayMs === undefined ? undefined : step;
  };
}

/** A preference's value as a whole number from min to max; undefined when absent; a 400 when it is anything else. */
function wholeNumber(
  preferences: Map<string, string | undefined>,
  name: string,
  min: number,
  max: number,
  unit: string,
): number | undefined {
  if (!preferences.has(name)) return undefined;
  const raw = preferences.get(name) ?? '';
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) {
    throw new ApiError(
      'PREFER_MALFORMED',
      `Prefer: ${name} must be a whole number of ${unit} from ${min} to ${max}, got ${JSON.stringify(raw)}.`,
    );
  }
  return value;
}

/** RFC 7240 §3: Preference-Applied names the preferences that were honoured, in the header's syntax. */
export function preferenceApplied(step: StepObject): string {
  const applied: string[] = [];
  if (step.code !== undefined) applied.push(`code=${step.code}`);
  if (step.example !== undefined) applied.push(`example=${step.example}`);
  if (step.retryAfter !== undefined) applied.push(`retry-after=${step.retryAfter}`);
  if (step.fault !== undefined) applied.push(`fault=${step.fault}`);
  if (step.bytes !== undefined) applied.push(`bytes=${step.bytes}`);
  if (step.intervalMs !== undefined) applied.push(`interval=${step.intervalMs}`);
  if (step.delayMs !== undefined) applied.push(`delay=${step.delayMs}`);
  return applied.join(', ');
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
      throw new ApiError(
        'PREFER_MALFORMED',
        `Malformed Prefer header: ${JSON.stringify(trimmed)} is not a preference (RFC 7240 §2).`,
      );
    }
    const name = (match[1] as string).toLowerCase();
    const raw = match[2];
    const value = raw?.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    // RFC 7240 §2: with a repeated preference, the first one counts.
    if (!preferences.has(name)) preferences.set(name, value);
  }
  if (preferences.size === 0)
    throw new ApiError('PREFER_MALFORMED', 'Malformed Prefer header: it names no preference (RFC 7240 §2).');
  return preferences;
}

/** Sends a forced answer: the document's example, else the record through the error writer (error-handler.ts). */
export function sendForced(reply: FastifyReply, answer: ForcedAnswer): FastifyReply {
  if (answer.example === undefined) return sendRecord(reply, answer.record, answer.headers);
  return reply.code(answer.status).headers(answer.headers).type(answer.example.contentType).send(answer.example.text);
}
