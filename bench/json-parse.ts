// How far the server's exact JSON parser (server/json.ts) is from JSON.parse,
// which is not exact (ids beyond 2^53 lose digits, repeated member names are
// merged) but is native. `npm run build && node dist/bench/json-parse.js`.
//
// 1. Nanoseconds per parse on the body the load benchmark sends, and on
//    longer names. It measured whether a fast path (a scan deciding that
//    JSON.parse is exact for this text, then JSON.parse) could pay: it cannot
//    beat a parser that is already about as fast as JSON.parse plus the scan
//    (docs/benchmarks.md).
// 2. CPU time for 1 MiB bodies whose name is made of escapes (issue 24: one
//    of 524,288 `\n` escapes once cost hundreds of milliseconds), against
//    JSON.parse of the same text and against a plain 1 MiB name, measured in
//    the same run; then the CPU budget, met or not:
//    ESCAPE_BUDGET x JSON.parse of the same text.
//
// 3. CPU time of a whole create (app.inject) with the escape-heavy body,
//    against one with the plain 1 MiB body.
//
// `--before DIST` also measures another build (the dist/ folder of another
// checkout: its server/json/json.js, or server/json.js in a build from before
// the server's folders, and server/app.js) in the same run, for before/after
// figures.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../server/app.js';
import { parseJson } from '../server/json/json.js';

type Parse = (text: string) => unknown;

/** The CPU budget of an escape-heavy body: parseJson within this many times JSON.parse of the same text. */
const ESCAPE_BUDGET = 4;

const { values } = parseArgs({ options: { before: { type: 'string' } } });
const fromBefore = async <T>(file: string): Promise<T | undefined> =>
  values.before === undefined ? undefined : ((await import(pathToFileURL(join(values.before, file)).href)) as T);
const beforeJson =
  values.before !== undefined && !existsSync(join(values.before, 'server/json/json.js'))
    ? 'server/json.js'
    : 'server/json/json.js';
const before = (await fromBefore<{ parseJson: Parse }>(beforeJson))?.parseJson;
const beforeApp = (await fromBefore<{ buildApp: typeof buildApp }>('server/app.js'))?.buildApp;

function nsPerCall(parse: Parse, texts: string[], rounds: number): number {
  let sink = 0;
  const started = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) for (const text of texts) sink += parse(text) === null ? 1 : 0;
  const elapsed = Number(process.hrtime.bigint() - started);
  if (sink < 0) process.stdout.write('');
  return elapsed / (rounds * texts.length);
}

/** CPU time (user + system) of one parse, in milliseconds; the value is used (its name's first character), so a rope is flattened as a server would. */
function cpuMsOfParse(parse: Parse, text: string): number {
  const started = process.cpuUsage();
  const value = parse(text) as { name: string };
  if (value.name.charCodeAt(0) < 0) process.stdout.write('');
  const { user, system } = process.cpuUsage(started);
  return (user + system) / 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

process.stdout.write('body                           JSON.parse ns  parseJson ns  ratio\n');
for (const nameLength of [8, 100, 1000, 10_000]) {
  const name = 'Monstera '.repeat(Math.ceil(nameLength / 9)).slice(0, nameLength);
  const texts = Array.from({ length: 200 }, (_, i) => `{"id":${1_000_000 + i},"name":"${name}","tag":"tropical"}`);
  const rounds = Math.max(5, Math.floor(200_000 / (texts.length * (nameLength + 40))));
  // Warm both up, then alternate, so neither runs on a colder JIT.
  nsPerCall(JSON.parse, texts, rounds);
  nsPerCall(parseJson, texts, rounds);
  const native: number[] = [];
  const exact: number[] = [];
  for (let i = 0; i < 5; i++) {
    native.push(nsPerCall(JSON.parse, texts, rounds));
    exact.push(nsPerCall(parseJson, texts, rounds));
  }
  const label = `a plant, ${nameLength}-character name`;
  process.stdout.write(
    `${label.padEnd(31)}${median(native).toFixed(0).padStart(13)}${median(exact).toFixed(0).padStart(14)}${(median(exact) / median(native)).toFixed(2).padStart(7)}\n`,
  );
}

/** 1 MiB bodies: `{"id":1,"name":"…"}` with a name of escapes, or plain. */
const MIB = 1024 * 1024;
const body = (unit: string) => {
  const frame = '{"id":1,"name":""}'.length;
  return `{"id":1,"name":"${unit.repeat(Math.floor((MIB - frame) / unit.length))}"}`;
};
const bodies: Array<[string, string]> = [
  ['plain: 1 MiB of "a"', body('a')],
  ['524,279 \\n escapes', body('\\n')],
  ['174,759 \\u0001 escapes', body('\\u0001')],
  ['\\n after each "a"', body('a\\n')],
  ['\\ud83c\\udf35 pairs', body('\\ud83c\\udf35')],
];
const parsers: Array<[string, Parse]> = [
  ['JSON.parse', JSON.parse],
  ['parseJson', parseJson],
  ...(before ? [['before', before] as [string, Parse]] : []),
];
const ROUNDS = 9;
process.stdout.write(
  `\n1 MiB body (CPU ms, median of ${ROUNDS})     ${parsers.map(([name]) => name.padStart(11)).join('')}   parseJson / JSON.parse${before ? '   before / JSON.parse' : ''}\n`,
);
let plainParse = Number.NaN;
let worst = 0;
for (const [label, text] of bodies) {
  const runs = parsers.map(() => [] as number[]);
  cpuMsOfParse(JSON.parse, text);
  cpuMsOfParse(parseJson, text);
  // Alternating, so neither runs on a colder JIT or a fuller heap.
  for (let r = 0; r < ROUNDS; r++) parsers.forEach(([, parse], i) => runs[i]!.push(cpuMsOfParse(parse, text)));
  const ms = runs.map(median);
  const ratio = ms[1]! / ms[0]!;
  if (label.startsWith('plain')) plainParse = ms[1]!;
  else worst = Math.max(worst, ratio);
  process.stdout.write(
    `${label.padEnd(38)}${ms.map((m) => m.toFixed(2).padStart(11)).join('')}${ratio.toFixed(2).padStart(25)}${before ? (ms[2]! / ms[0]!).toFixed(2).padStart(23) : ''}\n`,
  );
}
process.stdout.write(
  `\nbudget: an escape-heavy 1 MiB body within ${ESCAPE_BUDGET}x JSON.parse of the same text: worst ${worst.toFixed(2)}x, ${worst <= ESCAPE_BUDGET ? 'met' : 'NOT met'}` +
    ` (parseJson of the plain 1 MiB body: ${plainParse.toFixed(2)} ms)\n`,
);

/** CPU ms of creates through app.inject, one per body, median of ROUNDS: the whole request (parsing, validation, the stored text). */
async function cpuMsOfCreates(build: typeof buildApp, texts: string[]): Promise<number[]> {
  const app = build({ tokens: ['t'], maxBytes: 2 ** 40, bodyLimit: 2 * MIB });
  let id = 0;
  const runs = texts.map(() => [] as number[]);
  for (let r = 0; r < ROUNDS + 1; r++) {
    for (const [i, text] of texts.entries()) {
      const payload = text.replace('"id":1,', `"id":${++id},`);
      const started = process.cpuUsage();
      const response = await app.inject({
        method: 'POST',
        url: '/plants',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        payload,
      });
      const { user, system } = process.cpuUsage(started);
      if (response.statusCode !== 200)
        throw new Error(`create answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
      if (r > 0) runs[i]!.push((user + system) / 1000); // the first round warms up
    }
  }
  await app.close();
  return runs.map(median);
}

const creates = [bodies[0]!, bodies[1]!];
const builds: Array<[string, typeof buildApp]> = [
  ['this build', buildApp],
  ...(beforeApp ? [['before', beforeApp] as [string, typeof buildApp]] : []),
];
process.stdout.write(
  `\na whole create (app.inject, CPU ms, median of ${ROUNDS})  ${creates.map(([label]) => label.padStart(24)).join('')}   ratio\n`,
);
for (const [name, build] of builds) {
  const [plain, escaped] = await cpuMsOfCreates(
    build,
    creates.map(([, text]) => text),
  );
  process.stdout.write(
    `${name.padEnd(44)}${plain!.toFixed(2).padStart(24)}${escaped!.toFixed(2).padStart(24)}${(escaped! / plain!).toFixed(2).padStart(8)}\n`,
  );
}
