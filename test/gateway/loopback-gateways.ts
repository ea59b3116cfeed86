// Loopback servers that stand where gateways stand in real deployments,
// each in front of an upstream server (the fake Plant Store): a rate limiter
// answering 429 with Retry-After, a forward proxy that records what passes
// through it, and a TLS terminator with a certificate of a private CA.
import {
  createServer as createHttpServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { keepIdleConnectionsOpen } from '../support/keep-alive.js';

export interface Gateway {
  url: string;
  close(): Promise<void>;
}

/** Sends the request on to `upstream` as received (raw headers, body bytes) and the answer back as received. */
function forward(upstream: string, req: IncomingMessage, res: ServerResponse): void {
  const target = new URL(req.url!, upstream);
  const onward = request(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers: req.rawHeaders,
      setHost: false,
    },
    (answer) => {
      res.writeHead(answer.statusCode!, answer.rawHeaders);
      answer.pipe(res);
    },
  );
  onward.on('error', () => res.destroy());
  req.pipe(onward);
}

async function listen(server: Server, scheme = 'http'): Promise<Gateway> {
  keepIdleConnectionsOpen(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RateLimitedGateway extends Gateway {
  /** Requests forwarded, and requests answered 429 instead. */
  forwarded: number;
  limited: number;
}

/** Past `perSecond` requests in the last second, answers `status` with `retryAfter` (none when undefined) instead of forwarding. */
export async function rateLimitedGateway(
  upstream: string,
  perSecond: number,
  answer: { status?: number; retryAfter?: string } = { retryAfter: '1' },
): Promise<RateLimitedGateway> {
  const recent: number[] = [];
  const gate = { forwarded: 0, limited: 0 };
  const server = createHttpServer((req, res) => {
    const now = Date.now();
    while (recent.length > 0 && recent[0]! <= now - 1000) recent.shift();
    if (recent.length >= perSecond) {
      gate.limited++;
      req.resume();
      const headers: Record<string, string> = { 'content-type': 'text/plain' };
      if (answer.retryAfter !== undefined) headers['retry-after'] = answer.retryAfter;
      res.writeHead(answer.status ?? 429, headers).end('slow down');
      return;
    }
    recent.push(now);
    gate.forwarded++;
    forward(upstream, req, res);
  });
  const listening = await listen(server);
  return Object.assign(gate, listening);
}

export interface RecordingProxy extends Gateway {
  /** The absolute-form request targets it was asked for. */
  seen: string[];
}

/** A forward proxy (RFC 9110 §7.1: requests in absolute form) that records each request and forwards it. */
export async function recordingProxy(): Promise<RecordingProxy> {
  const seen: string[] = [];
  const server = createHttpServer((req, res) => {
    seen.push(req.url!);
    const target = new URL(req.url!);
    forward(target.origin, Object.assign(req, { url: `${target.pathname}${target.search}` }), res);
  });
  return Object.assign(await listen(server), { seen });
}

/** HTTPS in front of `upstream`, with the given certificate and key. */
export async function tlsTerminator(upstream: string, cert: string, key: string): Promise<Gateway> {
  const server = createHttpsServer({ cert, key }, (req, res) => forward(upstream, req, res));
  return listen(server, 'https');
}
