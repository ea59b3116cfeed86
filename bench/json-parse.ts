// How far the server's exact JSON parser (server/json.ts) is from JSON.parse,
// which is not exact (ids beyond 2^53 lose digits, repeated member names are
// merged) but is native: on the body the load benchmark sends, and on longer
// names. Nanoseconds per parse. `npm run build && node dist/bench/json-parse.js`.
//
// It measured whether a fast path (a scan deciding that JSON.parse is exact
// for this text, then JSON.parse) could pay: it cannot beat a parser that is
// already about as fast as JSON.parse plus the scan (docs/benchmarks.md).
import { parseJson } from '../server/json.js';

function nsPerCall(parse: (text: string) => unknown, texts: string[], rounds: number): number {
  let sink = 0;
  const started = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) for (const text of texts) sink += parse(text) === null ? 1 : 0;
  const elapsed = Number(process.hrtime.bigint() - started);
  if (sink < 0) process.stdout.write('');
  return elapsed / (rounds * texts.length);
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
  process.stdout.write(`${label.padEnd(31)}${median(native).toFixed(0).padStart(13)}${median(exact).toFixed(0).padStart(14)}${(median(exact) / median(native)).toFixed(2).padStart(7)}\n`);
}
