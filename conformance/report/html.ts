// The HTML report (--html FILE): one self-contained file that works opened
// from disk. No network loads: inline CSS and script, pinned by a Content
// Security Policy with their hashes (default-src 'none'). The page's data,
// the run's JSON report, is embedded in a <script type="application/json">
// with every "<" escaped, so no text of a check or of a target's answer can
// close the element. Report contents come from remote targets and are
// untrusted: the page's script inserts all text with textContent, never as
// markup.
import { createHash } from 'node:crypto';
import type { RunResult } from '../run/result.js';
import type { Outcome } from '../checks/types.js';
import { toJsonReport, type JsonReport } from './json.js';

const STYLE = `
:root { --pass: #1a7f37; --non-strict: #9a6700; --fail: #cf222e; --skip: #6e7781; --error: #8250df; font-family: system-ui, sans-serif; }
body { margin: 1.5rem; color: #1f2328; background: #fff; }
h1 { font-size: 1.4rem; margin: 0 0 .3rem; }
h2 { font-size: 1.1rem; margin: 1.2rem 0 .4rem; }
.meta { color: #59636e; margin: 0 0 .8rem; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d1d9e0; padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.o-pass { color: var(--pass); } .o-non-strict { color: var(--non-strict); } .o-fail { color: var(--fail); font-weight: 600; } .o-skip { color: var(--skip); } .o-error { color: var(--error); font-weight: 600; }
td.cell { white-space: nowrap; }
td.cell.o-pass { background: #dafbe1; } td.cell.o-fail { background: #ffebe9; } td.cell.o-non-strict { background: #fff8c5; } td.cell.o-error { background: #fbefff; } td.cell.o-skip { background: #f6f8fa; }
.tag { font-size: .75rem; font-weight: normal; border-radius: .6rem; padding: 0 .35rem; margin-left: .3rem; background: #eaeef2; color: #1f2328; }
.tag.unexplained { background: #cf222e; color: #fff; } .tag.stale { background: #9a6700; color: #fff; }
.alert { border: 2px solid #cf222e; background: #ffebe9; padding: .5rem .8rem; margin: .5rem 0; }
.note { border: 1px solid #d1d9e0; background: #f6f8fa; padding: .5rem .8rem; margin: .5rem 0; }
#filters { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin: .5rem 0; }
#filters fieldset { border: 1px solid #d1d9e0; padding: .2rem .6rem; }
.why { max-width: 48rem; }
.why ul { margin: 0; padding-left: 1.1rem; }
details { margin-top: .3rem; }
details pre { white-space: pre-wrap; word-break: break-all; background: #f6f8fa; padding: .4rem; margin: .2rem 0; max-height: 12rem; overflow: auto; }
dl { margin: .2rem 0; } dt { font-weight: 600; margin-top: .3rem; } dd { margin: 0 0 0 1rem; white-space: pre-wrap; word-break: break-word; }
[hidden] { display: none !important; }
`;

/**
 * Runs in the browser. Serialised with Function.prototype.toString, so it
 * must not refer to any value outside its own body (the types it names, the
 * JSON report's, are erased when compiled).
 */
function clientMain(): void {
  type Report = JsonReport & { generated?: string };
  type Target = Report['targets'][number];
  const OUTCOMES: Outcome[] = ['pass', 'non-strict', 'fail', 'skip', 'error'];
  const report = JSON.parse(document.getElementById('report-data')!.textContent) as Report;

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
  const safeLink = (url: string | null, text: string): Node =>
    url && /^https?:\/\//i.test(url) ? h('a', { href: url, rel: 'noreferrer' }, text) : document.createTextNode(text);

  const root = document.getElementById('app')!;
  root.append(
    h('h1', {}, 'Plant Store conformance'),
    h(
      'p',
      { class: 'meta' },
      `seed ${report.seed}${report.idOffset ? `, id offset ${report.idOffset}` : ''}${report.strict ? ', strict' : ''}${report.generated ? `, generated ${report.generated}` : ''}; ${report.targets.length} target(s); spec lint: ${report.lint.filter((f) => f.severity !== 'error').length} warning(s). Replay the run with --seed ${report.seed}${report.idOffset ? ` --id-offset ${report.idOffset}` : ''}.`,
    ),
  );

  // Counts per target.
  const counts = h('table', { id: 'counts' });
  counts.append(
    h(
      'tr',
      {},
      h('th', {}, 'target'),
      h('th', {}, 'URL'),
      ...OUTCOMES.map((o) => h('th', { class: `o-${o}` }, o)),
      h('th', {}, 'checks'),
    ),
  );
  for (const t of report.targets) {
    counts.append(
      h(
        'tr',
        { 'data-target': t.name },
        h(
          'td',
          {},
          t.name,
          t.informs
            ? h('span', { class: 'tag', title: 'this column informs; it never fails the run by itself' }, 'informs')
            : null,
        ),
        h('td', {}, t.url),
        ...OUTCOMES.map((o) =>
          h(
            'td',
            { class: `num o-${o}`, 'data-count': '', 'data-target': t.name, 'data-outcome': o },
            String(t.summary[o] ?? 0),
          ),
        ),
        h('td', { class: 'num', 'data-total': t.name }, String(t.results.length)),
      ),
    );
  }
  root.append(h('h2', {}, 'Counts per target'), counts);

  // Targets no check could mean anything against: why, and what to do. Targets that stopped answering mid-run: after which request.
  for (const t of report.targets) {
    const by = t.stoppedBy;
    if (by)
      root.append(
        h(
          'div',
          { class: 'alert', 'data-stopped': t.name },
          h(
            'strong',
            {},
            `${t.name} (${t.url}) stopped answering after ${by.check}'s ${by.method} ${by.path}${by.case ? ` (${by.case})` : ''}: the checks not run are error; every verdict reached before stands.`,
          ),
          h('pre', {}, by.reproduce),
        ),
      );
    const d = t.diagnosis;
    if (!d) continue;
    root.append(
      h(
        'div',
        { class: 'alert', 'data-diagnosis': t.name },
        h('strong', {}, `${t.name} (${t.url}) was not checked: ${d.problem}.`),
        d.evidence ? h('p', {}, d.evidence) : null,
        h('p', {}, `What to do: ${d.fix}`),
      ),
    );
  }

  // The failures grouped by cause: one server mistake that fails many checks reads as one.
  const withFailures = report.targets.filter((t) => !t.informs && (t.failures ?? []).length > 0);
  if (withFailures.length > 0) {
    root.append(h('h2', {}, 'What failed'));
    for (const t of withFailures) {
      const list = h('ul', { 'data-failures': t.name });
      for (const g of t.failures) {
        list.append(
          h(
            'li',
            { class: `o-${g.outcome}` },
            h('strong', {}, g.cause),
            g.family !== undefined ? ` (${g.family})` : null,
            ` (${g.checks.length} check${g.checks.length === 1 ? '' : 's'}): `,
            h('code', {}, g.checks.join(', ')),
            g.reproduce ? h('details', {}, h('summary', {}, 'Reproduce'), h('pre', {}, g.reproduce)) : null,
          ),
        );
      }
      root.append(h('p', {}, `${t.name} (${t.url}):`), list);
    }
  }

  // Divergence files: unexplained departures are shown prominently.
  for (const t of report.targets) {
    const d = t.divergences;
    if (!d) continue;
    if (d.unexplained.length === 0 && d.stale.length === 0) {
      root.append(
        h(
          'p',
          { class: 'note', 'data-divergences': t.name },
          `${t.name}: every departure (${d.documented}) is documented in ${d.file}; no stale entry.`,
        ),
      );
      continue;
    }
    const box = h(
      'div',
      { class: 'alert', 'data-divergences': t.name },
      h(
        'strong',
        {},
        `${t.name}: ${d.unexplained.length} unexplained divergence(s), ${d.stale.length} stale entr${d.stale.length === 1 ? 'y' : 'ies'} in ${d.file}`,
      ),
    );
    const list = h('ul');
    for (const u of d.unexplained)
      list.append(h('li', {}, `UNEXPLAINED ${u.id}: ${u.outcome}, not in the divergence file`));
    for (const s of d.stale) list.append(h('li', {}, `STALE ${s.id}: the file says ${s.file}, observed ${s.observed}`));
    box.append(list);
    root.append(box);
  }

  // Filters.
  const outcomeSelect = h(
    'select',
    { id: 'filter-outcome' },
    h('option', { value: '' }, 'any outcome'),
    ...OUTCOMES.map((o) => h('option', { value: o }, o)),
  ) as HTMLSelectElement;
  const targetBoxes = report.targets.map(
    (t) => h('input', { type: 'checkbox', name: 'target', value: t.name, checked: '' }) as HTMLInputElement,
  );
  const disagree = h('input', { type: 'checkbox', id: 'filter-disagree' }) as HTMLInputElement;
  const shown = h('span', { id: 'shown' });
  root.append(
    h('h2', {}, 'Matrix'),
    h(
      'div',
      { id: 'filters' },
      h('label', {}, 'Outcome ', outcomeSelect),
      h('fieldset', {}, h('legend', {}, 'Targets'), ...targetBoxes.map((b) => h('label', {}, b, ` ${b.value} `))),
      h('label', {}, disagree, ' disagreements only'),
      shown,
    ),
  );

  // The matrix: a row per check, a column per target.
  const ids: string[] = [];
  for (const t of report.targets) for (const r of t.results) if (!ids.includes(r.id)) ids.push(r.id);
  const resultOf = (t: Target, id: string) => t.results.find((r) => r.id === id);
  const table = h('table', { id: 'matrix' });
  table.append(
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'check'),
        h('th', {}, 'level'),
        ...report.targets.map((t) => h('th', { 'data-col': t.name }, t.name)),
        h('th', {}, 'why they disagree; details'),
      ),
    ),
  );
  const body = h('tbody');
  const rows: Array<{ tr: HTMLElement; id: string }> = [];
  for (const id of ids) {
    const any = report.targets.map((t) => resultOf(t, id)).find((r) => r !== undefined)!;
    const tr = h('tr', { class: 'check-row', 'data-id': id });
    tr.append(h('td', {}, h('code', {}, id), h('br'), any.title), h('td', {}, any.level));
    for (const t of report.targets) {
      const r = resultOf(t, id);
      const td = h(
        'td',
        {
          class: `cell${r ? ` o-${r.outcome}` : ''}`,
          'data-col': t.name,
          'data-target': t.name,
          'data-outcome': r ? r.outcome : '',
        },
        r ? r.outcome : '—',
      );
      const status = r?.divergence?.status;
      if (status === 'documented')
        td.append(h('span', { class: 'tag', title: r!.divergence!.reason ?? '' }, 'documented'));
      else if (status === 'unexplained') td.append(h('span', { class: 'tag unexplained' }, 'unexplained'));
      else if (status === 'stale') td.append(h('span', { class: 'tag stale' }, 'stale'));
      tr.append(td);
    }
    const why = h('td', { class: 'why' });
    const reasons = report.matrix?.find((m) => m.id === id)?.why ?? [];
    if (reasons.length > 0) why.append(h('ul', {}, ...reasons.map((w) => h('li', {}, w))));
    const failing = report.targets.filter((t) => {
      const r = resultOf(t, id);
      return r !== undefined && r.outcome !== 'pass';
    });
    if (failing.length > 0) {
      const details = h('details', {}, h('summary', {}, `details (${failing.map((t) => t.name).join(', ')})`));
      details.append(
        h(
          'p',
          {},
          h('strong', {}, 'Requirement '),
          `(${any.level}, `,
          safeLink(any.source.url, `${any.source.document} ${any.source.section}`),
          '): ',
          any.requirement,
        ),
      );
      for (const t of failing) {
        const r = resultOf(t, id)!;
        const dl = h('dl', { 'data-detail': t.name });
        dl.append(h('dt', {}, `${t.name}: ${r.outcome}`));
        if (r.divergence?.reason)
          dl.append(h('dt', {}, `Divergence (${r.divergence.status})`), h('dd', {}, r.divergence.reason));
        if (r.divergence?.evidence) dl.append(h('dt', {}, 'Evidence'), h('dd', {}, r.divergence.evidence));
        if (r.expected) dl.append(h('dt', {}, 'Expected'), h('dd', {}, r.expected));
        if (r.actual) dl.append(h('dt', {}, 'Actual'), h('dd', {}, r.actual));
        if (r.reproduce) dl.append(h('dt', {}, 'Reproduce'), h('dd', {}, h('pre', {}, r.reproduce)));
        // Every departing case, when there is more than the one above: each with its cause, the check that sent it, and its curl line.
        const cases = r.cases ?? [];
        if (cases.length > 1 || r.moreCases !== undefined) {
          const list = h('ol', { 'data-cases': t.name });
          for (const c of cases) {
            const cause = h('strong', {}, `${c.outcome}: ${c.cause}${c.family !== undefined ? ` (${c.family})` : ''}`);
            const sender = c.check !== r.id ? ` (a request of ${c.check})` : null;
            list.append(
              h(
                'li',
                { class: `o-${c.outcome}` },
                cause,
                sender,
                c.actual ? h('div', {}, c.actual) : null,
                c.reproduce ? h('pre', {}, c.reproduce) : null,
              ),
            );
          }
          dl.append(
            h('dt', {}, `Cases (${cases.length + (r.moreCases ?? 0)})`),
            h('dd', {}, list, r.moreCases !== undefined ? `… and ${r.moreCases} more` : ''),
          );
        }
        details.append(dl);
      }
      why.append(details);
    }
    tr.append(why);
    body.append(tr);
    rows.push({ tr, id });
  }
  table.append(body);
  root.append(table);

  // What the run exercised of the document.
  const coverage = report.coverage;
  if (coverage) {
    const cell = (text: string, attrs: Record<string, string> = {}) => h('td', attrs, text);
    const head = (...names: string[]) => h('tr', {}, ...names.map((n) => h('th', {}, n)));
    const operations = h('table', { id: 'coverage-operations' }, head('operation', 'checked by', 'requests'));
    for (const o of coverage.operations) {
      const by =
        o.requests === 0
          ? 'not covered'
          : o.known
            ? 'the catalog'
            : o.role
              ? `PS-OP-*, PS-DOC-*, state checks (${o.role.role})`
              : 'PS-OP-*, PS-DOC-*';
      operations.append(
        h(
          'tr',
          { 'data-covered': String(o.requests > 0) },
          cell(`${o.method} ${o.path} (${o.operationId})`),
          cell(by),
          cell(String(o.requests), { class: 'num' }),
        ),
      );
    }
    const responses = h('table', { id: 'coverage-responses' }, head('operation', 'declared status', 'given by'));
    for (const r of coverage.responses)
      responses.append(
        h(
          'tr',
          {},
          cell(`${r.method} ${r.path}`),
          cell(r.status),
          cell(r.observedOn.length > 0 ? r.observedOn.join(', ') : `no target${r.why ? `: ${r.why}` : ''}`),
        ),
      );
    const keywords = h(
      'table',
      { id: 'coverage-keywords' },
      head('keyword', 'where', 'status', 'checks', 'what was derived, or why not'),
    );
    for (const k of coverage.keywords) {
      keywords.append(
        h(
          'tr',
          { 'data-status': k.status },
          h('td', {}, h('code', {}, k.keyword)),
          h('td', {}, h('code', {}, k.pointer)),
          cell(k.status),
          cell(k.by.join(', ')),
          cell(k.detail),
        ),
      );
    }
    const ruledOut = h('table', { id: 'coverage-ruled-out' }, head('check', 'skipped because of the document'));
    for (const r of coverage.ruledOut ?? [])
      ruledOut.append(h('tr', {}, h('td', {}, h('code', {}, r.id), ` ${r.title}`), cell(r.reason)));
    const missing = coverage.keywords.filter((k) => k.status === 'not exercised').length;
    root.append(
      h('h2', {}, 'Coverage of the document'),
      h(
        'p',
        { class: missing > 0 ? 'alert' : 'note', id: 'coverage-summary' },
        `${coverage.operations.filter((o) => o.requests > 0).length} of ${coverage.operations.length} operation(s) sent requests; ${coverage.responses.filter((r) => r.observedOn.length > 0).length} of ${coverage.responses.length} declared response(s) given; ${missing} schema keyword(s) not exercised.`,
      ),
      h('h3', {}, 'Operations'),
      operations,
      h('h3', {}, 'Declared responses'),
      responses,
      h('h3', {}, 'Schema keywords'),
      keywords,
      h('h3', {}, 'Checks the document rules out'),
      (coverage.ruledOut ?? []).length > 0
        ? ruledOut
        : h('p', { class: 'note' }, 'none: every check could run against this document'),
    );
  }

  function apply(): void {
    const visible = new Set(targetBoxes.filter((b) => b.checked).map((b) => b.value));
    for (const cell of Array.from(document.querySelectorAll<HTMLElement>('[data-col]')))
      cell.hidden = !visible.has(cell.dataset.col!);
    const want = outcomeSelect.value;
    let count = 0;
    for (const { tr, id } of rows) {
      const outcomes = report.targets
        .filter((t) => visible.has(t.name))
        .map((t) => resultOf(t, id)?.outcome)
        .filter((o): o is Outcome => o !== undefined);
      const matchesOutcome = want === '' || outcomes.includes(want as Outcome);
      const disagrees = outcomes.some((o) => o !== outcomes[0]);
      tr.hidden = !(matchesOutcome && (!disagree.checked || disagrees));
      if (!tr.hidden) count++;
    }
    shown.textContent = `${count} of ${rows.length} checks shown`;
  }
  outcomeSelect.addEventListener('change', apply);
  disagree.addEventListener('change', apply);
  for (const b of targetBoxes) b.addEventListener('change', apply);
  apply();
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('base64');

/** Data for a <script type="application/json">: no "<" at all, so nothing can end the element. */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function toHtml(run: RunResult, generated = new Date().toISOString()): string {
  const script = `(${clientMain.toString()})();`;
  const csp = `default-src 'none'; style-src 'sha256-${sha256(STYLE)}'; script-src 'sha256-${sha256(script)}'; img-src data:; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>Plant Store conformance</title>
<style>${STYLE}</style>
</head>
<body>
<div id="app"><noscript>This report needs JavaScript to draw the matrix; the same data is in the JSON report.</noscript></div>
<script type="application/json" id="report-data">${embedJson({ ...toJsonReport(run), generated })}</script>
<script>${script}</script>
</body>
</html>
`;
}
