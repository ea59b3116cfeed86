// fast-check generators of raw HTTP/1.1 byte streams (several requests
// pipelined on one connection), and the property that every complete request
// on them is answered. Shared by the socket fuzz test and the long fuzz script.
import fc from 'fast-check';
import { answerProblems, HEALTHY_ANSWER } from './answers.js';
import { FUZZ_BODY_LIMIT, FUZZ_TOKEN } from './requests.js';
import { exchange, rawRequest } from './wire.js';

export interface WireCase {
  bytes: Buffer;
  /** How many requests from the start are complete and well-formed: each must be answered. */
  mustAnswer: number;
  /** Requests in the stream, well-formed or not: no more answers than this. */
  requests: number;
}

interface Piece {
  bytes: Buffer;
  /** A complete, well-formed request: it must be answered. */
  wellFormed: boolean;
  /** The bytes that follow it are no longer read as the next request (declared length shorter or longer than sent). */
  breaksFraming: boolean;
}

const ids = { next: 1_000_000_000n };
const freshBody = fc
  .constantFrom('a', 'Monstera', '\ud83c\udf35', 'x'.repeat(300))
  .map((name) => Buffer.from(`{"id":${ids.next++},"name":${JSON.stringify(name)}}`));
const anyBody = fc.oneof(
  freshBody,
  fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
  fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
  fc.constant(Buffer.from('['.repeat(200))),
  fc.constant(Buffer.alloc(0)),
);

const goodMethod = fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'PROPFIND');
const goodTarget = fc.constantFrom(
  '/plants',
  '/plants',
  '/plants',
  '/plants',
  '/plants?x=1',
  '/__health',
  '/',
  '/plants/1',
  '/%zz',
  '//plants',
  'http://127.0.0.1/plants',
  '/plants/../plants',
);
const authorization = fc.constantFrom(
  `Bearer ${FUZZ_TOKEN}`,
  `Bearer ${FUZZ_TOKEN}`,
  'Bearer wrong',
  'Basic YTpi',
  'Bearer',
  '',
  `bearer ${FUZZ_TOKEN}x`,
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'text/plain',
  'application/json; charset=latin1',
  '',
  ';;;',
);
const extraHeaders = fc.array(
  fc.constantFrom<[string, string]>(
    ['Connection', 'keep-alive'],
    ['Connection', 'close'],
    ['Expect', '100-continue'],
    ['Expect', 'something-else'],
    ['Upgrade', 'websocket'],
    ['Connection', 'Upgrade'],
    ['Accept-Encoding', 'gzip, br'],
    ['X-Forwarded-For', '127.0.0.1'],
    ['Cookie', 'a=b'],
    ['Authorization', 'Bearer second-value'],
    ['Content-Type', 'text/plain'],
  ),
  { maxLength: 2 },
);

/** A complete, well-framed request (Content-Length matching, or chunked). */
const wellFramed: fc.Arbitrary<Piece> = fc
  .record({
    method: goodMethod,
    target: goodTarget,
    version: fc.constantFrom('HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0'),
    authorization: fc.option(authorization),
    contentType: fc.option(contentType),
    body: anyBody,
    chunked: fc.boolean(),
    extra: extraHeaders,
  })
  .map(({ method, target, version, authorization, contentType, body, chunked, extra }) => {
    const headers: Array<[string, string]> = [['Host', '127.0.0.1']];
    if (authorization !== null) headers.push(['Authorization', authorization]);
    if (contentType !== null) headers.push(['Content-Type', contentType]);
    headers.push(...extra);
    let payload = body;
    if (chunked && version === 'HTTP/1.1' && body.length > 0) {
      headers.push(['Transfer-Encoding', 'chunked']);
      const half = Math.floor(body.length / 2);
      const parts = [body.subarray(0, half), body.subarray(half)].filter((p) => p.length > 0);
      payload = Buffer.concat([
        ...parts.flatMap((p) => [Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from('\r\n')]),
        Buffer.from('0\r\n\r\n'),
      ]);
    } else {
      headers.push(['Content-Length', String(body.length)]);
    }
    // Known limit of Node's HTTP server: after a request with Upgrade it answers
    // that request (no 'upgrade' listener) but reads nothing more on the connection.
    const upgrade = extra.some(([name]) => name === 'Upgrade');
    return {
      bytes: rawRequest(`${method} ${target} ${version}`, headers, payload),
      wellFormed: true,
      breaksFraming: upgrade,
    };
  });

/** A create that must succeed, plain or chunked, so pipelines hold 200s to lose. */
const validCreate: fc.Arbitrary<Piece> = fc
  .record({ body: freshBody, chunked: fc.boolean() })
  .map(({ body, chunked }) => {
    const headers: Array<[string, string]> = [
      ['Host', '127.0.0.1'],
      ['Authorization', `Bearer ${FUZZ_TOKEN}`],
      ['Content-Type', 'application/json'],
    ];
    const payload = chunked
      ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')])
      : body;
    headers.push(chunked ? ['Transfer-Encoding', 'chunked'] : ['Content-Length', String(body.length)]);
    return { bytes: rawRequest('POST /plants HTTP/1.1', headers, payload), wellFormed: true, breaksFraming: false };
  });

/** A body over the limit (413, and the server closes the connection after it). */
const oversized: fc.Arbitrary<Piece> = fc
  .record({ size: fc.integer({ min: FUZZ_BODY_LIMIT + 1, max: FUZZ_BODY_LIMIT * 3 }), chunked: fc.boolean() })
  .map(({ size, chunked }) => {
    const body = Buffer.from(`{"id":1,"name":"${'a'.repeat(size)}"}`);
    const headers: Array<[string, string]> = [
      ['Host', '127.0.0.1'],
      ['Authorization', `Bearer ${FUZZ_TOKEN}`],
      ['Content-Type', 'application/json'],
    ];
    const payload = chunked
      ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')])
      : body;
    headers.push(chunked ? ['Transfer-Encoding', 'chunked'] : ['Content-Length', String(body.length)]);
    return { bytes: rawRequest('POST /plants HTTP/1.1', headers, payload), wellFormed: true, breaksFraming: false };
  });

/** Content-Length shorter or longer than the body that follows. */
const lengthMismatch: fc.Arbitrary<Piece> = fc
  .record({ body: freshBody, delta: fc.integer({ min: -20, max: 20 }).filter((d) => d !== 0) })
  .map(({ body, delta }) => {
    const declared = Math.max(0, body.length + delta);
    const bytes = rawRequest(
      'POST /plants HTTP/1.1',
      [
        ['Host', '127.0.0.1'],
        ['Authorization', `Bearer ${FUZZ_TOKEN}`],
        ['Content-Type', 'application/json'],
        ['Content-Length', String(declared)],
      ],
      body,
    );
    // Shorter: the request itself is complete (its body is cut short) and must be answered; the rest is read as a next request.
    return { bytes, wellFormed: declared < body.length, breaksFraming: true };
  });

/** Streams Node's HTTP parser refuses: the server answers 400 or 431 and closes. */
const malformed: fc.Arbitrary<Piece> = fc
  .oneof(
    fc.constantFrom(
      'FOO /plants HTTP/1.1\r\nHost: a\r\n\r\n',
      'post /plants HTTP/1.1\r\nHost: a\r\n\r\n',
      'POST /plants HTTP/9.9\r\nHost: a\r\n\r\n',
      'POST /plants\r\nHost: a\r\n\r\n',
      'POST  HTTP/1.1\r\nHost: a\r\n\r\n',
      'POST /pla nts HTTP/1.1\r\nHost: a\r\n\r\n',
      '\x00\x01\x02\r\n\r\n',
      'GET / HTTP/1.1\r\nHost a\r\n\r\n',
      'GET / HTTP/1.1\r\nHost : a\r\n\r\n',
      'GET / HTTP/1.1\r\nHo(st: a\r\n\r\n',
      'POST /plants HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!',
      'POST /plants HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n',
      'POST /plants HTTP/1.1\r\nHost: a\r\nContent-Length: 1e3\r\n\r\n',
      'POST /plants HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'POST /plants HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
      'POST /plants HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: a\r\nX: \x01\r\n\r\n',
      'GET / HTTP/1.1\nHost: a\n\n',
      '\r\n\r\nGET / HTTP/1.1\r\n\r\n',
      'CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: a\r\n\r\n',
      'CONNECT /plants HTTP/1.1\r\nHost: a\r\n\r\n',
    ),
    fc.uint8Array({ minLength: 1, maxLength: 100 }).map((a) => Buffer.from(a).toString('latin1') + '\r\n\r\n'),
  )
  .map((text) => ({ bytes: Buffer.from(text, 'latin1'), wellFormed: false, breaksFraming: true }));

/** Headers over Node's 16 KiB limit: 431. */
const hugeHeaders: fc.Arbitrary<Piece> = fc
  .record({ size: fc.integer({ min: 17_000, max: 80_000 }), many: fc.boolean() })
  .map(({ size, many }) => {
    const headers: Array<[string, string]> = [['Host', 'a']];
    if (many) for (let i = 0; i < size / 20; i++) headers.push([`X-H${i}`, 'aaaaaaaaaa']);
    else headers.push(['Authorization', `Bearer ${'a'.repeat(size)}`]);
    return { bytes: rawRequest('POST /plants HTTP/1.1', headers), wellFormed: false, breaksFraming: true };
  });

export const wireCaseArb: fc.Arbitrary<WireCase> = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: validCreate },
      { weight: 5, arbitrary: wellFramed },
      { weight: 1, arbitrary: oversized },
      { weight: 2, arbitrary: lengthMismatch },
      { weight: 2, arbitrary: malformed },
      { weight: 1, arbitrary: hugeHeaders },
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((pieces) => {
    let mustAnswer = 0;
    for (const piece of pieces) {
      if (!piece.wellFormed) break;
      mustAnswer++;
      if (piece.breaksFraming) break;
    }
    return { bytes: Buffer.concat(pieces.map((p) => p.bytes)), mustAnswer, requests: pieces.length };
  });

/**
 * Sends one case on a fresh connection and half-closes. Every complete,
 * well-formed request before the first broken one is answered (unless an
 * earlier answer said Connection: close), every answer is a documented status
 * with an Error or Plant body, nothing is torn, and the server closes the
 * connection. Returns the problems ([] when none) and the statuses seen.
 */
export async function wireCaseProblems(
  port: number,
  wireCase: WireCase,
): Promise<{ problems: string[]; statuses: number[]; created: number }> {
  // Generous for a loaded machine; a server that hangs still fails the case.
  const result = await exchange(port, wireCase.bytes, { deadlineMs: 10_000 });
  const problems: string[] = [];
  const statuses = result.responses.map((r) => r.status);
  if (!result.closedByServer) problems.push('the server neither answered nor closed the connection within 10 s');
  if (result.leftover.length > 0)
    problems.push(`torn or unframed answer: ${JSON.stringify(result.leftover.toString('latin1').slice(0, 200))}`);
  const closeAt = result.responses.findIndex((r) => /\bclose\b/i.test(r.headers.connection ?? ''));
  const required = closeAt === -1 ? wireCase.mustAnswer : Math.min(wireCase.mustAnswer, closeAt + 1);
  if (result.responses.length < required)
    problems.push(`${result.responses.length} answers, but ${required} complete requests were sent`);
  // Extra answers may come from bytes that look like requests inside a broken one; never more than one per CRLFCRLF.
  const heads = wireCase.bytes.toString('latin1').split('\r\n\r\n').length;
  if (result.responses.length > heads)
    problems.push(`${result.responses.length} answers to at most ${heads} request heads`);
  let created = 0;
  for (const response of result.responses) {
    if (response.status === 200 && response.body !== HEALTHY_ANSWER) created++;
    const fromServer = answerProblems(
      { status: response.status, headers: response.headers, body: response.body },
      { statuses: new Set([200, 400, 401, 404, 405, 408, 413, 415, 431]) },
    );
    // GET /__health is outside the API and answers HEALTHY_ANSWER.
    if (response.status === 200 && response.body === HEALTHY_ANSWER) continue;
    problems.push(...fromServer);
  }
  return { problems, statuses, created };
}
