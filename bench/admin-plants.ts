// What reading the stored plants costs (GET /__admin/plants): a store filled
// to a byte budget with names of control characters (each written \u0001 in
// the stored text), then every page read in turn. Prints the pages, the
// largest answer in bytes, and the longest time one answer took to make
// (the event loop is blocked for it: the stores answer at once).
//
//   npm run build && node dist/bench/admin-plants.js [--max-bytes N] [--name-length N] [--before DIST]
//
// `--before DIST` also measures another build (the dist/ folder of another
// checkout), whose answer may be the whole store at once.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildApp } from '../server/app.js';
import type { Response as LightMyRequestResponse } from 'light-my-request';

const { values } = parseArgs({
  options: {
    'max-bytes': { type: 'string', default: String(32 * 1024 * 1024) },
    'name-length': { type: 'string', default: '10000' },
    before: { type: 'string' },
  },
});
const maxBytes = Number(values['max-bytes']);
const name = '\u0001'.repeat(Number(values['name-length']));

interface Reading {
  plants: number;
  pages: number;
  largestBytes: number;
  totalBytes: number;
  longestMs: number;
}

async function measure(build: typeof buildApp): Promise<Reading> {
  const app = build({ tokens: ['t'], maxBytes, stub: {} });
  let plants = 0;
  for (;;) {
    const res = await app.inject({
      method: 'POST',
      url: '/plants',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      payload: `{"id":${plants + 1},"name":${JSON.stringify(name)}}`,
    });
    if (res.statusCode !== 200) break;
    plants++;
  }
  const reading: Reading = { plants, pages: 0, largestBytes: 0, totalBytes: 0, longestMs: 0 };
  let after: number | null = 0;
  while (after !== null) {
    const started = process.hrtime.bigint();
    const res: LightMyRequestResponse = await app.inject({ method: 'GET', url: `/__admin/plants?after=${after}` });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (res.statusCode !== 200)
      throw new Error(`GET /__admin/plants answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
    const page = res.json<{ plants: unknown[]; next?: number | null }>();
    reading.pages++;
    reading.largestBytes = Math.max(reading.largestBytes, res.rawPayload.length);
    reading.totalBytes += res.rawPayload.length;
    reading.longestMs = Math.max(reading.longestMs, ms);
    // A build without pages answers every plant at once, with no `next`.
    after = page.next ?? null;
  }
  await app.close();
  return reading;
}

const builds: Array<[string, typeof buildApp]> = [['this build', buildApp]];
if (values.before !== undefined)
  builds.push([
    'before',
    ((await import(pathToFileURL(join(values.before, 'server/app.js')).href)) as { buildApp: typeof buildApp })
      .buildApp,
  ]);
process.stdout.write(`store: PLANTSTORE_MAX_BYTES=${maxBytes}, names of ${name.length} control characters\n`);
process.stdout.write('build          plants  pages  largest answer  all answers  longest answer to make\n');
for (const [label, build] of builds) {
  const r = await measure(build);
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  process.stdout.write(
    `${label.padEnd(13)}${String(r.plants).padStart(7)}${String(r.pages).padStart(7)}${mb(r.largestBytes).padStart(16)}${mb(r.totalBytes).padStart(13)}${`${r.longestMs.toFixed(0)} ms`.padStart(24)}\n`,
  );
}
