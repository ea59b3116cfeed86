// The departures of the crossed runs that prove nothing, in the words both
// reports print them with (report.ts): a server accepting what the checking
// document refuses, a departure present before the change, a request no
// existing client sends.
import type { CompatResult } from './compat.js';

/** One line per kind of departure set apart, each naming its checks; none when there are none. */
export function setApart(r: CompatResult): string[] {
  const lines: string[] = [];
  if (r.lenient.length > 0)
    lines.push(
      `accepted what the checking document refuses (breaks no one who follows it): ${r.lenient.map((l) => `${l.check.id} (${l.side === 'clients' ? 'the new server' : 'the old server'})`).join(', ')}`,
    );
  if (r.preexisting.length > 0)
    lines.push(
      `present before the change (the old document's checks depart alike against the reference serving the old document: no proof of the change): ${r.preexisting.map((p) => `${p.check.id} ${p.check.outcome} (existing ${p.side})`).join(', ')}`,
    );
  if (r.notClientsEvidence.length > 0)
    lines.push(
      `refused otherwise by the new server, requests the old document refuses (existing clients never send them: no evidence that they break): ${r.notClientsEvidence.map((c) => c.id).join(', ')}`,
    );
  return lines;
}
