// The harness's only network I/O. Every request has a timeout, reads at most
// MAX_BODY bytes of the answer (never an unbounded buffer) and follows no
// redirect: a 3xx is an answer to grade, not a hop to take.
import { Agent, request } from 'undici';

export const MAX_BODY = 1024 * 1024;

export interface RequestSpec {
  method: string;
  /** Path relative to the target's base URL, e.g. `/plants`. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** What this request is about, shown in reports. */
  note?: string;
}

export interface ResponseData {
  status: number;
  headers: Record<string, string>;
  bodyText: string;
  truncated: boolean;
}

export interface Exchange {
  request: RequestSpec;
  url: string;
  response?: ResponseData;
  /** Why there is no response: timeout, refused connection... */
  error?: string;
}

/** Joins a base URL that may carry a path prefix with an operation path. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}

export class HttpClient {
  private readonly agent: Agent;
  constructor(private readonly timeoutMs: number, connections = 8) {
    this.agent = new Agent({ connections, connect: { timeout: timeoutMs } });
  }

  async send(base: string, spec: RequestSpec): Promise<Exchange> {
    const url = joinUrl(base, spec.path);
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const res = await request(url, {
        method: spec.method as 'POST',
        headers: spec.headers,
        body: spec.body,
        dispatcher: this.agent,
        signal,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_BODY) {
          chunks.push(chunk.subarray(0, chunk.length - (size - MAX_BODY)));
          truncated = true;
          res.body.destroy();
          break;
        }
        chunks.push(chunk);
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      }
      return { request: spec, url, response: { status: res.statusCode, headers, bodyText: Buffer.concat(chunks).toString('utf8'), truncated } };
    } catch (err) {
      const e = err as Error & { code?: string };
      const reason = signal.aborted ? `timeout after ${this.timeoutMs} ms` : `${e.code ?? e.name}: ${e.message}`;
      return { request: spec, url, error: reason };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
