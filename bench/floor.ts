// The floor: the least a correct Plant Store must do for a valid create, in
// plain node:http. It checks the bearer token, parses JSON, checks the
// fields, refuses a duplicate id, stores the plant in a Map and answers JSON.
// The benchmark compares the reference server against it: whatever the
// reference spends beyond this is the price of its exactness and checks.
//
// It is a floor, not a server: it cuts corners the contract does not allow.
// JSON.parse loses int64 precision (9007199254740993 reads as
// 9007199254740992), repeated member names are not refused, media types and
// error numbers are not checked in detail. None of that matters for the
// valid, distinct-id creates the benchmark sends.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface FloorOptions {
  /** Accepted bearer tokens. */
  tokens: readonly string[];
  /** Largest request body in bytes. */
  bodyLimit?: number;
}

interface FloorPlant {
  name: string;
  tag?: string;
}

export function createFloorServer(options: FloorOptions): Server {
  const accepted = new Set(options.tokens.map((token) => `Bearer ${token}`));
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  const plants = new Map<number, FloorPlant>();

  return createServer((request, response) => {
    if (request.method !== 'POST' || request.url !== '/plants')
      return answer(response, 404, { error: 40401, message: 'Not found.' });
    const authorization = request.headers.authorization;
    if (authorization === undefined || !accepted.has(authorization)) {
      response.setHeader('www-authenticate', 'Bearer realm="plantstore"');
      return answer(response, 401, { error: 40101, message: 'Unauthorized.' });
    }
    readBody(request, bodyLimit, (body) => {
      if (body === undefined) return answer(response, 413, { error: 41301, message: 'Request body is too large.' });
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        return answer(response, 400, { error: 40001, message: 'Request body is not valid JSON.' });
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalid(response);
      const { id, name, tag } = value as Record<string, unknown>;
      if (!Number.isInteger(id) || typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string'))
        return invalid(response);
      if (plants.has(id as number))
        return answer(response, 400, { error: 40004, message: `A plant with id ${id as number} already exists.` });
      const plant: FloorPlant = tag === undefined ? { name } : { name, tag };
      plants.set(id as number, plant);
      answer(response, 200, plant);
    });
  });
}

function readBody(request: IncomingMessage, limit: number, done: (body: string | undefined) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  request.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) tooLarge = true;
    else chunks.push(chunk);
  });
  request.on('end', () => done(tooLarge ? undefined : Buffer.concat(chunks).toString('utf8')));
}

function invalid(response: ServerResponse): void {
  answer(response, 400, { error: 40003, message: 'Request body is not a valid NewPlant.' });
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}
