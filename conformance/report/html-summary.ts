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
  root.append(h('h2', {}, 'Counts per target'), h('div', { class: 'scroll' }, counts));
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

/**
 * What failed, by root cause: for each, what departs, the checks that show
 * it, Expected, Actual and the curl line, then the later failures it
 * explains (the answers that carry what the target took wrongly), each with
 * its checks and curl line. Full width: the text is what a reader came for.
 */
export function drawFailures({ report, root, h }: PageContext): void {
  const withFailures = report.targets.filter((t) => !t.informs && (t.failures ?? []).length > 0);
  if (withFailures.length === 0) return;
  root.append(h('h2', {}, 'What failed'));
  for (const t of withFailures) {
    const list = h('ol', { class: 'failures', 'data-failures': t.name });
    for (const g of t.failures) {
      const later = (g.consequences ?? []).flatMap((q) => q.checks).filter((id, i, all) => all.indexOf(id) === i);
      const count = g.checks.length + later.filter((id) => !g.checks.includes(id)).length;
      const facts = h('dl', { class: 'facts' });
      facts.append(h('dt', {}, 'Checks'), h('dd', {}, h('code', {}, g.checks.join(', '))));
      if (g.expected) facts.append(h('dt', {}, 'Expected'), h('dd', { 'data-field': 'expected' }, g.expected));
      if (g.actual) facts.append(h('dt', {}, 'Actual'), h('dd', { 'data-field': 'actual' }, g.actual));
      if (g.reproduce)
        facts.append(h('dt', {}, 'Reproduce'), h('dd', {}, h('pre', { 'data-field': 'reproduce' }, g.reproduce)));
      const item = h(
        'li',
        { class: `failure o-${g.outcome}` },
        h(
          'p',
          { class: 'cause' },
          h('strong', {}, g.cause),
          g.family !== undefined ? ` (${g.family})` : null,
          ` (${count} check${count === 1 ? '' : 's'}${count > g.checks.length ? `: ${g.checks.length} show it, ${count - g.checks.length} fail on it later` : ''})`,
        ),
        facts,
      );
      const consequences = g.consequences ?? [];
      if (consequences.length > 0) {
        const sub = h('ul', { class: 'consequences' });
        for (const q of consequences) {
          const values = q.values.map((v) => `${v.pointer} ${v.value ?? '(missing)'}`).join(', ');
          sub.append(
            h(
              'li',
              { class: `o-${q.outcome}`, 'data-consequence': `${q.operation} ${q.status}` },
              h(
                'p',
                {},
                `Then ${q.operation} answers ${q.status} with it: ${values}${q.count > q.values.length ? `, … (${q.count} values)` : ''} `,
                h('code', {}, `(${q.checks.join(', ')})`),
              ),
              q.reproduce ? h('pre', {}, q.reproduce) : null,
            ),
          );
        }
        item.append(h('p', { class: 'then' }, 'Later failures it explains:'), sub);
      }
      list.append(item);
    }
    root.append(
      h('p', {}, `${t.name} (${t.url}): ${t.failures.length} cause(s), the one behind the most checks first`),
      list,
    );
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
