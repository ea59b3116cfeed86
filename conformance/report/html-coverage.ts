// The HTML report's last part: what the run exercised of the document (the
// operations, the declared responses, the schema keywords, the checks the
// document rules out). Runs in the browser, serialised with
// Function.prototype.toString (html.ts): it refers to nothing outside its
// own body but its argument.
import type { PageContext } from './html-client.js';

export function drawCoverage({ report, root, h }: PageContext): void {
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
      h('div', { class: 'scroll' }, operations),
      h('h3', {}, 'Declared responses'),
      h('div', { class: 'scroll' }, responses),
      h('h3', {}, 'Schema keywords'),
      h('div', { class: 'scroll' }, keywords),
      h('h3', {}, 'Checks the document rules out'),
      (coverage.ruledOut ?? []).length > 0
        ? h('div', { class: 'scroll' }, ruledOut)
        : h('p', { class: 'note' }, 'none: every check could run against this document'),
    );
  }
}
