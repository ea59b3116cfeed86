// What may reach a report of what a target said: no credential the harness
// sent, nor any run of 8 of its characters. result.ts applies the run's
// redactor to the whole run before any reporter sees it (safeRun), so no
// reporter can forget; shorten() (shorten.ts) redacts before it cuts.
import { PLACEHOLDER_TOKEN, type Target } from '../model/target.js';
import { FRAGMENT, PLACEHOLDERS, REDACTED, redactor, TOKEN_VAR, type Redactor } from './shorten.js';

const SHORT_TOKEN = FRAGMENT;

/** A run of RFC 6750 b64token characters: how a token, and anything made from one, stands in a text. */
const B64_RUN = /[A-Za-z0-9\-._~+/]+=*/g;
/** Authentication schemes whose credential follows a space (RFC 9110 §11.4). */
const CREDENTIAL_AFTER_SCHEME = /\b(basic|bearer|digest|dpop|negotiate|ntlm|token)(\s+)([A-Za-z0-9\-._~+/]{8,}=*)/gi;
/** Auth-param names (RFC 6750 §3, RFC 7616 §3.3) that follow a scheme in a challenge and are not credentials. */
const AUTH_PARAM =
  /^(realm|scope|error|error_description|error_uri|charset|nonce|algorithm|qop|opaque|domain|stale|userhash)=$/i;

/**
 * Replaces, in any text, each token with $PLANTSTORE_TOKEN, and with
 * `<redacted>` whatever the harness may have sent as a credential:
 * - a token as written, JSON-escaped (`\/`) or percent-encoded;
 * - a near miss of a token (a character more, fewer or changed, another
 *   letter case) and base64 that decodes to one (a Basic credential made
 *   from the token);
 * - the credential after an authentication scheme (`Basic dXNlcjpwYXNz`), as
 *   a target that echoes what it received shows it: one with a character
 *   other than a letter, 8 or more long, so prose ("Bearer challenge") stays;
 * - any run of FRAGMENT or more characters of a token, in any of its forms
 *   and letter cases, wherever it stands or was cut (fragments()). The
 *   placeholder token is no secret: it is in the harness's source, and its
 *   runs are words ("conformance").
 * A token shorter than FRAGMENT characters cannot be told from other text
 * (with `--token t`, every `t` of a report was rewritten): it is replaced
 * only after an authentication scheme ("Bearer t"); what a target echoes of
 * it stays, and the run says so once (echoesRedactable).
 */
export function secretRedactor(tokens: readonly string[]): Redactor {
  const given = [...new Set(tokens.filter((t) => t !== '' && t !== TOKEN_VAR))];
  // A token shorter than FRAGMENT cannot be told from other text ("t" is in every word): it is
  // replaced only where a request uses it, after an authentication scheme (issue 30 item 8).
  const used = given.filter((token) => token.length < SHORT_TOKEN).map((token) => usedPattern(token));
  const secrets = given.filter((token) => token.length >= SHORT_TOKEN).sort((a, b) => b.length - a.length);
  const forms = secrets.flatMap((token) => tokenForms(token).map((form) => ({ form, pattern: formPattern(form) })));
  const pieces = fragments(
    secrets.filter((token) => token.length >= FRAGMENT && token !== PLACEHOLDER_TOKEN).flatMap(tokenForms),
  );
  return redactor(
    (text) => {
      let out = used.reduce((t, pattern) => t.replace(pattern, `$1${TOKEN_VAR}`), text);
      for (const { pattern } of forms) out = out.replace(pattern, TOKEN_VAR);
      out = out.replace(CREDENTIAL_AFTER_SCHEME, (whole, scheme: string, space: string, credential: string) =>
        AUTH_PARAM.test(credential) || /^[A-Za-z]+=*$/.test(credential) ? whole : `${scheme}${space}${REDACTED}`,
      );
      return pieces(out.replace(B64_RUN, (run) => (secrets.some((token) => derivedFrom(run, token)) ? REDACTED : run)));
    },
    reachOf(forms.map((f) => f.form)),
  );
}

/** A header name that looks like it carries a secret (x-api-key, x-auth-token, cookie, …): its value is shown as <redacted>. */
export function secretHeaderName(name: string): boolean {
  return /key|token|secret|pass|auth|cookie|session|sign|credential|jwt/i.test(name);
}

/**
 * Replaces each of `secrets` (the values of headers given with -H whose
 * names look secret), as written, JSON-escaped or percent-encoded, and any
 * run of FRAGMENT or more characters of one of those forms, with
 * `<redacted>`.
 */
export function literalRedactor(secrets: readonly string[]): Redactor {
  const given = secrets.filter((s) => s.length > 0);
  const forms = [...new Set(given.flatMap((s) => [s, JSON.stringify(s).slice(1, -1), ...tokenForms(s)]))].sort(
    (a, b) => b.length - a.length,
  );
  const pieces = fragments(forms);
  return redactor((text) => pieces(forms.reduce((out, form) => out.split(form).join(REDACTED), text)), reachOf(forms));
}

/**
 * The forms of a --credential that a request or an answer may show: the
 * value, the base64 an HTTP Basic credential is sent as (RFC 7617 §2), and
 * the password alone when it is FRAGMENT characters or more (a target that
 * echoes what it checked).
 */
export function credentialSecrets(value: string): string[] {
  const colon = value.indexOf(':');
  const password = colon === -1 ? '' : value.slice(colon + 1);
  return [value, Buffer.from(value, 'utf8').toString('base64'), ...(password.length >= FRAGMENT ? [password] : [])];
}

/**
 * Every credential of these targets redacted: the token, the credentials of
 * the document's other schemes (--credential), the values of their
 * secret-looking headers (-H), and their other secrets (what a
 * configuration file took from ${VAR}).
 */
export function runRedactor(targets: readonly Target[]): Redactor {
  const tokens = secretRedactor(targets.map((t) => t.token));
  const headers = literalRedactor(
    targets.flatMap((t) => [
      ...(t.credentials ?? []).flatMap((c) => credentialSecrets(c.value)),
      ...Object.entries(t.headers ?? {})
        .filter(([name]) => secretHeaderName(name))
        .map(([, value]) => value),
      ...(t.secrets ?? []),
    ]),
  );
  return redactor((text) => tokens(headers(text)), Math.max(tokens.reach, headers.reach));
}

/** The ways a secret appears in what a target sends back: as is, JSON-escaped (`\/`), percent-encoded. */
export function tokenForms(token: string): string[] {
  return [...new Set([token, token.replace(/\//g, '\\/'), encodeURIComponent(token)])];
}

/**
 * How far past a cut a secret of these forms can reach: the longest form,
 * twice over, which also holds a near miss of it and base64 of a Basic
 * credential made from it (4/3 of its bytes and a user name).
 */
function reachOf(forms: readonly string[]): number {
  return forms.length === 0 ? 0 : 2 * Math.max(...forms.map((f) => f.length)) + 16;
}

/**
 * Replaces with `<redacted>` every stretch of a text that is covered by runs
 * of FRAGMENT characters of `forms`, letter case aside: what is left of a
 * secret that a target cut, or that a shortening cut (issue 24: the 75 %
 * rule of before let 22 characters of a 40-character token through). Only
 * runs of the characters the forms are made of are looked at, so a body of
 * other bytes costs one regular expression scan; a placeholder is left as it
 * is.
 */
function fragments(forms: readonly string[]): (text: string) => string {
  const windows = new Windows(forms.map((form) => form.toLowerCase()));
  if (windows.size === 0) return (text) => text;
  const characters = new Set([...forms.join('')].flatMap((c) => [c, c.toLowerCase(), c.toUpperCase()]));
  const klass = [...characters].map((c) => c.replace(/[\\\][^-]/g, '\\$&')).join('');
  const placeholders = PLACEHOLDERS.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const runs = new RegExp(`${placeholders}|[${klass}]{${FRAGMENT},}`, 'gu');
  return (text) => text.replace(runs, (run) => (PLACEHOLDERS.includes(run) ? run : redactWindows(run, windows)));
}

/** A rolling hash of FRAGMENT UTF-16 code units (mod 2^32), so that a body's windows are looked up without a string each. */
const BASE = 0x01000193;
const BASE_HIGHEST = Array.from({ length: FRAGMENT - 1 }).reduce<number>((power) => Math.imul(power, BASE), 1);

function hashAt(text: string, at: number): number {
  let hash = 0;
  for (let i = at; i < at + FRAGMENT; i++) hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0;
  return hash;
}

/** The runs of FRAGMENT characters of some texts: by hash first, then as text. */
class Windows {
  private readonly hashes = new Set<number>();
  private readonly texts = new Set<string>();

  constructor(texts: readonly string[]) {
    for (const text of texts) {
      for (let i = 0; i + FRAGMENT <= text.length; i++) {
        this.hashes.add(hashAt(text, i));
        this.texts.add(text.slice(i, i + FRAGMENT));
      }
    }
  }

  get size(): number {
    return this.texts.size;
  }

  /** The start of every window of `text` that is one of these, in order. */
  *in(text: string): Generator<number> {
    if (text.length < FRAGMENT) return;
    let hash = hashAt(text, 0);
    for (let i = 0; ; i++) {
      if (this.hashes.has(hash) && this.texts.has(text.slice(i, i + FRAGMENT))) yield i;
      if (i + FRAGMENT >= text.length) return;
      hash = (Math.imul(hash - Math.imul(text.charCodeAt(i), BASE_HIGHEST), BASE) + text.charCodeAt(i + FRAGMENT)) | 0;
    }
  }
}

/** `run` with each stretch covered by windows of FRAGMENT characters in `windows` replaced by <redacted>. */
function redactWindows(run: string, windows: Windows): string {
  const lower = run.toLowerCase();
  // Lower case keeps the length of these characters but for a few (İ), which are then looked at in their own case.
  const starts = windows.in(lower.length === run.length ? lower : run);
  const stretches: Array<[number, number]> = [];
  for (const i of starts) {
    const last = stretches[stretches.length - 1];
    if (last && i <= last[1]) last[1] = i + FRAGMENT;
    else stretches.push([i, i + FRAGMENT]);
  }
  let out = '';
  let kept = 0;
  for (const [start, end] of stretches) {
    out += `${run.slice(kept, start)}${REDACTED}`;
    kept = end;
  }
  return `${out}${run.slice(kept)}`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function formPattern(form: string): RegExp {
  return new RegExp(escapeRegExp(form), 'g');
}

/** A short token where a request uses it: after an authentication scheme and white space, no other token character touching it. */
function usedPattern(token: string): RegExp {
  return new RegExp(
    `(\\b(?:basic|bearer|digest|dpop|negotiate|ntlm|token)[ \\t]+)${escapeRegExp(token)}(?![A-Za-z0-9\\-._~+/=])`,
    'gi',
  );
}

/**
 * Where a token stands in a field value that carries it (Authorization, a
 * secret -H header): the value cut at each occurrence. A token shorter than
 * FRAGMENT counts only where no other token character touches it ("t" in
 * "Bearer t", not in "content-type"); a longer one wherever it stands.
 */
export function splitAtToken(value: string, token: string): string[] {
  if (token === '' || !value.includes(token)) return [value];
  return token.length >= SHORT_TOKEN
    ? value.split(token)
    : value.split(new RegExp(`(?<![A-Za-z0-9\\-._~+/])${escapeRegExp(token)}(?![A-Za-z0-9\\-._~+/=])`));
}

/** Whether a report can keep a token out of what a target echoes: only one of FRAGMENT characters or more (else the run warns once). */
export function echoesRedactable(token: string): boolean {
  return token === '' || token === PLACEHOLDER_TOKEN || token.length >= SHORT_TOKEN;
}

/** True when `run` is made from `token` (it is not the token: that was replaced before). */
function derivedFrom(run: string, token: string): boolean {
  if (run.toLowerCase() === token.toLowerCase()) return true;
  if (token.length < SHORT_TOKEN || run.length < 4) return false;
  const lowerRun = run.toLowerCase();
  const lowerToken = token.toLowerCase();
  if (lowerRun.includes(lowerToken)) return true;
  if (Math.abs(run.length - token.length) <= 2 && editDistance(lowerRun, lowerToken, 2) <= 2) return true;
  return run.length >= 12 && decodesToToken(run, token);
}

/** Base64 (standard or URL-safe) whose bytes hold the token or a near miss of it, as a Basic credential would. */
function decodesToToken(run: string, token: string): boolean {
  if (!/^[A-Za-z0-9+/\-_]+=*$/.test(run)) return false;
  const decoded = Buffer.from(run.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
  return (
    decoded.includes(token) ||
    decoded.split(/[^A-Za-z0-9\-._~+/=]+/).some((piece) => piece !== '' && piece !== run && derivedFrom(piece, token))
  );
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
