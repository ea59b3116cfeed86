// The HTML report's script, as it starts in the browser: it reads the run's
// JSON report from the page, draws the heading, and hands each part of the
// page (html-summary.ts, html-matrix.ts, html-coverage.ts) what they all
// draw with. Every function of the script is serialised with
// Function.prototype.toString (html.ts), so none may refer to any value
// outside its own body: what they share comes in as arguments, and only
// types (erased when compiled) are imported.
import type { Outcome } from '../checks/types.js';
import type { JsonReport } from './json.js';

export type ClientReport = JsonReport & { generated?: string };
export type ClientTarget = ClientReport['targets'][number];

/** Builds an element; strings become text nodes, never markup. */
export type Build = (
  tag: string,
  attrs?: Record<string, string>,
  ...children: Array<Node | string | null | undefined>
) => HTMLElement;

/** What every part of the page draws with: the report, the element it draws into, the element builder, the outcomes in report order. */
export interface PageContext {
  report: ClientReport;
  root: HTMLElement;
  h: Build;
  outcomes: Outcome[];
}

/** A part of the page: appends its section to the root, in the order the parts are given. */
export type PagePart = (page: PageContext) => void;

/**
 * Runs in the browser, with the parts of the page as its arguments.
 * Serialised with Function.prototype.toString, so it must not refer to any
 * value outside its own body.
 */
export function clientMain(...parts: PagePart[]): void {
  const OUTCOMES: Outcome[] = ['pass', 'non-strict', 'fail', 'skip', 'error'];
  const report = JSON.parse(document.getElementById('report-data')!.textContent) as ClientReport;

  /** Builds an element; strings become text nodes, never markup. */
  function h(
    tag: string,
    attrs: Record<string, string> = {},
    ...children: Array<Node | string | null | undefined>
  ): HTMLElement {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    for (const c of children)
      if (c !== null && c !== undefined) e.append(typeof c === 'string' ? document.createTextNode(c) : c);
    return e;
  }

  const root = document.getElementById('app')!;
  root.append(
    h('h1', {}, 'Plant Store conformance'),
    h(
      'p',
      { class: 'meta' },
      `seed ${report.seed}${report.idOffset ? `, id offset ${report.idOffset}` : ''}${report.strict ? ', strict' : ''}${report.generated ? `, generated ${report.generated}` : ''}; ${report.targets.length} target(s); spec lint: ${report.lintSkipped !== undefined && report.lintDigest === undefined ? 'not run' : `${report.lint.filter((f) => f.severity !== 'error').length} warning(s)`}. Replay the run with --seed ${report.seed}${report.idOffset ? ` --id-offset ${report.idOffset}` : ''}.`,
    ),
  );

  for (const part of parts) part({ report, root, h, outcomes: OUTCOMES });
}
