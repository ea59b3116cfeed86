// The HTML report's matrix: a row per check, a column per target, with why
// the targets disagree and the details of each departure, and the filters
// above it (outcome, targets, disagreements only). Runs in the browser,
// serialised with Function.prototype.toString (html.ts): it refers to
// nothing outside its own body but its argument.
import type { Outcome } from '../checks/types.js';
import type { ClientTarget, PageContext } from './html-client.js';

export function drawMatrix({ report, root, h, outcomes: OUTCOMES }: PageContext): void {
  const safeLink = (url: string | null, text: string): Node =>
    url && /^https?:\/\//i.test(url) ? h('a', { href: url, rel: 'noreferrer' }, text) : document.createTextNode(text);

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
  const resultOf = (t: ClientTarget, id: string) => t.results.find((r) => r.id === id);
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
        h('th', {}, 'why they disagree'),
      ),
    ),
  );
  const body = h('tbody');
  const rows: Array<{ tr: HTMLElement; id: string; detail?: HTMLElement }> = [];
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
    // The details of a departure go into a row of their own below the check's, as wide as the table:
    // Expected, Actual and a curl line need the width, not a last column beside the outcomes.
    let detailRow: HTMLElement | undefined;
    if (failing.length > 0) {
      const toggle = h('details', {}, h('summary', {}, `details (${failing.map((t) => t.name).join(', ')})`));
      const cell = h('td', { colspan: String(3 + report.targets.length), class: 'detail' });
      cell.append(
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
        cell.append(dl);
      }
      const row = h('tr', { class: 'detail-row', 'data-detail-for': id }, cell);
      row.hidden = true;
      toggle.addEventListener('toggle', () => {
        row.hidden = !(toggle as HTMLDetailsElement).open || tr.hidden;
      });
      why.append(toggle);
      detailRow = row;
    }
    tr.append(why);
    body.append(tr);
    if (detailRow) body.append(detailRow);
    rows.push({ tr, id, detail: detailRow });
  }
  table.append(body);
  // On a narrow screen the table scrolls within its box; the page itself never scrolls sideways.
  root.append(h('div', { class: 'scroll' }, table));

  function apply(): void {
    const visible = new Set(targetBoxes.filter((b) => b.checked).map((b) => b.value));
    for (const cell of Array.from(document.querySelectorAll<HTMLElement>('[data-col]')))
      cell.hidden = !visible.has(cell.dataset.col!);
    const want = outcomeSelect.value;
    let count = 0;
    for (const { tr, id, detail } of rows) {
      const outcomes = report.targets
        .filter((t) => visible.has(t.name))
        .map((t) => resultOf(t, id)?.outcome)
        .filter((o): o is Outcome => o !== undefined);
      const matchesOutcome = want === '' || outcomes.includes(want as Outcome);
      const disagrees = outcomes.some((o) => o !== outcomes[0]);
      tr.hidden = !(matchesOutcome && (!disagree.checked || disagrees));
      if (detail) detail.hidden = tr.hidden || !(tr.querySelector('details') as HTMLDetailsElement).open;
      if (!tr.hidden) count++;
    }
    shown.textContent = `${count} of ${rows.length} checks shown`;
  }
  outcomeSelect.addEventListener('change', apply);
  disagree.addEventListener('change', apply);
  for (const b of targetBoxes) b.addEventListener('change', apply);
  apply();
}
