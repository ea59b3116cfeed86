// What every fuzz run shares: the token and the body limit the fuzzed app is
// configured with, and the seed (FUZZ_SEED replays or varies a run).

/** The bearer token the fuzzed app is configured with. */
export const FUZZ_TOKEN = 'fuzz-token.AZaz09-._~+/==';
/** A small body limit, so 413 is reachable without megabyte bodies. */
export const FUZZ_BODY_LIMIT = 16 * 1024;
/** The seed of every fuzz run; FUZZ_SEED overrides it to replay or vary a run. */
export const FUZZ_SEED = seedFromEnv(process.env.FUZZ_SEED, 20261121);

function seedFromEnv(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got ${JSON.stringify(raw)}`);
  return seed;
}
