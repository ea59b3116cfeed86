// PS-ROBUST-004: request heads a fragile server trips on (an 8 KiB token, two
// tokens, odd charsets, malformed media types), each with a valid body. Any
// answer below 500 is the server's own choice; a 5xx, a dropped connection or
// a hang is not.
import { each, hung, noAnswer, serverFailure } from './grades.js';
import { createRequest, validPlant } from './requests.js';
import { rfc, RFC9110_15_6 } from './sources.js';
import type { Check, CheckContext, ExchangeCheck } from './types.js';
import { createOf } from '../model/spec-model.js';

/** Request heads a fragile server trips on, each with a valid body: [header, value, note]. */
function hostileHeads(ctx: CheckContext): Array<[name: string, value: string, note: string]> {
  const json = createOf(ctx.model).requestContentTypes[0]!;
  return [
    ['authorization', `Bearer ${'a'.repeat(8 * 1024)}`, 'a bearer token of 8 KiB'],
    ['authorization', 'Bearer a b', 'two tokens after Bearer'],
    ['authorization', 'Bearer	token', 'a tab after Bearer'],
    ['content-type', `${json}; charset=iso-8859-1`, 'a charset the JSON media type does not allow'],
    ['content-type', `${json}; charset=utf-16`, 'charset=utf-16 with a UTF-8 body'],
    ['content-type', `${json}; =`, 'a parameter without a name'],
    ['content-type', `${json}, text/plain`, 'a list of media types'],
    ['content-type', json.split('/')[0]!, 'a type without a subtype'],
    ['content-type', '', 'an empty Content-Type'],
    ['accept', 'text/html', 'Accept: text/html only'],
  ];
}

const hostileHead: ExchangeCheck = {
  kind: 'exchange',
  id: 'PS-ROBUST-004',
  family: 'odd request heads',
  // An 8 KiB token, malformed media types: after every ordinary check, alone.
  stage: 'extreme',
  title:
    'Odd request heads (an 8 KiB token, two tokens, charsets, malformed media types) are answered: never a 5xx, a dropped connection or a hang',
  level: 'MUST',
  source: rfc(9110, '§15.6 Server Error 5xx', 'section-15.6'),
  requirement: `${RFC9110_15_6} (Any answer below 500 passes: accepting, 400, 401, 406 or 415 are each a server's own choice here; what they get right or wrong is graded by the other checks.)`,
  grading:
    "MUST only for a 5xx, a dropped connection or a hang (RFC 9110 §15.6: the server erred on a request a client may send); every answer below 500 is a server's own choice here, and passes.",
  evidence: 'An HTTP answer below 500 within the deadline to each odd head.',
  cases: (ctx) =>
    hostileHeads(ctx).map(([name, value, note]) => {
      const request = createRequest(ctx, validPlant(ctx), { note });
      return { request: { ...request, headers: { ...request.headers, [name]: value } }, sent: undefined };
    }),
  verify: (cases) =>
    each(cases, ({ exchange: ex }) => serverFailure(ex) ?? hung(ex) ?? noAnswer(ex) ?? { outcome: 'pass' }),
};

export const robustHeadChecks: Check[] = [hostileHead];
