// What the console shows of a result, a person reading a terminal or a CI
// log in mind: one line per check, and per departure its cause and the line
// that reproduces it. Texts that can be long (a body of 10 000 characters in
// a curl line, an answer in an Actual) are shortened here, with their size;
// the JSON, JUnit and HTML reports hold them whole.
import { cutAt } from '../redact/shorten.js';
import { checksOf, departureText, type CaseResult, type CheckResult, type FailureGroup } from '../run/result.js';

export const MARK: Record<string, string> = { pass: '✔', 'non-strict': '~', fail: '×', skip: '-', error: '!' };
export const COLOUR: Record<string, number> = { pass: 32, 'non-strict': 33, fail: 31, skip: 90, error: 35 };

export type Paint = (code: number, s: string) => string;

export function painter(color: boolean): Paint {
  return (code, s) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
}

/** The longest reproduce line the console prints whole. */
const COMMAND_SHOWN = 300;
/** What the console shows of a long argument of such a line. */
const ARGUMENT_SHOWN = 60;
/** The longest Actual the console prints whole. */
const TEXT_SHOWN = 240;

/** A text cut at about `max` characters, with its length when cut. */
export function consoleText(text: string, max = TEXT_SHOWN): string {
  return text.length <= max
    ? text
    : `${text.slice(0, cutAt(text, max))}… (${text.length} characters; the reports hold it whole)`;
}

/**
 * A reproduce line as the console shows it: whole when short; otherwise its
 * longest single-quoted arguments (a body, a printf format, a script) cut to
 * a short prefix with their size, and a note that the reports hold the whole
 * line. A shortened line is marked as such: it is not to be run.
 */
export function consoleCommand(line: string): string {
  if (line.length <= COMMAND_SHOWN) return line;
  const quoted = [...line.matchAll(/'(?:[^']|'\\'')*'/g)].map((m) => m[0]).sort((a, b) => b.length - a.length);
  let out = line;
  const cut: number[] = [];
  for (const arg of quoted) {
    if (out.length <= COMMAND_SHOWN || arg.length <= ARGUMENT_SHOWN + 2) break;
    out = out.replace(arg, `${arg.slice(0, ARGUMENT_SHOWN)}…'`);
    cut.push(arg.length - 2);
  }
  const sizes = cut.map((n) => `${n.toLocaleString('en-US').replace(/,/g, ' ')} characters`).join(', ');
  return `${out}  [shortened${sizes ? ` from ${sizes}` : ''}: the JSON, JUnit and HTML reports hold the whole line]`;
}

export { departureText };

/**
 * Under a check that departs but does not fail the run (non-strict, unless
 * --strict; the failures are in What failed): each cause (at most three),
 * its Actual and curl line.
 */
export function causeLines(r: CheckResult, paint: Paint, shown = 3): string[] {
  // A result made without its cases (one built by hand) stands for its one case.
  const cases: CaseResult[] = r.cases ?? [
    {
      outcome: r.outcome,
      check: r.id,
      cause: r.cause ?? r.expected ?? r.outcome,
      expected: r.expected,
      actual: r.actual,
      reproduce: r.reproduce,
    },
  ];
  const seen = new Set<string>();
  const distinct = cases.filter((c) => !seen.has(departureText(c)) && seen.add(departureText(c)));
  const lines: string[] = [];
  for (const c of distinct.slice(0, shown)) {
    lines.push(
      `      ${paint(COLOUR[c.outcome]!, `${MARK[c.outcome]} ${departureText(c)}`)}${c.check !== r.id ? ` (a request of ${c.check})` : ''}`,
    );
    if (c.actual) lines.push(`        Actual: ${consoleText(c.actual)}`);
    if (c.reproduce) lines.push(`        Reproduce: ${consoleCommand(c.reproduce)}`);
  }
  const more = cases.length - Math.min(distinct.length, shown) + (r.moreCases ?? 0);
  if (more > 0) lines.push(`        (${more} more case(s) in the reports)`);
  return lines;
}

/** A check's line: mark, outcome, ID, title; for a failure, the What failed entries that hold its departures ([2]). */
export function resultLine(r: CheckResult, paint: Paint, refs: number[] = []): string {
  return `  ${paint(COLOUR[r.outcome]!, `${MARK[r.outcome]} ${r.outcome.padEnd(10)}`)} ${r.id} ${r.title}${refs.length > 0 ? ` ${refs.map((n) => `[${n}]`).join('')}` : ''}`;
}

/**
 * What the console says under a check: nothing under a pass, nor under a
 * failure listed in What failed (its line points to it);
 * under a departure that does not fail the run, each cause with its curl
 * line; under a skip, why.
 */
export function belowResult(r: CheckResult, paint: Paint, inWhatFailed: boolean): string[] {
  if (r.outcome === 'pass' || inWhatFailed) return [];
  if (r.outcome === 'skip') return r.actual ? [`      ${consoleText(r.actual)}`] : [];
  return causeLines(r, paint);
}

/** The positions (from 1) of the What failed entries that hold a check's departures. */
export function refsOf(groups: FailureGroup[], id: string): number[] {
  return groups.flatMap((g, i) => (checksOf(g).includes(id) ? [i + 1] : []));
}
