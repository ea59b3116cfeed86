// PS-COND-*: conditional requests (RFC 9110 §13), provoked only where the
// document declares the answer it expects: a change with an If-Match that
// names an older representation gets 412 and changes nothing (where 412 is
// declared); a change without If-Match gets 428 (RFC 6585 §3, where 428 is
// declared); a read with If-None-Match naming the current entity tag gets
// 304 (where 304 is declared). The entity tags are those the item was
// answered with (RFC 9110 §8.8.3).
import type { JsonValue } from '../model/json.js';
import type { OperationModel } from '../model/operation-model.js';
import { parameterRole } from '../model/parameter-roles.js';
import { RuledOut } from '../model/ruled-out.js';
import type { ResourceModel, ResourceOperation } from '../model/resource.js';
import { validBody } from '../cases/operation-bodies.js';
import { describe, noAnswer } from './grades.js';
import { etagOf } from './created.js';
import { changeable, jsonMedia } from './change-bodies.js';
import {
  answerJson,
  chainAfterCreate,
  chainEtag,
  followCalls,
  isSuccess,
  type Chain,
  type Indexed,
  type OpSent,
} from './op-cases.js';
import { itemCall, usable } from './resource-calls.js';
import { rfc } from './sources.js';
import { at, combined, created, skipAll, steps } from './state-verdicts.js';
import type { CheckContext, ExchangeCheck, Verdict } from './types.js';

const READ = 'read for its entity tag';
const FIRST = 'change with the entity tag just read';
const STALE = 'change again with the older entity tag';
const AFTER = 'read after';
const BARE = 'change without If-Match';
const MATCHING = 'read with If-None-Match naming the current entity tag';

/** The If-Match parameter an operation declares, if any. */
const ifMatchOf = (op: OperationModel) => op.parameters.find((p) => parameterRole(p)?.role === 'if-match');

/** The changes (PUT, PATCH) of each resource that declare `status`, with a read to learn entity tags by. */
function changes(
  ctx: CheckContext,
  status: string,
): Array<{ resource: ResourceModel; change: ResourceOperation; read: ResourceOperation }> {
  return ctx.model.resources.flatMap((resource) => {
    const read = resource.read;
    if (!resource.create || !usable(ctx, read)) return [];
    return [resource.replace, resource.merge]
      .filter(
        (c): c is ResourceOperation => usable(ctx, c) && c.op.responses.has(status) && ifMatchOf(c.op) !== undefined,
      )
      .filter((c) => jsonMedia(c.op) !== undefined && changeable(ctx, resource, jsonMedia(c.op)!) !== undefined)
      .map((change) => ({ resource, change, read }));
  });
}

/** A change of the chain's item setting its changeable member to `value`, with `ifMatch` (null: no If-Match). */
function changeTo(
  ctx: CheckContext,
  r: ResourceModel,
  change: ResourceOperation,
  chain: Chain,
  label: string,
  value: string,
  ifMatch: string | null,
) {
  const media = jsonMedia(change.op)!;
  const member = changeable(ctx, r, media)!;
  const body = change.role === 'merge' ? { [member]: value } : validBody(ctx.model, media, [[[member], value]]);
  const omit = ifMatch === null ? ifMatchOf(change.op)!.name : undefined;
  return itemCall(ctx, change, chain, label, {
    body: { contentType: media.contentType, value: body },
    ...(ifMatch !== null ? { ifMatch } : {}),
    ...(omit !== undefined ? { omit } : {}),
  });
}

/** The entity tag a step of the chain was answered with. */
const tagOf = (chain: Chain, label: string) => etagOf(chain.steps.find((s) => s.sent.label === label)?.exchange);

/** The value a chain's item's changeable member has in an answer. */
const memberIn = (answer: JsonValue | undefined, member: string) =>
  answer !== null && typeof answer === 'object' && !Array.isArray(answer)
    ? (answer as Record<string, JsonValue>)[member]
    : undefined;

const staleIfMatch: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-COND-001',
  title:
    'A change whose If-Match names an older entity tag gets 412 and changes nothing (where the document declares 412)',
  level: 'MUST',
  source: rfc(9110, '§13.1.1 If-Match', 'section-13.1.1'),
  requirement:
    'An origin server that receives an If-Match header field MUST evaluate the condition as per Section 13.2 prior to performing the method. ... If the field value is a list of entity tags, the condition is true if any of the listed tags match the entity tag of the selected representation. ... An origin server MUST NOT perform the requested method if a received If-Match condition evaluates to false. (§13.2.2: respond 412 (Precondition Failed).)',
  grading:
    "MUST: where the change declares If-Match and 412, a change with the entity tag of a representation since replaced answered 2xx, or a 412 after which the item reads changed, fails; another 4xx is non-strict (the method was not performed, but §13.2.2's status is 412). A read that answers no ETag, or a first change with the current tag refused: skip.",
  evidence:
    "For each PUT or PATCH that declares If-Match and 412: a create, a read answered with an ETag, a change with that ETag answered 2xx, the same change again with the now older ETag answered 412, then a read with the first change's value.",
  cases: (ctx) => {
    const found = changes(ctx, '412');
    if (found.length === 0) throw new RuledOut('no PUT or PATCH of the document declares If-Match and 412');
    return found.map(({ resource, change, read }, i) =>
      chainAfterCreate(
        ctx,
        i,
        'stale If-Match',
        [
          (chain) => itemCall(ctx, read, chain, READ),
          (chain) => changeTo(ctx, resource, change, chain, FIRST, 'first change', tagOf(chain, READ) ?? '*'),
          (chain) => changeTo(ctx, resource, change, chain, STALE, 'stale change', tagOf(chain, READ) ?? '*'),
          (chain) => itemCall(ctx, read, chain, AFTER),
        ],
        {},
        { resource },
      ),
    );
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases, ctx) => {
    const verdicts: Verdict[] = [];
    for (const chain of created(cases)) {
      const r = ctx.model.resources.find((x) => x.collection === chain[0]!.sent.collection)!;
      const [read] = steps(chain, READ);
      const [first] = steps(chain, FIRST);
      const [stale] = steps(chain, STALE);
      const [after] = steps(chain, AFTER);
      if (!read || !first || !stale) {
        verdicts.push(skipAll(chain));
        continue;
      }
      if (etagOf(read.exchange) === undefined) {
        verdicts.push(at(read, { outcome: 'skip', actual: `the read answered no ETag: ${describe(read.exchange)}` }));
        continue;
      }
      if (!isSuccess(first.exchange)) {
        verdicts.push(
          at(first, {
            outcome: 'skip',
            actual: `the change with the current entity tag was not accepted: ${describe(first.exchange)}`,
          }),
        );
        continue;
      }
      verdicts.push(staleVerdict(ctx, r, stale, after));
    }
    return combined(verdicts, skipAll(cases));
  },
};

/** What the change with an older entity tag, and the read after it, say. */
function staleVerdict(ctx: CheckContext, r: ResourceModel, stale: Indexed, after: Indexed | undefined): Verdict {
  const missing = noAnswer(stale.exchange);
  if (missing) return at(stale, missing);
  const status = stale.exchange.response!.status;
  const expected = `412 to ${stale.sent.operation} with an If-Match naming a representation since replaced`;
  if (status >= 200 && status < 300)
    return at(stale, {
      outcome: 'fail',
      expected,
      actual: `performed: ${describe(stale.exchange)}`,
      cause: `${stale.sent.operation} performs a change whose If-Match names an older entity tag`,
    });
  if (status >= 500)
    return at(stale, {
      outcome: 'fail',
      expected,
      actual: describe(stale.exchange),
      cause: `${stale.sent.operation} answers a stale If-Match ${status}`,
    });
  if (status !== 412)
    return at(stale, {
      outcome: 'non-strict',
      expected,
      actual: describe(stale.exchange),
      cause: `${stale.sent.operation} answers a stale If-Match ${status}, not 412`,
    });
  const media = jsonMedia(stale.sent.operation.startsWith('PATCH') ? r.merge!.op : r.replace!.op);
  const member = media ? changeable(ctx, r, media) : undefined;
  if (
    after &&
    isSuccess(after.exchange) &&
    member !== undefined &&
    memberIn(answerJson(after.exchange), member) === 'stale change'
  )
    return at(after, {
      outcome: 'fail',
      expected: `the item as the first change left it, after the 412`,
      actual: `${member} reads "stale change": ${describe(after.exchange)}`,
      cause: `${stale.sent.operation} answers 412 and changes the item anyway`,
    });
  return { outcome: 'pass' };
}

const requiredIfMatch: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-COND-002',
  title:
    'A change without If-Match gets 428 Precondition Required and changes nothing (where the document declares 428)',
  level: 'MUST',
  source: rfc(6585, '§3 428 Precondition Required', 'section-3'),
  requirement:
    'The 428 status code indicates that the origin server requires the request to be conditional. Its typical use is to avoid the "lost update" problem, where a client GETs a resource\'s state, modifies it, and PUTs it back to the server, when meanwhile a third party has modified the state on the server, leading to a conflict.',
  grading:
    "MUST: where the change declares If-Match required and 428, a change without If-Match answered 2xx fails (the document makes the header required: the request is not one of the operation's) and so does a 5xx; another 4xx is non-strict (the change is refused, but not with the status the document declares for it).",
  evidence:
    'For each PUT or PATCH that declares If-Match and 428: a create, then the change without If-Match answered 428.',
  cases: (ctx) => {
    const found = changes(ctx, '428');
    if (found.length === 0) throw new RuledOut('no PUT or PATCH of the document declares If-Match and 428');
    return found.map(({ resource, change }, i) =>
      chainAfterCreate(
        ctx,
        i,
        'no If-Match',
        [(chain) => changeTo(ctx, resource, change, chain, BARE, 'unconditional change', null)],
        {},
        { resource },
      ),
    );
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases) => {
    const verdicts: Verdict[] = [];
    for (const chain of created(cases)) {
      const [bare] = steps(chain, BARE);
      if (!bare) {
        verdicts.push(skipAll(chain));
        continue;
      }
      const missing = noAnswer(bare.exchange);
      const status = bare.exchange.response?.status ?? 0;
      const expected = `428 to ${bare.sent.operation} without If-Match`;
      verdicts.push(
        missing
          ? at(bare, missing)
          : status === 428
            ? { outcome: 'pass' }
            : at(bare, {
                outcome: (status >= 200 && status < 300) || status >= 500 ? 'fail' : 'non-strict',
                expected,
                actual: describe(bare.exchange),
                cause:
                  status < 300
                    ? `${bare.sent.operation} performs a change without the If-Match it requires`
                    : `${bare.sent.operation} answers a change without If-Match ${status}, not 428`,
              }),
      );
    }
    return combined(verdicts, skipAll(cases));
  },
};

const notModified: ExchangeCheck<OpSent> = {
  kind: 'exchange',
  id: 'PS-COND-003',
  title:
    'A read with If-None-Match naming the current entity tag gets 304 Not Modified (where the document declares 304)',
  level: 'MUST',
  source: rfc(9110, '§13.1.2 If-None-Match', 'section-13.1.2'),
  requirement:
    'An origin server MUST NOT perform the requested method if the condition evaluates to false; instead, the origin server MUST respond with either a) the 304 (Not Modified) status code if the request method is GET or HEAD or b) the 412 (Precondition Failed) status code for all other request methods. (A recipient MUST use the weak comparison function when comparing entity tags for If-None-Match.)',
  grading:
    'MUST: where the read declares 304, a read with If-None-Match naming the entity tag it was just answered with, answered 2xx with the representation (or 5xx), fails. A read that answers no ETag: skip.',
  evidence:
    'For each read that declares 304: a create, a read answered with an ETag, then the read with If-None-Match naming it answered 304.',
  cases: (ctx) => {
    const found = ctx.model.resources.filter((r) => r.create && usable(ctx, r.read) && r.read.op.responses.has('304'));
    if (found.length === 0) throw new RuledOut('no read of the document declares 304');
    return found.map((resource, i) => {
      const read = resource.read!;
      return chainAfterCreate(
        ctx,
        i,
        'If-None-Match',
        [
          (chain) => itemCall(ctx, read, chain, READ),
          (chain) => {
            const tag = chainEtag(chain);
            return tag === undefined
              ? undefined
              : itemCall(ctx, read, chain, MATCHING, { optional: true, ifNoneMatch: tag });
          },
        ],
        {},
        { resource },
      );
    });
  },
  follow: (sent, ctx) => followCalls(sent, ctx),
  verify: (cases) => {
    const verdicts: Verdict[] = [];
    for (const chain of created(cases)) {
      const [read] = steps(chain, READ);
      const [matching] = steps(chain, MATCHING);
      if (!read) {
        verdicts.push(skipAll(chain));
        continue;
      }
      if (!matching) {
        verdicts.push(at(read, { outcome: 'skip', actual: `the read answered no ETag: ${describe(read.exchange)}` }));
        continue;
      }
      const missing = noAnswer(matching.exchange);
      const status = matching.exchange.response?.status ?? 0;
      verdicts.push(
        missing
          ? at(matching, missing)
          : status === 304
            ? { outcome: 'pass' }
            : at(matching, {
                outcome: status < 300 || status >= 500 ? 'fail' : 'non-strict',
                expected: `304 to ${matching.sent.operation} with If-None-Match naming the entity tag just answered`,
                actual: describe(matching.exchange),
                cause: `${matching.sent.operation} answers If-None-Match naming the current entity tag ${status}, not 304`,
              }),
      );
    }
    return combined(verdicts, skipAll(cases));
  },
};

export const condChecks = [staleIfMatch, requiredIfMatch, notModified];
