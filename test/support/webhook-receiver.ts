// A webhook receiver for the tests: an HTTP server on loopback that records
// what it receives and answers each request with the next status of its
// script (then 200). Tests wait for what it receives (until), never for time.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** What the test's `inspect` found when the request arrived, before it was answered. */
  seen: unknown;
}

export interface ReceiverOptions {
  /** The statuses of the first answers, in order; every later one is 200. */
  statuses?: number[];
  /** The body of every answer (which the server must never show anyone). */
  answerBody?: string;
  /** Called with each request before it is answered; what it resolves to is kept as `seen`. */
  inspect?: (received: Omit<ReceivedWebhook, 'seen'>) => unknown;
  /** Holds every answer until release() (a receiver that does not answer). */
  hold?: boolean;
}

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  /** Resolves once `count` requests have arrived in all; rejects after `timeoutMs` (a failure, naming what did arrive). */
  until(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  /** Answers the held requests (200), and those to come. */
  release(): void;
  close(): Promise<void>;
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const statuses = [...(options.statuses ?? [])];
  const received: ReceivedWebhook[] = [];
  const waiters: Array<() => void> = [];
  const held: Array<() => void> = [];
  const sockets = new Set<Socket>();
  let holding = options.hold ?? false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => void answer());
    const answer = async () => {
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const seen = await options.inspect?.(request);
      received.push({ ...request, seen });
      for (const wake of waiters.splice(0)) wake();
      const reply = () =>
        res.writeHead(statuses.shift() ?? 200, { 'content-type': 'text/plain' }).end(options.answerBody ?? 'ok');
      if (holding) held.push(reply);
      else reply();
    };
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/plants`,
    received,
    async until(count, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(
            `the receiver got ${received.length} requests, not ${count}: ${JSON.stringify(received.map((r) => r.body))}`,
          );
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          timer = setTimeout(resolve, left);
        });
        clearTimeout(timer);
      }
      return received.slice(0, count);
    },
    release() {
      holding = false;
      for (const answer of held.splice(0)) answer();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
