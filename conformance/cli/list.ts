// --list: the catalog as a table (apart from options.ts, so that --help does not load the catalog).
import { catalog } from '../checks/index.js';

/** --list: every check with its ID, level and source, then its title. */
export function listChecks(ids?: string[]): string {
  const checks = catalog.filter((c) => !ids || ids.includes(c.id));
  const source = (c: (typeof catalog)[number]) => `${c.source.document}, ${c.source.section}`;
  const idWidth = Math.max(...checks.map((c) => c.id.length));
  const sourceWidth = Math.min(60, Math.max(...checks.map((c) => source(c).length)));
  const lines = [`${'ID'.padEnd(idWidth)}  LEVEL   ${'SOURCE'.padEnd(sourceWidth)}  TITLE`];
  for (const c of checks)
    lines.push(`${c.id.padEnd(idWidth)}  ${c.level.padEnd(6)}  ${source(c).padEnd(sourceWidth)}  ${c.title}`);
  return `${lines.join('\n')}\n`;
}
