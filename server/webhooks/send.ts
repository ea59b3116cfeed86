// One delivery attempt on the wire: the request with exactly the headers
// given (node:http, so nothing is added that the journal does not show),
// bounded in time from the connection to the end of the answer, and the
// answer's status. The answer's body is read and thrown away, never kept:
// it is the receiver's, and reaches no one.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { MAX_RECEIVER_ANSWER_BYTES } from '../limits.js';

export interface AttemptRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs: number;
  /** Aborts the attempt (the server is closing, the stub was reset). */
  signal: AbortSignal;
}

/** What became of an attempt: the receiver's status, or why there was none. */
export type AttemptResult = { status: number; error: null } | { status: null; error: string };

/** Connections to the receivers, kept alive between attempts, and closed with the server. */
export class Connections {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 64 });
  private readonly https = new HttpsAgent({ keepAlive: true, maxSockets: 64 });

  /** Sends one attempt; never rejects. */
  send(attempt: AttemptRequest): Promise<AttemptResult> {
    const secure = attempt.url.startsWith('https:');
    const request = secure ? httpsRequest : httpRequest;
    return new Promise((resolve) => {
      let settled = false;
      const settle = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        attempt.signal.removeEventListener('abort', onAbort);
        resolve(result);
      };
      const req = request(attempt.url, {
        method: attempt.method,
        headers: { ...attempt.headers, 'content-length': String(attempt.body.length) },
        agent: secure ? this.https : this.http,
      });
      // Also bounds the reading of the answer's body, after the status has settled the attempt.
      const timer = setTimeout(() => {
        settle({ status: null, error: `timeout: no answer within ${attempt.timeoutMs} ms` });
        req.destroy();
      }, attempt.timeoutMs);
      const onAbort = () => {
        settle({ status: null, error: 'cancelled' });
        req.destroy();
      };
      if (attempt.signal.aborted) return onAbort();
      attempt.signal.addEventListener('abort', onAbort, { once: true });
      req.on('error', (error: Error & { code?: string }) =>
        settle({ status: null, error: error.code ?? error.message }),
      );
      req.on('close', () => clearTimeout(timer));
      req.on('response', (res) => {
        // The status settles the attempt; the body is read to its end (so the connection can serve the next one) and thrown away.
        settle({ status: res.statusCode ?? 0, error: null });
        discard(res);
      });
      req.end(attempt.body);
    });
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

/** Reads the answer's body and throws it away; past MAX_RECEIVER_ANSWER_BYTES the connection is closed. */
function discard(res: IncomingMessage): void {
  let bytes = 0;
  res.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > MAX_RECEIVER_ANSWER_BYTES) res.destroy();
  });
  res.on('error', () => {}); // the status is known: a body cut short changes nothing
}
