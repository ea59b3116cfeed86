// The answers of an operation compared by status. Which statuses a document
// declares is read after its sources (docs/compatibility.md, "A status
// declared or no longer declared"):
// - an error status (4xx, 5xx, a range, `default`) is not a list of what may
//   come: OpenAPI 3.1 §4.8.16 does not expect the Responses Object to cover
//   every status, and RFC 9110 §15 has a client understand any status by its
//   class. A status the document does not declare may come, holding
//   anything; declaring it constrains what it holds (fewer answers valid),
//   and no longer declaring it frees it (more answers valid);
// - a success status (2xx) is what a valid request is answered with (the
//   project's reading, docs/document.md): one added is an answer existing
//   clients were not told a valid request gets; one removed moves the answer.
// Where the other document has a range (`4XX`) or `default` that covers the
// status, that is what the status held, and the two are compared as answers.
import type { OpenApiDocument, OperationLocation } from '../../spec/openapi.js';
import { childPointer } from '../../spec/schema-keywords.js';
import { mediaTypesDelta, type BodyLike } from './body-diff.js';
import { bearing, resolveObject, type Changes } from './changes.js';
import { SOURCES } from './sources.js';

/** The key of the responses that stands for `status` when it is not declared: its range, then `default` (OpenAPI 3.1 §4.8.16). */
function fallbackOf(responses: Record<string, unknown>, status: string): string | undefined {
  const range = /^\d{3}$/.test(status)
    ? Object.keys(responses).find((k) => k.toUpperCase() === `${status[0]}XX`)
    : undefined;
  if (range !== undefined) return range;
  return status !== 'default' && Object.hasOwn(responses, 'default') ? 'default' : undefined;
}

const isSuccess = (status: string) => status.startsWith('2');

export function responsesDelta(
  changes: Changes,
  base: OpenApiDocument,
  head: OpenApiDocument,
  b: OperationLocation,
  h: OperationLocation,
  label: string,
): void {
  const br = (b.operation.responses ?? {}) as Record<string, unknown>;
  const hr = (h.operation.responses ?? {}) as Record<string, unknown>;
  for (const status of new Set([...Object.keys(br), ...Object.keys(hr)])) {
    const bp = childPointer(b.pointer, 'responses', status);
    const hp = childPointer(h.pointer, 'responses', status);
    const usage = `${status} answer of ${label}`;
    const inBase = Object.hasOwn(br, status);
    const inHead = Object.hasOwn(hr, status);
    if (inBase && inHead) {
      mediaTypesDelta(
        changes,
        base,
        head,
        resolveObject(base, br[status] as BodyLike, bp),
        resolveObject(head, hr[status] as BodyLike, hp),
        usage,
        'response',
      );
      continue;
    }
    const gone = inBase;
    const [doc, responses, pointer] = gone ? [base, br, bp] : [head, hr, hp];
    const declared = resolveObject(doc, responses[status] as BodyLike, pointer).value;
    const fallback = isSuccess(status) ? undefined : fallbackOf(gone ? hr : br, status);
    const what = `response ${status} ${gone ? 'removed from' : 'added to'} ${label}`;
    if (fallback !== undefined) {
      // What the status held in the other document is what its range or `default` said: compared as an answer.
      const fp = childPointer(gone ? h.pointer : b.pointer, 'responses', fallback);
      changes.presence(gone, {
        keyword: 'response',
        pointer,
        value: status,
        what: `${what} (${fallback} ${gone ? 'covers it now' : 'covered it before'})`,
        source: SOURCES.responses,
        bearing: bearing(usage, 'response', 'none', `what a ${status} holds is compared with what ${fallback} said`),
      });
      const other = resolveObject(gone ? head : base, (gone ? hr : br)[fallback] as BodyLike, fp);
      const here = resolveObject(doc, responses[status] as BodyLike, pointer);
      mediaTypesDelta(changes, base, head, gone ? here : other, gone ? other : here, usage, 'response');
      continue;
    }
    changes.presence(gone, {
      keyword: 'response',
      pointer,
      value: status,
      what,
      source: SOURCES.responses,
      bearing: statusBearing(
        status,
        gone,
        declared.content !== undefined && Object.keys(declared.content).length > 0,
        usage,
      ),
    });
  }
}

function statusBearing(status: string, gone: boolean, holdsContent: boolean, usage: string) {
  if (isSuccess(status)) {
    return gone
      ? bearing(
          usage,
          'response',
          'both',
          `existing servers that answer ${status} now give an answer the document does not declare, and existing clients that expect ${status} to a valid request get another status from a server following the new document`,
        )
      : bearing(
          usage,
          'response',
          'looser',
          `a server following the new document may answer a valid request with ${status}, which existing clients were not told a valid request gets (RFC 9110 §15 lets them see a success, not what it holds)`,
        );
  }
  if (!holdsContent)
    return bearing(
      usage,
      'response',
      'none',
      `the response declares no content: what a ${status} holds is as free as it was`,
    );
  return gone
    ? bearing(
        usage,
        'response',
        'looser',
        `existing clients read a ${status} as the old document describes it; the new document no longer says what a ${status} holds, so it may hold anything`,
      )
    : bearing(
        usage,
        'response',
        'tighter',
        `a ${status} could come before (OpenAPI 3.1 §4.8.16: the responses need not list every status; RFC 9110 §15: a client handles any status by its class), holding anything; the new document says what it holds, which an existing server's ${status} may not`,
      );
}
