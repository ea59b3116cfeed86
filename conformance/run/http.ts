// The harness's only network I/O. Targets are whatever a team deployed,
// working or not, so every exchange is bounded:
// - one deadline covers the whole exchange (connect, headers and body): a
//   target that drips its answer a byte at a time still hits it, which an
//   idle timeout would never do;
// - at most MAX_BODY bytes of an answer's body are read: a longer body (or a
//   Content-Length announcing one) ends the exchange and closes the socket;
//   headers are bounded by MAX_HEADERS;
// - no redirect is followed (undici's `request` follows none unless a
//   redirect interceptor is configured; none is): a 3xx is an answer to
//   grade, and the harness never sends a request off the target.
// An exchange without a usable answer carries `error`, a sentence naming the
// cause, and `failure`, its kind (the runner's dead-target policy reads it).
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { errors, request, type Dispatcher } from 'undici';
import type { Exchange, Failure, RequestSpec } from '../checks/exchange.js';
import { dispatcher } from './proxy.js';
import { NO_SECRETS, shorten, type Redactor } from '../redact/shorten.js';

export const MAX_BODY = 1024 * 1024;
/** undici's parser refuses a header section longer than this (status line and headers). */
export const MAX_HEADERS = 16 * 1024;

/** Joins a base URL that may carry a path prefix with an operation path. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}

export function formatMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** A measured duration, always in seconds with one decimal (2.2 s, 0.4 s): one unit for every elapsed time printed. */
export function formatSeconds(ms: number): string {
  return `${(Math.round(ms / 100) / 10).toFixed(1)} s`;
}

const MAX_BODY_TEXT = `${MAX_BODY / 1024 / 1024} MiB`;
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const CLOSED = new Set([
  'UND_ERR_SOCKET',
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_CLOSED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

/** How far an exchange got, for the message when it ends without an answer. */
interface Progress {
  timedOut: boolean;
  abandoned: boolean;
  status?: number;
  /** Body bytes read. */
  size: number;
}

/** Thrown inside send() when the body passes the cap; becomes an Exchange error. */
class BodyLimit extends Error {}

/** What was received instead of HTTP, shortened (redacted first) and quoted. */
function receivedBytes(data: unknown, redact: Redactor): string {
  const text = typeof data === 'string' ? data : Buffer.isBuffer(data) ? data.toString('latin1') : '';
  return JSON.stringify(shorten(text, 60, redact));
}

/**
 * Bodies at least this long (in bytes) are decoded into a string held off
 * the V8 heap: Node makes a string of more than about 1 MB of UTF-16 code
 * units an external one (EXTERN_APEX in its src/string_bytes.cc), which the
 * garbage collector counts as external memory and frees within tens of MB.
 * Decoded on the heap, each 1 MiB answer left 1 to 2 MB of garbage that V8
 * let grow to several times the live heap before it collected it: a run
 * against a target answering 1 MiB to every request peaked at 430 to 580 MB
 * while it kept none of them. With them off the heap, the peak is what
 * bench/harness-memory.ts measures today (docs/conformance.md says the last
 * numbers, test/conformance/harness-memory.test.ts holds the cap).
 */
const OFF_HEAP_BODY = 512 * 1024;
/** The pieces a large body is decoded in: strings small enough to die young. */
const DECODE_PIECE = 64 * 1024;

/** The body's bytes as text: UTF-8, each invalid sequence as U+FFFD, a BOM kept (what Buffer's toString('utf8') gives). */
function decodeBody(chunks: Buffer[], size: number): string {
  const bytes = Buffer.concat(chunks, size);
  if (size < OFF_HEAP_BODY) return bytes.toString('utf8');
  // Piece by piece into UTF-16 code units; StringDecoder keeps a sequence cut between two pieces whole.
  const decoder = new StringDecoder('utf8');
  const units: Buffer[] = [];
  for (let at = 0; at < size; at += DECODE_PIECE)
    units.push(Buffer.from(decoder.write(bytes.subarray(at, at + DECODE_PIECE)), 'utf16le'));
  units.push(Buffer.from(decoder.end(), 'utf16le'));
  return Buffer.concat(units).toString('utf16le');
}

/** Pause between the pieces of a chunked body: long enough for separate reads, bounded (a few pieces per request). */
const PIECE_PAUSE_MS = 2;

async function* pieces(chunks: Buffer[]): AsyncGenerator<Buffer> {
  for (let i = 0; i < chunks.length; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, PIECE_PAUSE_MS));
    yield chunks[i]!;
  }
}

export class HttpClient {
  private readonly agent: Dispatcher;
  /** `redact`: the secrets of the target this client sends to, which every exchange it makes carries. */
  constructor(
    private readonly timeoutMs: number,
    connections = 8,
    private readonly redact: Redactor = NO_SECRETS,
  ) {
    // Direct, or through HTTP(S)_PROXY as NO_PROXY allows (gateway.ts).
    this.agent = dispatcher({ connections, connect: { timeout: timeoutMs }, maxHeaderSize: MAX_HEADERS });
  }

  /**
   * Sends one request and reads its answer. Never throws: a missing answer
   * is an Exchange with `error`. `abandon`, when it fires, cuts the exchange
   * short (the runner has declared the target dead); its reason is a string.
   */
  async send(base: string, spec: RequestSpec, abandon?: AbortSignal): Promise<Exchange> {
    const url = joinUrl(base, spec.path);
    const redact = this.redact;
    if (abandon?.aborted)
      return { request: spec, url, error: `not sent: ${String(abandon.reason)}`, failure: 'abandoned', redact };
    // One controller per exchange, aborted by its deadline or by `abandon`
    // (listeners removed at the end: `abandon` lives as long as the run).
    const controller = new AbortController();
    const at: Progress = { timedOut: false, abandoned: false, size: 0 };
    const deadline = setTimeout(() => {
      at.timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    const onAbandon = () => {
      at.abandoned = true;
      controller.abort();
    };
    abandon?.addEventListener('abort', onAbandon, { once: true });
    const signal = controller.signal;
    try {
      const res = await request(url, {
        method: spec.method as 'POST',
        headers: spec.headers,
        // An async iterable has no known length: undici sends it chunked.
        body: spec.chunks ? Readable.from(pieces(spec.chunks), { objectMode: false }) : spec.body,
        dispatcher: this.agent,
        signal,
        // The deadline above is the real bound; these only keep undici's own
        // (longer) defaults from outliving it.
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      at.status = res.statusCode;
      const status = res.statusCode;
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > MAX_BODY) {
        res.body.destroy();
        throw new BodyLimit(
          `body exceeded ${MAX_BODY_TEXT} limit (status ${status}, Content-Length: ${declared}; not read, connection closed)`,
        );
      }
      const chunks: Buffer[] = [];
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        at.size += chunk.length;
        if (at.size > MAX_BODY) {
          // Destroying the body destroys the socket: no more bytes are read.
          res.body.destroy();
          throw new BodyLimit(
            `body exceeded ${MAX_BODY_TEXT} limit (status ${status}; stopped reading after ${at.size} bytes, connection closed)`,
          );
        }
        chunks.push(chunk);
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      }
      return {
        request: spec,
        url,
        response: { status: res.statusCode, headers, bodyText: decodeBody(chunks, at.size) },
        redact,
      };
    } catch (err) {
      const code = (err as { code?: unknown } | undefined)?.code;
      return {
        request: spec,
        url,
        ...this.explain(err, at, abandon),
        ...(typeof code === 'string' ? { code } : {}),
        redact,
      };
    } finally {
      clearTimeout(deadline);
      abandon?.removeEventListener('abort', onAbandon);
    }
  }

  private explain(err: unknown, at: Progress, abandon?: AbortSignal): { error: string; failure: Failure } {
    const e = err as Error & { code?: string; data?: unknown };
    const during = at.status === undefined ? '' : ` (status ${at.status} received, ${at.size} bytes of body read)`;
    if (err instanceof BodyLimit) return { error: e.message, failure: 'too-large' };
    // The deadline first: undici reports an abort under several names.
    if (at.timedOut) {
      const what = at.status === undefined ? 'did not answer' : 'did not finish its answer';
      return { error: `target ${what} within ${formatMs(this.timeoutMs)} (timeout)${during}`, failure: 'timeout' };
    }
    if (at.abandoned) return { error: `cut short: ${String(abandon?.reason)}`, failure: 'abandoned' };
    if (err instanceof errors.HTTPParserError || e?.name === 'HTTPParserError') {
      return {
        error: `answer is not HTTP: ${e.message}; received ${receivedBytes(e.data, this.redact)}`,
        failure: 'not-http',
      };
    }
    const code = e?.code ?? '';
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return {
        error: `target did not answer within ${formatMs(this.timeoutMs)} (timeout, ${code})${during}`,
        failure: 'timeout',
      };
    }
    if (code === 'UND_ERR_HEADERS_OVERFLOW') {
      return {
        error: `headers exceeded ${MAX_HEADERS / 1024} KiB limit (${code}; connection closed)`,
        failure: 'too-large',
      };
    }
    if (UNREACHABLE.has(code)) return { error: `target unreachable: ${e.message}`, failure: 'unreachable' };
    if (CLOSED.has(code)) {
      const when = at.status === undefined ? 'before answering' : 'before the end of its answer';
      return { error: `target closed the connection ${when} (${code}: ${e.message})${during}`, failure: 'closed' };
    }
    if (err instanceof errors.InvalidArgumentError)
      return { error: `the harness could not send this request: ${e.message}`, failure: 'request' };
    return {
      error: `no answer (${code || e?.name || 'Error'}: ${e?.message ?? String(err)})${during}`,
      failure: 'closed',
    };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
