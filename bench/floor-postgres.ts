// floor-postgres: the floor's create (floor.ts: bearer token, JSON.parse,
// field checks) with the plant kept in PostgreSQL by the same SQL the
// reference's store sends (server/store/postgres-store.ts: its schema, its
// batched plantstore_create_batch, its caps, its pool), through `pg`, and
// none of the reference's stages. So reference-postgres / floor-postgres is
// the price of the stages over a database, as reference / floor is over
// memory. Configured like the reference: PORT, HOST, PLANTSTORE_TOKENS,
// PLANTSTORE_DATABASE_URL, PLANTSTORE_MAX_PLANTS, PLANTSTORE_MAX_BYTES.
import { createServer, type ServerResponse } from 'node:http';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_PLANTS } from '../server/limits.js';
import { openPostgresStore } from '../server/store/postgres-store.js';

const tokens = (process.env.PLANTSTORE_TOKENS ?? '').split(',').filter((token) => token !== '');
const url = process.env.PLANTSTORE_DATABASE_URL;
if (tokens.length === 0 || url === undefined) {
  process.stderr.write('floor-postgres: set PLANTSTORE_TOKENS and PLANTSTORE_DATABASE_URL\n');
  process.exit(2);
}
const accepted = new Set(tokens.map((token) => `Bearer ${token}`));
const store = await openPostgresStore({
  url,
  maxPlants: Number(process.env.PLANTSTORE_MAX_PLANTS ?? DEFAULT_MAX_PLANTS),
  maxBytes: Number(process.env.PLANTSTORE_MAX_BYTES ?? DEFAULT_MAX_BYTES),
});

function answer(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

const server = createServer((request, response) => {
  if (request.method !== 'POST' || request.url !== '/plants')
    return answer(response, 404, '{"error":40401,"message":"Not found."}');
  if (!accepted.has(request.headers.authorization ?? '')) {
    response.setHeader('www-authenticate', 'Bearer realm="plantstore"');
    return answer(response, 401, '{"error":40101,"message":"Unauthorized."}');
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    let value: unknown;
    try {
      value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return answer(response, 400, '{"error":40001,"message":"Request body is not valid JSON."}');
    }
    const { id, name, tag } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    if (!Number.isInteger(id) || typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string'))
      return answer(response, 400, '{"error":40003,"message":"Request body is not a valid NewPlant."}');
    const plant = JSON.stringify(tag === undefined ? { name } : { name, tag });
    Promise.resolve(store.create(String(id), plant)).then(
      (result) => {
        if (result === 'created') answer(response, 200, plant);
        else if (result === 'exists')
          answer(response, 400, `{"error":40004,"message":"A plant with id ${id as number} already exists."}`);
        else answer(response, 507, '{"error":50701,"message":"The store is full."}');
      },
      () => answer(response, 503, '{"error":50301,"message":"The database does not answer."}'),
    );
  });
});
const host = process.env.HOST ?? '127.0.0.1';
server.listen(Number(process.env.PORT ?? '0'), host, () =>
  process.stdout.write(`floor-postgres listening at ${host}\n`),
);
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.on(signal, () => server.close(() => void Promise.resolve(store.close()).finally(() => process.exit(0))));
