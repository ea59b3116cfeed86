// fastify-bare: the floor's work (floor.ts) done by Fastify 5 with its logger
// off and its own JSON parser: what the framework itself costs, so that the
// reference server's distance from the floor can be split into Fastify's
// share and ours. Configured like the others: PORT, HOST, PLANTSTORE_TOKENS.
import Fastify from 'fastify';

const tokens = (process.env.PLANTSTORE_TOKENS ?? '').split(',').filter((token) => token !== '');
if (tokens.length === 0) {
  process.stderr.write('fastify-bare: set PLANTSTORE_TOKENS\n');
  process.exit(2);
}
const accepted = new Set(tokens.map((token) => `Bearer ${token}`));
const plants = new Map<number, { name: string; tag?: string }>();
const app = Fastify({ logger: false });

app.post('/plants', (request, reply) => {
  if (!accepted.has(request.headers.authorization ?? '')) {
    return reply
      .code(401)
      .header('www-authenticate', 'Bearer realm="plantstore"')
      .send({ error: 40101, message: 'Unauthorized.' });
  }
  const { id, name, tag } = (request.body ?? {}) as Record<string, unknown>;
  if (!Number.isInteger(id) || typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string')) {
    return reply.code(400).send({ error: 40003, message: 'Request body is not a valid NewPlant.' });
  }
  if (plants.has(id as number))
    return reply.code(400).send({ error: 40004, message: `A plant with id ${id as number} already exists.` });
  const plant = tag === undefined ? { name } : { name, tag };
  plants.set(id as number, plant);
  return reply.send(plant);
});

const host = process.env.HOST ?? '127.0.0.1';
app.listen({ port: Number(process.env.PORT ?? '0'), host }).then(
  (address) => process.stdout.write(`fastify-bare listening at ${address}\n`),
  (error: unknown) => {
    process.stderr.write(`fastify-bare: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.on(signal, () => void app.close().then(() => process.exit(0)));
