// Starts the floor server (see floor.ts) as its own process, configured like
// the reference server: PORT, HOST and PLANTSTORE_TOKENS.
import { createFloorServer } from './floor.js';

const tokens = (process.env.PLANTSTORE_TOKENS ?? '').split(',').filter((token) => token !== '');
if (tokens.length === 0) {
  process.stderr.write('floor: set PLANTSTORE_TOKENS\n');
  process.exit(2);
}
const port = Number(process.env.PORT ?? '0');
const host = process.env.HOST ?? '127.0.0.1';
const server = createFloorServer({ tokens });
server.listen(port, host, () => {
  const address = server.address();
  const listening = typeof address === 'object' && address !== null ? address.port : port;
  process.stdout.write(`floor listening at http://${host}:${listening}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
