// One load round with autocannon: POST /plants with a bearer token and a new
// integer id on every request, as a real client creating distinct plants
// would (repeated ids would only measure the duplicate path); or, for the
// read and the list of a document that declares them, GET /plants/{id} of
// the stored plants in turn, and GET /plants?limit=20.
import autocannon, { type AutocannonRequest } from 'autocannon';
import { cpuSeconds } from '../lib/process.js';
import { percentile, type RoundResult } from './stats.js';

export interface LoadOptions {
  url: string;
  token: string;
  connections: number;
  /** Seconds; the round stops after this long... */
  durationSeconds?: number;
  /** ...or after this many requests, when given instead. */
  amount?: number;
  /** The id of the next request; called once per request. */
  nextId: () => number;
  /** The server's process id, to measure its CPU time per request. */
  serverPid?: number;
  /** What each request does: a create (default), a read of one of the `stored` plants (ids 1 to stored), a page of the list, a delete of the id nextId gives. */
  request?: LoadRequest;
  /** The list's `limit` (default 20). */
  pageSize?: number;
  /** Plants stored with ids 1 to this, for the reads. */
  stored?: number;
}

export type LoadRequest = 'create' | 'read' | 'list' | 'delete';

export function runLoad(options: LoadOptions): Promise<RoundResult> {
  const authorization = `Bearer ${options.token}`;
  const stored = Math.max(1, options.stored ?? 1);
  const request: AutocannonRequest =
    options.request === 'read'
      ? {
          method: 'GET',
          path: '/plants/1',
          headers: { authorization },
          setupRequest(req) {
            req.path = `/plants/${(options.nextId() % stored) + 1}`;
            return req;
          },
        }
      : options.request === 'list'
        ? { method: 'GET', path: `/plants?limit=${options.pageSize ?? 20}`, headers: { authorization } }
        : options.request === 'delete'
          ? {
              method: 'DELETE',
              path: '/plants/1',
              headers: { authorization },
              setupRequest(req) {
                req.path = `/plants/${options.nextId()}`;
                return req;
              },
            }
          : {
              method: 'POST',
              path: '/plants',
              headers: { authorization, 'content-type': 'application/json' },
              setupRequest(req) {
                req.body = `{"id":${options.nextId()},"name":"Monstera","tag":"tropical"}`;
                return req;
              },
            };
  // Our own latency record: autocannon's histogram keeps whole milliseconds,
  // too coarse for a p99 target of a few milliseconds; its response event
  // gives each latency with sub-millisecond resolution (from hrtime).
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  let lastAnswer = started;
  const cpuBefore = cpuSeconds(options.serverPid);
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        pipelining: 1,
        ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.durationSeconds ?? 5 }),
        timeout: 10,
        requests: [request],
      },
      (error, result) => {
        if (error) return reject(error);
        // Up to the last answer: a round of a fixed amount ends on autocannon's
        // next one-second tick, which would round every such round up to whole seconds.
        const elapsedSeconds =
          Number((options.amount !== undefined ? lastAnswer : process.hrtime.bigint()) - started) / 1e9;
        const cpuAfter = cpuSeconds(options.serverPid);
        const serverCpuUsPerRequest =
          cpuBefore !== undefined && cpuAfter !== undefined && latencies.length > 0
            ? ((cpuAfter - cpuBefore) * 1e6) / latencies.length
            : undefined;
        const sorted = Float64Array.from(latencies).sort();
        const statusCounts: Record<string, number> = {};
        for (const [status, { count }] of Object.entries(result.statusCodeStats)) statusCounts[status] = Number(count);
        resolve({
          requestsPerSecond: latencies.length / elapsedSeconds,
          responses: latencies.length,
          durationSeconds: elapsedSeconds,
          p50Ms: percentile(sorted, 50),
          p99Ms: percentile(sorted, 99),
          errors: result.errors,
          non2xx: result.non2xx,
          statusCounts,
          ...(serverCpuUsPerRequest !== undefined ? { serverCpuUsPerRequest } : {}),
        });
      },
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
      lastAnswer = process.hrtime.bigint();
      latencies.push(responseTime);
    });
  });
}
