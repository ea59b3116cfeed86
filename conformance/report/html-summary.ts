// The parts of the HTML report above its matrix: the counts per target, the
// targets not checked or that stopped answering, what failed grouped by
// cause, and the divergence files. Each runs in the browser, serialised with
// Function.prototype.toString (html.ts): it refers to nothing outside its
// own body but its argument.
import type { PageContext } from './html-client.js';

/** The counts of each outcome per target. */
export function drawCounts({ report, root, h, outcomes: OUTCOMES }: PageContext): void {
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
}

/** Targets no check could mean anything against: why, and what to do. Targets that stopped answering mid-run: after which request. */
export function drawNotices({ report, root, h }: PageContext): void {
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
}

/** The failures grouped by cause: one server mistake that fails many checks reads as one. */
export function drawFailures({ report, root, h }: PageContext): void {
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
}

/** Divergence files: unexplained departures are shown prominently. */
export function drawDivergences({ report, root, h }: PageContext): void {
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
}
