// The floor: the least a correct Plant Store must do for each operation of
// the starter document (and the read its item operations add), in plain
// node:http: the create (bearer token, JSON, field checks, duplicate id
// refused, the plant stored in a Map, JSON answer), the read of one plant by
// its id, a page of the list (`?limit=`, oldest first) and the delete by id.
// The benchmark compares the reference server against it: whatever the
// reference spends beyond this is the price of its exactness and checks.
//
// It keeps the reference's bounds where they shape the work: a path id is an
// int64 (19 digits at most, in its range), a `limit` an int32, a page at most
// 1,000 plants when no limit asks for fewer and 10,000 whatever it asks. It
// stores each plant as the text of its create's answer, which the read and
// the list send as they are, as the reference does.
//
// It is a floor, not a server: it cuts corners the contract does not allow.
// JSON.parse loses int64 precision in a body (9007199254740993 reads as
// 9007199254740992), repeated member names are not refused, media types and
// error numbers are not checked in detail. None of that matters for the
// valid requests the benchmark sends.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface FloorOptions {
  /** Accepted bearer tokens. */
  tokens: readonly string[];
  /** Largest request body in bytes. */
  bodyLimit?: number;
}

/** A page's size when no `limit` asks for fewer, and its bound whatever it asks (docs/server.md, the list). */
export const FLOOR_DEFAULT_PAGE = 1_000;
export const FLOOR_MAX_PAGE = 10_000;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INT32_MAX = 2 ** 31 - 1;

export function createFloorServer(options: FloorOptions): Server {
  const accepted = new Set(options.tokens.map((token) => `Bearer ${token}`));
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  // Each plant as the JSON text its create answered, by its id.
  const plants = new Map<number, string>();

  return createServer((request, response) => {
    const url = request.url ?? '/';
    const method = request.method;
    const item = url.startsWith('/plants/') ? itemId(url.slice('/plants/'.length)) : undefined;
    const collection = url === '/plants' || url.startsWith('/plants?');
    if (!collection && item === undefined) return answer(response, 404, { error: 40401, message: 'Not found.' });
    if (collection ? method !== 'POST' && method !== 'GET' : method !== 'GET' && method !== 'DELETE')
      return answer(response, 405, { error: 40501, message: 'Method not allowed.' });
    const authorization = request.headers.authorization;
    if (authorization === undefined || !accepted.has(authorization)) {
      response.setHeader('www-authenticate', 'Bearer realm="plantstore"');
      return answer(response, 401, { error: 40101, message: 'Unauthorized.' });
    }
    if (item !== undefined) {
      if (item === null) return answer(response, 400, { error: 40007, message: 'Path parameter id is not an int64.' });
      const stored = plants.get(item);
      if (stored === undefined) return answer(response, 404, { error: 40402, message: `No plant has the id ${item}.` });
      if (method === 'GET') return answerText(response, 200, stored);
      plants.delete(item);
      response.writeHead(204);
      return response.end();
    }
    if (method === 'GET') {
      const limit = limitOf(url);
      if (limit === null)
        return answer(response, 400, { error: 40007, message: 'Query parameter limit is not an int32.' });
      const page: string[] = [];
      const size = Math.min(limit, FLOOR_MAX_PAGE);
      if (size > 0)
        for (const plant of plants.values()) {
          page.push(plant);
          if (page.length === size) break;
        }
      return answerText(response, 200, `[${page.join(',')}]`);
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
      const plant = JSON.stringify(tag === undefined ? { name } : { name, tag });
      plants.set(id as number, plant);
      answerText(response, 200, plant);
    });
  });
}

/** The id of an item path's segment: an int64 exactly, else null (400); undefined when the path goes deeper (404). */
function itemId(segment: string): number | null | undefined {
  if (segment === '' || segment.includes('/')) return undefined;
  if (!/^-?\d{1,19}$/.test(segment)) return null;
  if (segment.length >= 19) {
    const exact = BigInt(segment);
    if (exact < INT64_MIN || exact > INT64_MAX) return null;
  }
  return Number(segment);
}

/** The list's `limit` (an int32, FLOOR_DEFAULT_PAGE when absent), else null (400). */
function limitOf(url: string): number | null {
  const query = url.indexOf('?');
  if (query === -1) return FLOOR_DEFAULT_PAGE;
  const given = new URLSearchParams(url.slice(query + 1)).getAll('limit');
  if (given.length === 0) return FLOOR_DEFAULT_PAGE;
  if (given.length > 1 || !/^-?\d{1,10}$/.test(given[0]!)) return null;
  const limit = Number(given[0]);
  return limit > INT32_MAX || limit < -INT32_MAX - 1 ? null : limit;
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
  answerText(response, status, JSON.stringify(body));
}

function answerText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}
