// The benchmark's arithmetic: medians, percentiles, per-round ratios and the
// table. Pure functions, so the tests can check them without timing anything.

/** The median of the values; NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The p-th percentile (0 < p <= 100) by the nearest-rank method: the smallest
 * value with at least p % of the values at or below it. `sorted` must be
 * sorted ascending. NaN for none.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

/** One load round against one server. */
export interface RoundResult {
  /** Responses received per second of the round. */
  requestsPerSecond: number;
  /** Responses received in the round. */
  responses: number;
  durationSeconds: number;
  /** Latency percentiles in milliseconds, over every response. */
  p50Ms: number;
  p99Ms: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Responses with a status outside 200-299. */
  non2xx: number;
  /** Responses per status code. */
  statusCounts: Record<string, number>;
  /**
   * CPU time the server process spent per response, in microseconds: a
   * figure that other processes on the machine disturb far less than
   * requests per second. Undefined where there is no /proc.
   */
  serverCpuUsPerRequest?: number;
}

export interface RoundsSummary {
  rounds: RoundResult[];
  median: { requestsPerSecond: number; p50Ms: number; p99Ms: number; serverCpuUsPerRequest: number };
  errors: number;
  non2xx: number;
}

export function summarizeRounds(rounds: readonly RoundResult[]): RoundsSummary {
  return {
    rounds: [...rounds],
    median: {
      requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)),
      p50Ms: median(rounds.map((r) => r.p50Ms)),
      p99Ms: median(rounds.map((r) => r.p99Ms)),
      serverCpuUsPerRequest: median(
        rounds.flatMap((r) => (r.serverCpuUsPerRequest === undefined ? [] : [r.serverCpuUsPerRequest])),
      ),
    },
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

export interface RatioSummary {
  /** numerator / denominator throughput, round by round (round i of one against round i of the other); NaN where a side answered nothing. */
  perRound: number[];
  median: number;
}

/** Throughput ratios of two servers, per round pair, and their median. */
export function throughputRatios(numerator: readonly RoundResult[], denominator: readonly RoundResult[]): RatioSummary {
  if (numerator.length !== denominator.length) throw new Error('ratios need the same number of rounds on both sides');
  // A round in which either server answered nothing has no meaningful ratio (NaN, "n/a").
  const perRound = numerator.map((round, i) => {
    const bottom = denominator[i]!.requestsPerSecond;
    return bottom > 0 && round.requestsPerSecond > 0 ? round.requestsPerSecond / bottom : Number.NaN;
  });
  return { perRound, median: median(perRound.filter((ratio) => !Number.isNaN(ratio))) };
}

/** Renders rows as a plain-text table with aligned columns; the first row is the header. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  const line = (row: readonly string[]) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const [header, ...body] = rows;
  if (header === undefined) return '';
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** A number with a fixed count of decimals, or "n/a". */
export function fixed(value: number | undefined, decimals: number): string {
  return value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(decimals);
}

export function megabytes(bytes: number | undefined): string {
  return bytes === undefined ? 'n/a' : (bytes / (1024 * 1024)).toFixed(1);
}
