// Properties of the stub (server/stub/): delayed answers, and the journal's
// size and redaction. Run by the fuzz tests with a bounded count.
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../server/app.js';
import { createAuthenticator } from '../server/security/auth.js';
import { JOURNAL_PAGE_BYTES, MIN_JOURNAL_BYTES } from '../server/limits.js';
import type { Sleep } from '../server/stub/index.js';
import type { JournalPage } from '../server/stub/journal.js';
import { FUZZ_BODY_LIMIT, FUZZ_TOKEN, fuzzRequestArb, idSequence, type FuzzRequest } from './requests.js';

/** Answers that may wait out the delay at once in the delay property: small, so the cap is reached. */
export const FUZZ_MAX_WAITING = 3;

/** Statuses decided before the body is read (the delay comes after): a request to the operation answered at once has one of these. */
const ANSWERED_BEFORE_THE_BODY = new Set([400, 408, 413, 415, 431]);

/**
 * Sleeps that last until released: the property decides when delayed
 * answers go, and sees each request start to wait.
 */
class HeldSleeps {
  private held: Array<() => void> = [];
  private onWait: (() => void) | undefined;
  readonly sleep: Sleep = (_ms, signal) =>
    new Promise<void>((resolve) => {
      this.held.push(resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
      this.onWait?.();
    });

  /** Resolves when the next request starts to wait. */
  nextWait(): Promise<'waiting'> {
    return new Promise((resolve) => {
      this.onWait = () => {
        this.onWait = undefined;
        resolve('waiting');
      };
    });
  }

  releaseAll(): void {
    for (const resume of this.held.splice(0)) resume();
  }
}

function inject(app: FastifyInstance, request: FuzzRequest): Promise<LightMyRequestResponse> {
  return app.inject({
    method: request.method as 'POST',
    url: request.url,
    headers: request.headers,
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  });
}

const authenticator = createAuthenticator([FUZZ_TOKEN]);

/**
 * How the delay must treat a request: 'held' for an authenticated POST to
 * /plants; 'maybe' for one to a path whose routing is the framework's
 * business (/./plants, /%70lants), 'never' for the rest.
 */
function delayClass(request: FuzzRequest): 'held' | 'maybe' | 'never' {
  if (request.method !== 'POST' || (request.intent.path !== 'api' && request.intent.path !== 'odd')) return 'never';
  try {
    authenticator.check(request.headers.authorization);
  } catch {
    return 'never';
  }
  return request.intent.path === 'api' ? 'held' : 'maybe';
}

interface Waiting {
  request: FuzzRequest;
  answer: Promise<LightMyRequestResponse>;
}

/**
 * Property: with a delay on, whatever the requests and whenever the delayed
 * answers are let go,
 * - only authenticated requests to the operation wait; every other request
 *   is answered at once, also while the cap is reached;
 * - nothing is stored while a request waits: a client that gives up has
 *   created nothing (the handler runs after the delay);
 * - past FUZZ_MAX_WAITING waiting answers a request to the operation is
 *   answered 503 with Retry-After at once, and only then;
 * - once let go, every waiting request is answered 200 or 400, and the
 *   store holds exactly the 200s.
 */
export function delayedAnswersProperty(): fc.IAsyncProperty<[Array<[FuzzRequest, boolean]>]> {
  const steps = fc.array(fc.tuple(fuzzRequestArb(idSequence(1n)), fc.boolean()), { minLength: 1, maxLength: 24 });
  return fc.asyncProperty(steps, async (steps) => {
    const sleeps = new HeldSleeps();
    const app = buildApp({
      tokens: [FUZZ_TOKEN],
      bodyLimit: FUZZ_BODY_LIMIT,
      stub: { delayMs: 60_000, sleep: sleeps.sleep, maxWaiting: FUZZ_MAX_WAITING },
    });
    let waiting: Waiting[] = [];
    const problems: string[] = [];
    const letGo = async () => {
      const before = (await app.plantStore.usage()).plants;
      sleeps.releaseAll();
      let created = 0;
      for (const { request, answer } of waiting) {
        const { statusCode } = await answer;
        if (statusCode === 200) created++;
        else if (statusCode !== 400) problems.push(`a delayed ${describe(request)} was answered ${statusCode}`);
      }
      if ((await app.plantStore.usage()).plants !== before + created)
        problems.push(
          `${created} delayed answers were 200, and the store grew by ${(await app.plantStore.usage()).plants - before}`,
        );
      waiting = [];
    };
    try {
      for (const [request, thenLetGo] of steps) {
        const stored = (await app.plantStore.usage()).plants;
        // Watched before the request goes: without a body, it may reach the delay synchronously.
        const wait = sleeps.nextWait();
        const answer = inject(app, request);
        const first = await Promise.race([answer.then(() => 'answered' as const), wait]);
        const held = delayClass(request);
        if (first === 'waiting') {
          if (held === 'never')
            problems.push(`${describe(request)} waited, though not an authenticated request to the operation`);
          waiting.push({ request, answer });
        } else {
          const { statusCode, headers } = await answer;
          if (statusCode === 503) {
            if (waiting.length < FUZZ_MAX_WAITING)
              problems.push(`503 with ${waiting.length} answers waiting, fewer than ${FUZZ_MAX_WAITING}`);
            if (headers['retry-after'] === undefined) problems.push('503 without Retry-After');
          } else if (held === 'held' && !ANSWERED_BEFORE_THE_BODY.has(statusCode)) {
            problems.push(`${describe(request)} was answered ${statusCode} without waiting`);
          }
          if (statusCode === 503 && held === 'never')
            problems.push(`${describe(request)} was answered 503: only requests the delay holds are`);
        }
        if ((await app.plantStore.usage()).plants !== stored)
          problems.push(
            `the store changed while ${waiting.length} answers waited: a plant was stored before its delay ended`,
          );
        if (problems.length > 0) break;
        if (thenLetGo) await letGo();
      }
      await letGo();
    } finally {
      sleeps.releaseAll();
      await Promise.allSettled(waiting.map((w) => w.answer));
      await app.close();
    }
    if (problems.length > 0) throw new Error(problems.join('\n'));
  });
}

function describe(request: FuzzRequest): string {
  return `${request.method} ${request.url} (authorization ${JSON.stringify(request.headers.authorization)})`;
}

/** A credential the journal's requests carry in the places the journal redacts. */
export const JOURNAL_CREDENTIAL = 'journal-credential-0123456789';

/** Where a request of the journal property carries a credential. */
const CREDENTIAL_PLACES = [
  'bearer',
  'bare authorization',
  'proxy-authorization',
  'x-api-key',
  'x-auth-token',
  'cookie',
  'access_token query',
  'api_key query',
  'none',
] as const;

interface JournalRequest {
  credential: (typeof CREDENTIAL_PLACES)[number];
  /** Characters of header padding: up to Node's 16 KiB of headers on a socket. */
  headerPadding: number;
  /** Bytes of body: up to and past the 64 KiB the journal keeps of one. */
  bodyBytes: number;
  /** Control bytes and multi-byte characters in the body, which JSON escapes or decodes. */
  bodyFill: 'ascii' | 'controls' | 'multi-byte';
}

const journalRequestArb: fc.Arbitrary<JournalRequest> = fc.record({
  credential: fc.constantFrom(...CREDENTIAL_PLACES),
  headerPadding: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 12_000 })),
  bodyBytes: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 150_000 })),
  bodyFill: fc.constantFrom('ascii', 'controls', 'multi-byte'),
});

function journalInject(app: FastifyInstance, request: JournalRequest): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${FUZZ_TOKEN}` };
  let url = '/plants';
  switch (request.credential) {
    case 'bare authorization':
      headers.authorization = JOURNAL_CREDENTIAL;
      break;
    case 'proxy-authorization':
      headers['proxy-authorization'] = `Basic ${JOURNAL_CREDENTIAL}`;
      break;
    case 'x-api-key':
    case 'x-auth-token':
      headers[request.credential] = JOURNAL_CREDENTIAL;
      break;
    case 'cookie':
      headers.cookie = `session=${JOURNAL_CREDENTIAL}`;
      break;
    case 'access_token query':
      url = `/plants?access_token=${JOURNAL_CREDENTIAL}&page=1`;
      break;
    case 'api_key query':
      url = `/plants?x=1&API_KEY=${JOURNAL_CREDENTIAL}`;
      break;
  }
  if (request.headerPadding > 0) headers['x-padding'] = 'p'.repeat(request.headerPadding);
  const fill = { ascii: 'a', controls: '\u0001', 'multi-byte': '\u00e9' }[request.bodyFill];
  const payload = Buffer.from(fill.repeat(Math.ceil(request.bodyBytes / Buffer.byteLength(fill)))).subarray(
    0,
    request.bodyBytes,
  );
  return app.inject({ method: 'POST', url, headers, payload });
}

/**
 * The answer of one page can be larger than the entries it holds count:
 * JSON writes a control byte of a body as 6 characters (\u0001). A page is
 * never larger than this.
 */
export const JOURNAL_PAGE_ANSWER_BOUND = 8 * JOURNAL_PAGE_BYTES;

/**
 * Property: whatever the requests (bodies up to 150 KB, headers up to 12 KB,
 * credentials in any place) and whatever the journal's count and byte
 * budget, reading it page by page (?after=SEQ&limit=N) answers 200 every
 * time, each page within N entries and JOURNAL_PAGE_ANSWER_BOUND, the kept
 * entries within the budget (or the newest alone), in order with no gap
 * from the oldest kept to the newest, and no credential anywhere.
 */
export function journalSizeProperty(): fc.IAsyncProperty<
  [{ size: number; maxBytes: number; limit: number; requests: JournalRequest[] }]
> {
  const run = fc.record({
    size: fc.integer({ min: 1, max: 60 }),
    maxBytes: fc.integer({ min: MIN_JOURNAL_BYTES, max: 2 * 1024 * 1024 }),
    limit: fc.integer({ min: 1, max: 25 }),
    requests: fc.array(journalRequestArb, { minLength: 1, maxLength: 40 }),
  });
  return fc.asyncProperty(run, async ({ size, maxBytes, limit, requests }) => {
    const app = buildApp({ tokens: [FUZZ_TOKEN], stub: { journalSize: size, journalBytes: maxBytes } });
    try {
      for (const request of requests) await journalInject(app, request);
      const seqs: number[] = [];
      let after = 0;
      for (let pages = 0; ; pages++) {
        if (pages > requests.length) throw new Error(`more pages than requests: ${seqs.join(',')}`);
        const answer = await app.inject({ method: 'GET', url: `/__admin/journal?after=${after}&limit=${limit}` });
        if (answer.statusCode !== 200)
          throw new Error(
            `GET /__admin/journal?after=${after}&limit=${limit} answered ${answer.statusCode}: ${answer.body.slice(0, 200)}`,
          );
        for (const secret of [FUZZ_TOKEN, JOURNAL_CREDENTIAL])
          if (answer.body.includes(secret)) throw new Error(`the journal shows the credential ${secret}`);
        if (answer.body.length > JOURNAL_PAGE_ANSWER_BOUND)
          throw new Error(`a page of ${answer.body.length} characters`);
        const page = answer.json<JournalPage>();
        if (page.entries.length > limit) throw new Error(`a page of ${page.entries.length} entries, limit ${limit}`);
        if (page.bytes > maxBytes && page.entries.length + seqs.length > 1)
          throw new Error(`${page.bytes} bytes kept, budget ${maxBytes}`);
        seqs.push(...page.entries.map((entry) => entry.seq));
        if (page.next === null) break;
        after = page.next;
      }
      if (seqs.length === 0 || seqs.length > size) throw new Error(`${seqs.length} entries kept, at most ${size}`);
      if (seqs.at(-1) !== requests.length)
        throw new Error(`the newest entry is ${seqs.at(-1)}, not ${requests.length}`);
      if (seqs.some((seq, i) => i > 0 && seq !== seqs[i - 1]! + 1))
        throw new Error(`entries out of order or with a gap: ${seqs.join(',')}`);
    } finally {
      await app.close();
    }
  });
}
