// No control character a terminal would obey reaches a report: result.ts
// applies escapeControls to the whole run before any reporter sees it
// (safeRun, with mapStrings), so no reporter can forget; the console report
// escapes again, as it writes to a terminal.
// C0 controls, DEL, C1 controls, and the bidirectional formatting characters
// that reorder what a terminal shows (ALM, LRM, RLM, LRE/RLE/PDF/LRO/RLO,
// LRI/RLI/FSI/PDI).

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
    return (
      SHORT_ESCAPES[c] ??
      (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`)
    );
  });
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
