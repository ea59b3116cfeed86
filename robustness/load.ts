// Drives creates at a server with keep-alive connections, for the fault
// tests and the soak script: each request's outcome is kept.
import { Pool } from 'undici';

export interface Outcome {
  id: string;
  /** HTTP status, or undefined when the request got no answer (connection refused or closed). */
  status?: number;
  body?: string;
  /** The transport error's code when there was no answer. */
  failure?: string;
}

/** POST /plants with `{"id":id,"name":...}`; never throws. */
export async function create(pool: Pool, token: string, id: string, name = `plant ${id}`): Promise<Outcome> {
  try {
    const response = await pool.request({
      method: 'POST',
      path: '/plants',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: `{"id":${id},"name":${JSON.stringify(name)}}`,
    });
    return { id, status: response.statusCode, body: await response.body.text() };
  } catch (error) {
    const { code, cause } = error as { code?: string; cause?: { code?: string } };
    return { id, failure: code ?? cause?.code ?? String(error) };
  }
}

/**
 * Runs `workers` loops, each sending creates back to back with the ids
 * `next()` hands out, until `stop()` says so or `limit` requests were sent.
 */
export async function driveCreates(options: {
  pool: Pool;
  token: string;
  workers: number;
  next: () => string;
  stop: () => boolean;
  limit: number;
  onOutcome?: (o: Outcome) => void;
}): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let sent = 0;
  const worker = async (): Promise<void> => {
    while (!options.stop() && sent < options.limit) {
      sent++;
      const outcome = await create(options.pool, options.token, options.next());
      outcomes.push(outcome);
      options.onOutcome?.(outcome);
      // A refused connection means the server is gone: stop this worker.
      if (outcome.failure === 'ECONNREFUSED') return;
    }
  };
  await Promise.all(Array.from({ length: options.workers }, worker));
  return outcomes;
}
