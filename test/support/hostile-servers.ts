// Small servers on 127.0.0.1 that misbehave at the transport level, for the
// harness's robustness tests. Each one is bounded: close() destroys every
// socket it accepted, and every loop (drip, endless body) stops by itself
// when its socket closes or after a fixed budget, whichever comes first.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { freePort } from '../../lib/process.js';

export interface HostileServer {
  url: string;
  port: number;
  /** Connections this server accepted. */
  connections(): number;
  /**
   * Requests that reached it: HTTP requests read, or, for the servers that
   * do not parse HTTP, connections on which the peer sent bytes (undici may
   * open an idle connection after an aborted exchange; that is no request).
   */
  requests(): number;
  close(): Promise<void>;
}

/** Budgets that end the endless loops even if the peer never goes away. */
const DRIP_MAX_BYTES = 4096;
const ENDLESS_MAX_BYTES = 256 * 1024 * 1024;
const ENDLESS_MAX_MS = 30_000;

async function listen(
  server: Server,
  onSocket?: (s: Socket) => void,
): Promise<{ port: number; sockets: Set<Socket>; count: () => number; spoken: () => number }> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  let spoken = 0;
  server.on('connection', (s: Socket) => {
    accepted++;
    sockets.add(s);
    if (onSocket) s.once('data', () => spoken++);
    s.on('close', () => sockets.delete(s));
    // A peer that resets is normal here: the harness aborts on purpose.
    s.on('error', () => {});
    onSocket?.(s);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, sockets, count: () => accepted, spoken: () => spoken };
}

function closer(server: Server, sockets: Set<Socket>, stop: () => void = () => {}): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      stop();
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

function hostile(
  server: Server,
  port: number,
  sockets: Set<Socket>,
  count: () => number,
  requests: () => number,
  stop?: () => void,
): HostileServer {
  return { url: `http://127.0.0.1:${port}`, port, connections: count, requests, close: closer(server, sockets, stop) };
}

/** A loopback port nothing listens on: bound a moment ago, then closed. */
export function refusedPort(): Promise<number> {
  return freePort();
}

/** Accepts connections and never writes a byte. */
export async function blackHole(): Promise<HostileServer> {
  const server = createNetServer();
  const { port, sockets, count, spoken } = await listen(server, (s) => s.resume());
  return hostile(server, port, sockets, count, spoken);
}

/** Accepts, then destroys the connection at once. */
export async function immediateClose(): Promise<HostileServer> {
  const server = createNetServer();
  const { port, sockets, count, spoken } = await listen(server, (s) => s.destroy());
  return hostile(server, port, sockets, count, spoken);
}

/** Answers bytes that are not HTTP (an SSH banner), then keeps the connection open or closes it. */
export async function notHttp(then: 'keep-open' | 'close'): Promise<HostileServer> {
  const server = createNetServer();
  const { port, sockets, count, spoken } = await listen(server, (s) => {
    s.resume();
    if (then === 'close') s.end('SSH-2.0-OpenSSH_9.6\r\n');
    else s.write('SSH-2.0-OpenSSH_9.6\r\n');
  });
  return hostile(server, port, sockets, count, spoken);
}

const VALID_RESPONSE_HEAD =
  'HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json; charset=utf-8\r\nwww-authenticate: Bearer realm="plantstore"\r\n';
const VALID_BODY = '{"error":40101,"message":"Missing credentials."}';

/**
 * Drips an answer one byte every `intervalMs` that can never be complete:
 * the bytes keep coming, so only a deadline on the whole exchange (not an
 * idle timeout) ends it, however slow the machine. `from: 'start'` drips a
 * status line and then header lines without the blank line that would end
 * them; `from: 'body'` sends a whole head at once, with a Content-Length one
 * byte longer than what it will ever drip of the body. After DRIP_MAX_BYTES
 * it stops writing and holds the connection open.
 */
export async function slowDrip(intervalMs: number, from: 'start' | 'body' = 'start'): Promise<HostileServer> {
  const timers = new Set<NodeJS.Timeout>();
  const server = createNetServer();
  const { port, sockets, count, spoken } = await listen(server, (s) => {
    s.resume();
    let pending: Buffer;
    if (from === 'start') {
      pending = Buffer.from(`${VALID_RESPONSE_HEAD}x-drip: ${'a'.repeat(DRIP_MAX_BYTES)}`);
    } else {
      s.write(`${VALID_RESPONSE_HEAD}content-length: ${DRIP_MAX_BYTES + 1}\r\n\r\n`);
      pending = Buffer.from(VALID_BODY.padEnd(DRIP_MAX_BYTES, ' '));
    }
    pending = pending.subarray(0, DRIP_MAX_BYTES);
    const timer = setInterval(() => {
      if (pending.length === 0 || s.destroyed) {
        clearInterval(timer);
        timers.delete(timer);
        return;
      }
      s.write(pending.subarray(0, 1));
      pending = pending.subarray(1);
    }, intervalMs);
    timers.add(timer);
    s.on('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  });
  return hostile(server, port, sockets, count, spoken, () => {
    for (const t of timers) clearInterval(t);
    timers.clear();
  });
}

/**
 * Valid headers, then a body that does not end: chunked without a last
 * chunk, or under a Content-Length far beyond any cap. Writes follow the
 * socket's backpressure and stop when it closes, or after the byte and time
 * budgets.
 */
export async function endlessBody(framing: 'chunked' | 'content-length'): Promise<HostileServer> {
  let requests = 0;
  const stops = new Set<() => void>();
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    requests++;
    req.resume();
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (framing === 'content-length') headers['content-length'] = String(2 ** 40);
    res.writeHead(200, headers);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const started = Date.now();
    let sent = 0;
    let stopped = false;
    const stop = () => {
      stopped = true;
      stops.delete(stop);
    };
    stops.add(stop);
    res.on('close', stop);
    const pump = () => {
      while (!stopped) {
        if (sent >= ENDLESS_MAX_BYTES || Date.now() - started > ENDLESS_MAX_MS) {
          stop();
          res.destroy();
          return;
        }
        sent += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
  const { port, sockets, count } = await listen(server);
  return hostile(
    server,
    port,
    sockets,
    count,
    () => requests,
    () => {
      for (const s of [...stops]) s();
    },
  );
}

/** A status line, then header lines that never end, written as fast as the peer reads them (within the budgets). */
export async function endlessHeaders(): Promise<HostileServer> {
  const server = createNetServer();
  const { port, sockets, count, spoken } = await listen(server, (s) => {
    s.resume();
    s.write('HTTP/1.1 200 OK\r\n');
    const started = Date.now();
    let sent = 0;
    const pump = () => {
      while (!s.destroyed) {
        if (sent >= ENDLESS_MAX_BYTES || Date.now() - started > ENDLESS_MAX_MS) return void s.destroy();
        const line = `x-filler-${sent}: ${'a'.repeat(1000)}\r\n`;
        sent += line.length;
        if (!s.write(line)) return void s.once('drain', pump);
      }
    };
    pump();
  });
  return hostile(server, port, sockets, count, spoken);
}

/** Answers every request with a plain HTTP server: `status` and `Location`. */
export async function redirecting(status: 301 | 302 | 303 | 307 | 308, location: string): Promise<HostileServer> {
  let requests = 0;
  const server = createHttpServer((req, res) => {
    requests++;
    req.resume();
    res.writeHead(status, { location, 'content-type': 'text/plain' });
    res.end(`see ${location}\n`);
  });
  const { port, sockets, count } = await listen(server);
  return hostile(server, port, sockets, count, () => requests);
}

/** Records whether anyone contacted it: the redirect's destination, which the harness must never reach. */
export async function recorder(): Promise<HostileServer> {
  let requests = 0;
  const server = createHttpServer((req, res) => {
    requests++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"name":"followed a redirect"}');
  });
  const { port, sockets, count } = await listen(server);
  return hostile(server, port, sockets, count, () => requests);
}

/**
 * A Plant Store stand-in that answers its first `answered` requests (401
 * without credentials, as the preflight expects; 200 with a plant with them,
 * as the diagnosis's valid create does) and then closes every connection it
 * is sent a request on, unanswered: a target that dies in the middle of a
 * run. It drops rather than hangs so that the outcome does not depend on a
 * deadline: a loaded machine answers the first requests late, never wrongly.
 */
export async function goesDark(answered: number): Promise<HostileServer> {
  let requests = 0;
  const server = createHttpServer((req, res) => {
    requests++;
    req.resume();
    if (requests > answered) return void req.socket.destroy();
    if (req.headers.authorization !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      return void res.end('{"name":"Fern"}');
    }
    res.writeHead(401, {
      'content-type': 'application/json; charset=utf-8',
      'www-authenticate': 'Bearer realm="plantstore"',
    });
    res.end(VALID_BODY);
  });
  const { port, sockets, count } = await listen(server);
  return hostile(server, port, sockets, count, () => requests);
}
