// --har FILE: every exchange with the targets as HAR 1.2
// (http://www.softwareishard.com/blog/har-12-spec/), which a browser's
// network panel and many HTTP tools open. One entry per exchange on the
// wire: the diagnosis's and the checks' requests, and each retry after a 429
// or 503 (--wait-for's polls are not exchanges of the run). Credentials are
// redacted as in every other report (the token as $PLANTSTORE_TOKEN, a
// secret-looking -H header's value as <redacted>). Entries are written as
// the run goes, so memory does not grow with the run, and each body is kept
// to its first HAR_BODY_BYTES bytes, redacted before it is cut, with a
// comment that says so (content.size and bodySize keep its whole size): a
// target answering 1 MiB to each request once made a HAR of 754 MiB.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Exchange } from '../checks/exchange.js';
import type { WireTiming } from '../run/runner.js';
import type { Target } from '../model/target.js';
import { harnessVersion } from './version.js';
import { mapStrings } from '../redact/escape.js';
import { runRedactor } from '../redact/secrets.js';
import { tokenInField } from '../run/curl.js';
import type { Redactor } from '../redact/shorten.js';
import { ReportWriteError } from './write.js';

interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: [];
    headers: HarHeader[];
    queryString: Array<{ name: string; value: string }>;
    postData?: { mimeType: string; text: string; comment?: string };
    headersSize: -1;
    bodySize: number;
    comment?: string;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: [];
    headers: HarHeader[];
    content: { size: number; mimeType: string; text?: string; comment?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
    comment?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  /** Which target of the run (its report column). */
  _target: string;
  /** Which check sent the request (`diagnosis`: the diagnosis before the checks). */
  _check: string;
}

/** The most of a body (request or answer) a HAR entry keeps, in bytes of UTF-8: 64 KiB, as the stub's journal keeps of each body. */
export const HAR_BODY_BYTES = 64 * 1024;

/** `text` cut to at most HAR_BODY_BYTES bytes of UTF-8 (whole characters only), and the comment that says so; undefined when it is whole. */
export function cutBody(text: string): { text: string; comment: string } | undefined {
  const size = Buffer.byteLength(text, 'utf8');
  if (size <= HAR_BODY_BYTES) return undefined;
  // The most UTF-16 code units whose UTF-8 fits: each unit is 1 to 3 bytes, so the answer is between a third of the cap and the cap.
  let low = Math.floor(HAR_BODY_BYTES / 3);
  let high = Math.min(text.length, HAR_BODY_BYTES);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (Buffer.byteLength(text.slice(0, middle), 'utf8') <= HAR_BODY_BYTES) low = middle;
    else high = middle - 1;
  }
  const last = text.charCodeAt(low - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? low - 1 : low;
  const kept = text.slice(0, end);
  return {
    text: kept,
    comment: `body cut: the HAR keeps its first ${Buffer.byteLength(kept, 'utf8')} of ${size} bytes (UTF-8)`,
  };
}

const withComment = (comment: string | undefined, more: string) => (comment ? `${comment}; ${more}` : more);

/** The entry with each body cut to HAR_BODY_BYTES (after redaction: a secret is never cut into pieces too short to be found). */
export function cutBodies(entry: HarEntry): HarEntry {
  const post = entry.request.postData;
  const postCut = post ? cutBody(post.text) : undefined;
  const content = entry.response.content;
  const contentCut = content.text === undefined ? undefined : cutBody(content.text);
  if (!postCut && !contentCut) return entry;
  return {
    ...entry,
    request:
      post && postCut
        ? {
            ...entry.request,
            postData: { ...post, text: postCut.text, comment: withComment(post.comment, postCut.comment) },
          }
        : entry.request,
    response: contentCut
      ? { ...entry.response, content: { ...content, text: contentCut.text, comment: contentCut.comment } }
      : entry.response,
  };
}

const headerList = (headers: Record<string, string>): HarHeader[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value }));

/** One exchange as a HAR entry (not yet redacted). */
export function harEntry(target: Target, ex: Exchange, timing: WireTiming): HarEntry {
  const req = ex.request;
  const body =
    req.body === undefined ? undefined : typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : req.body;
  // The token where the request uses it (the Authorization field) as $PLANTSTORE_TOKEN; the run's redactor does the rest.
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [name, tokenInField(name, value, target.token)]),
  );
  // undici sets Transfer-Encoding itself for a body of unknown length.
  if (req.chunks !== undefined) headers['transfer-encoding'] = 'chunked';
  let postData: HarEntry['request']['postData'];
  if (body !== undefined) {
    const text = body.toString('utf8');
    const utf8 = Buffer.from(text, 'utf8').equals(body);
    const chunks =
      req.chunks && req.chunks.length > 1
        ? `sent in ${req.chunks.length} chunks of ${req.chunks.map((c) => c.length).join(', ')} bytes`
        : undefined;
    postData = {
      mimeType:
        req.headers['content-type'] ??
        Object.entries(req.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ??
        '',
      text: utf8 ? text : body.toString('base64'),
      ...(utf8 && !chunks
        ? {}
        : { comment: [utf8 ? '' : 'the body is not UTF-8: text is its base64', chunks].filter(Boolean).join('; ') }),
    };
  }
  const url = new URL(ex.url);
  const r = ex.response;
  const ms = Math.max(0, Math.round(timing.ms * 1000) / 1000);
  return {
    startedDateTime: new Date(timing.startedAt).toISOString(),
    time: ms,
    request: {
      method: req.method,
      url: ex.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(headers),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(postData ? { postData } : {}),
      headersSize: -1,
      bodySize: body?.length ?? 0,
      ...(req.note ? { comment: req.note } : {}),
    },
    response: r
      ? {
          status: r.status,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: headerList(r.headers),
          content: {
            size: Buffer.byteLength(r.bodyText, 'utf8'),
            mimeType: r.headers['content-type'] ?? '',
            text: r.bodyText,
          },
          redirectURL: r.headers.location ?? '',
          headersSize: -1,
          bodySize: Buffer.byteLength(r.bodyText, 'utf8'),
        }
      : {
          // No answer: status 0, as browsers record a failed request, and why.
          status: 0,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: [],
          content: { size: 0, mimeType: 'x-unknown' },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
          comment: ex.error ?? 'no answer',
        },
    cache: {},
    timings: { send: 0, wait: ms, receive: 0 },
    _target: target.name,
    _check: ex.sentBy ?? 'diagnosis',
  };
}

/** Writes the HAR file entry by entry: opened before the run (a path that cannot be written stops it at once), closed at its end. */
export class HarWriter {
  private readonly fd: number;
  private count = 0;
  private readonly redactors = new Map<Target, Redactor>();

  constructor(readonly file: string) {
    try {
      mkdirSync(dirname(file), { recursive: true });
      this.fd = openSync(file, 'w');
    } catch (err) {
      throw new ReportWriteError(`cannot write the HAR file ${file}: ${(err as Error).message}`);
    }
    const creator = { name: 'plantstore-conformance', version: harnessVersion() };
    writeSync(this.fd, `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"pages":[],"entries":[`);
  }

  add(target: Target, ex: Exchange, timing: WireTiming): void {
    let redact = this.redactors.get(target);
    if (!redact) this.redactors.set(target, (redact = runRedactor([target])));
    const entry = cutBodies(mapStrings(harEntry(target, ex, timing), redact));
    writeSync(this.fd, `${this.count++ === 0 ? '\n' : ',\n'}${JSON.stringify(entry)}`);
  }

  /** Ends the file; returns the number of entries. */
  close(): number {
    writeSync(this.fd, '\n]}}\n');
    closeSync(this.fd);
    return this.count;
  }
}
