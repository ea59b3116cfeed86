// What may reach a report of what a target said: no credential the harness
// sent, and no control character a terminal would obey. result.ts applies
// both to the whole run before any reporter sees it (safeRun), so no
// reporter can forget; the console report escapes again, as it writes to a
// terminal.
import { TOKEN_VAR } from '../curl.js';

/** Stands for a credential that is not the token itself (a near miss of it, a Basic credential). */
export const REDACTED = '<redacted>';

/** Tokens shorter than this are replaced only where they stand alone: a short token inside a word is most likely not the token. */
const SHORT_TOKEN = 8;

// C0 controls, DEL, C1 controls, and the bidirectional formatting characters
// that reorder what a terminal shows (ALM, LRM, RLM, LRE/RLE/PDF/LRO/RLO,
// LRI/RLI/FSI/PDI).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const SHORT_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` with every control character written visibly as an escape (`\x1b`,
 * `\u202e`, `\n`), so a target cannot retitle a terminal, clear it, move the
 * cursor or reorder a line. Idempotent: the escapes hold no control character.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return SHORT_ESCAPES[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
  });
}

/** A run of RFC 6750 b64token characters: how a token, and anything made from one, stands in a text. */
const B64_RUN = /[A-Za-z0-9\-._~+/]+=*/g;
/** Authentication schemes whose credential follows a space (RFC 9110 §11.4). */
const CREDENTIAL_AFTER_SCHEME = /\b(basic|bearer|digest|dpop|negotiate|ntlm|token)(\s+)([A-Za-z0-9\-._~+/]{8,}=*)/gi;
/** Auth-param names (RFC 6750 §3, RFC 7616 §3.3) that follow a scheme in a challenge and are not credentials. */
const AUTH_PARAM = /^(realm|scope|error|error_description|error_uri|charset|nonce|algorithm|qop|opaque|domain|stale|userhash)=$/i;

/**
 * Replaces, in any text, each token with $PLANTSTORE_TOKEN, and with
 * `<redacted>` whatever the harness may have sent as a credential:
 * - a token as written, JSON-escaped (`\/`) or percent-encoded;
 * - a near miss of a token (a character more, fewer or changed, another
 *   letter case, a long part of it) and base64 that decodes to one (a Basic
 *   credential made from the token);
 * - the credential after an authentication scheme (`Basic dXNlcjpwYXNz`), as
 *   a target that echoes what it received shows it: one with a character
 *   other than a letter, 8 or more long, so prose ("Bearer challenge") stays.
 */
export function secretRedactor(tokens: readonly string[]): (text: string) => string {
  const secrets = [...new Set(tokens.filter((t) => t !== '' && t !== TOKEN_VAR))].sort((a, b) => b.length - a.length);
  const forms = secrets.flatMap((token) => tokenForms(token).map((form) => ({ form, pattern: formPattern(form, token.length < SHORT_TOKEN) })));
  return (text) => {
    let out = text;
    for (const { pattern } of forms) out = out.replace(pattern, TOKEN_VAR);
    out = out.replace(CREDENTIAL_AFTER_SCHEME, (whole, scheme: string, space: string, credential: string) =>
      AUTH_PARAM.test(credential) || /^[A-Za-z]+=*$/.test(credential) ? whole : `${scheme}${space}${REDACTED}`,
    );
    return out.replace(B64_RUN, (run) => (secrets.some((token) => derivedFrom(run, token)) ? REDACTED : run));
  };
}

/** A header name that looks like it carries a secret (x-api-key, x-auth-token, cookie, …): its value is shown as <redacted>. */
export function secretHeaderName(name: string): boolean {
  return /key|token|secret|pass|auth|cookie|session|sign|credential|jwt/i.test(name);
}

/**
 * Replaces each of `secrets` (the values of headers given with -H whose
 * names look secret), as written or JSON-escaped, with `<redacted>`.
 */
export function literalRedactor(secrets: readonly string[]): (text: string) => string {
  const forms = [...new Set(secrets.filter((s) => s.length > 0).flatMap((s) => [s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s)]))].sort((a, b) => b.length - a.length);
  return (text) => forms.reduce((out, form) => out.split(form).join(REDACTED), text);
}

/** The ways a token appears in what a target sends back: as is, JSON-escaped, percent-encoded. */
function tokenForms(token: string): string[] {
  return [...new Set([token, token.replace(/\//g, '\\/'), encodeURIComponent(token)])];
}

function formPattern(form: string, short: boolean): RegExp {
  const literal = form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A short token counts only where no other token character touches it.
  return new RegExp(short ? `(?<![A-Za-z0-9\\-._~+/])${literal}(?![A-Za-z0-9\\-._~+/=])` : literal, 'g');
}

/** True when `run` is made from `token` (it is not the token: that was replaced before). */
function derivedFrom(run: string, token: string): boolean {
  if (run.toLowerCase() === token.toLowerCase()) return true;
  if (token.length < SHORT_TOKEN || run.length < 4) return false;
  const lowerRun = run.toLowerCase();
  const lowerToken = token.toLowerCase();
  if (lowerRun.includes(lowerToken)) return true;
  if (run.length >= SHORT_TOKEN && run.length * 4 >= token.length * 3 && lowerToken.includes(lowerRun)) return true;
  if (Math.abs(run.length - token.length) <= 2 && editDistance(lowerRun, lowerToken, 2) <= 2) return true;
  return run.length >= 12 && decodesToToken(run, token);
}

/** Base64 (standard or URL-safe) whose bytes hold the token or a near miss of it, as a Basic credential would. */
function decodesToToken(run: string, token: string): boolean {
  if (!/^[A-Za-z0-9+/\-_]+=*$/.test(run)) return false;
  const decoded = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
  return decoded.includes(token) || decoded.split(/[^A-Za-z0-9\-._~+/=]+/).some((piece) => piece !== '' && piece !== run && derivedFrom(piece, token));
}

/** Levenshtein distance of `a` and `b`, or `bound + 1` once it is certain to pass `bound`. */
export function editDistance(a: string, b: string, bound: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > bound) return bound + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * A deep copy of `value` with `edit` applied to every string in it, keys
 * aside. Objects reached twice are copied once (the run's divergence
 * comparisons share the results of its targets).
 */
export function mapStrings<T>(value: T, edit: (text: string) => string, seen = new Map<object, unknown>()): T {
  if (typeof value === 'string') return edit(value) as T;
  if (value === null || typeof value !== 'object') return value;
  const known = seen.get(value);
  if (known !== undefined) return known as T;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(mapStrings(item, edit, seen));
    return copy as T;
  }
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [key, item] of Object.entries(value)) copy[key] = mapStrings(item, edit, seen);
  return copy as T;
}
