// The one way the harness shortens a text that may hold what a target said,
// and the placeholders redaction leaves: every text from a target that is
// shortened for a report goes through shorten() here, which redacts (with the
// Redactor the exchange carries) before it cuts. What the redactors remove is
// in secrets.ts; control characters are escaped by escape.ts.
/** How every report and reproduction line writes the token: the shell variable that holds it. */
export const TOKEN_VAR = '$PLANTSTORE_TOKEN';

/** Stands for a credential that is not the token itself (a near miss of it, a Basic credential). */
export const REDACTED = '<redacted>';

/**
 * Tokens shorter than this are replaced only where they stand alone: a short
 * token inside a word is most likely not the token. And the fewest characters
 * of a secret that give part of it away: any run this long of a secret's
 * characters is redacted, wherever a cut left it (issue 24).
 */
export const FRAGMENT = 8;

/**
 * Redacts the secrets it knows from a text. `reach` is the longest a secret
 * can stand in a text (its longest form, a near miss of it, base64 of a
 * credential made from it): a secret that starts before a cut ends less than
 * `reach` after it.
 */
export interface Redactor {
  (text: string): string;
  readonly reach: number;
}

export function redactor(edit: (text: string) => string, reach: number): Redactor {
  return Object.assign((text: string) => edit(text), { reach });
}

/** For a text that holds no secret the harness knows of (one already redacted, or made by the harness). */
export const NO_SECRETS: Redactor = redactor((text) => text, 0);

/**
 * The one way the harness shortens a text that may hold what a target sent
 * (a body shown in an Actual, the message a diagnosis quotes, bytes that are
 * not HTTP, a reason in the matrix): redacted first, then cut at `max`
 * characters, and `…` (with `count`, and the length of the whole text). Cut
 * first, a secret across the cut would be left in part, where a redactor no
 * longer knows it: a token echoed 230 characters into a body left 22 of its
 * 40 characters in every report that way. Only a prefix long enough to hold
 * every secret that starts before the cut is redacted (a body may be 1 MiB).
 */
export function shorten(text: string, max: number, redact: Redactor, how: { count?: boolean } = {}): string {
  let seen = Math.min(text.length, max + redact.reach);
  let shown = redact(text.slice(0, seen));
  // Redaction may shorten what it sees ($PLANTSTORE_TOKEN for a longer token): see further, until
  // what is shown reaches a secret's length past the cut, so that a secret the cut of `seen` left
  // in part lies past `max` too.
  while (seen < text.length && shown.length < max + redact.reach) {
    seen = Math.min(text.length, seen * 2);
    shown = redact(text.slice(0, seen));
  }
  if (seen === text.length && shown.length <= max) return copyOf(shown);
  return `${copyOf(shown.slice(0, cutAt(shown, max)))}…${how.count ? ` (${text.length} chars)` : ''}`;
}

/**
 * A copy of `text` that shares no memory with the text it was cut from: V8
 * keeps a slice as a view of its whole parent, so a report line cut from a 1
 * MiB body would keep the body alive as long as the report (every failing
 * check's Actual held one). Through UTF-16 code units, so any string comes
 * back as it was, lone surrogates included.
 */
function copyOf(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le');
}

/** Where to cut `text` near `max`: never inside a placeholder (the whole of it is kept) or a UTF-16 surrogate pair. */
export function cutAt(text: string, max: number): number {
  for (const placeholder of PLACEHOLDERS) {
    const at = text.lastIndexOf(placeholder, max - 1);
    if (at !== -1 && at + placeholder.length > max) return at + placeholder.length;
  }
  const code = text.charCodeAt(max - 1);
  return code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
}

/** What a redaction leaves in a text: kept as they are by later passes. */
export const PLACEHOLDERS = [TOKEN_VAR, REDACTED];
