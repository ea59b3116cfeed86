// The benchmark's report: the JSON written to reports/bench.json and the
// tables printed to stdout. Pure: it only arranges measured numbers.
import { cpus, totalmem } from 'node:os';
import type { HarnessResult } from './harness.js';
import {
  fixed,
  formatTable,
  median,
  megabytes,
  summarizeRounds,
  throughputRatios,
  type RatioSummary,
  type RoundResult,
  type RoundsSummary,
} from './stats.js';

export interface Settings {
  quick: boolean;
  rounds: number;
  roundSeconds: number;
  warmupSeconds: number;
  connections: number;
  startupRuns: number;
  plantsForMemory: number;
  /** The delete's rounds are counted in deletes, each of a stored plant, so the plants to store first are known. */
  deletesPerRound: number;
}

export interface MemoryFigures {
  /** RSS shortly after start (one plant stored by the start-up probe). */
  idleBytes?: number;
  /** RSS after the warm-up and all load rounds. */
  afterLoadBytes?: number;
  /** RSS of a fresh process after storing `plantsStored` plants. */
  afterPlantsBytes?: number;
  plantsStored?: number;
}

export interface Target {
  name: string;
  goal: string;
  measured: string;
  met: boolean | null;
}

/** The operations of the starter document the benchmark drives, in the order it drives them. */
export const OPERATIONS = ['create', 'read', 'list', 'delete'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** The anchor each server's throughput and CPU are compared with: its own floor. */
export function anchorOf(server: string): string | undefined {
  if (server === 'floor' || server === 'floor-postgres' || server === 'prism') return undefined;
  return server === 'reference-postgres' ? 'floor-postgres' : 'floor';
}

/** The shape of reports/bench.json (documented in docs/benchmarks.md). */
export interface BenchReport {
  version: 2;
  generatedAt: string;
  command: string;
  wallSeconds: number;
  machine: { cores: number; cpuModel: string; node: string; platform: string; memoryBytes: number };
  settings: Settings;
  /** What each operation's requests are, as the table's heading says. */
  requests: Partial<Record<Operation, string>>;
  /** Per operation, per server. */
  throughput: Partial<Record<Operation, Record<string, RoundsSummary>>>;
  /** Per operation: "<server>/<its anchor>" and "<reference…>/prism" (the create), round by round. */
  ratios: Partial<Record<Operation, Record<string, RatioSummary>>>;
  /** Per operation: "<server>/<its anchor>", the ratio of their median server CPU per request. */
  cpuRatios: Partial<Record<Operation, Record<string, number>>>;
  startup: Record<string, { runsMs: number[]; medianMs: number }>;
  memory: Record<string, MemoryFigures>;
  harness: HarnessResult;
  /** Servers that exited during the run, with the start of their stderr. */
  failures: string[];
  targets: Target[];
}

export interface ReportInput {
  settings: Settings;
  command: string;
  wallSeconds: number;
  requests?: Partial<Record<Operation, string>>;
  rounds: Partial<Record<Operation, Record<string, RoundResult[]>>>;
  startupMs: Record<string, number[]>;
  memory: Record<string, MemoryFigures>;
  harness: HarnessResult;
  failures?: string[];
  machine?: BenchReport['machine'];
  now?: Date;
}

const MB = 1024 * 1024;

export function buildReport(input: ReportInput): BenchReport {
  const throughput: BenchReport['throughput'] = {};
  const ratios: BenchReport['ratios'] = {};
  const cpuRatios: BenchReport['cpuRatios'] = {};
  for (const operation of OPERATIONS) {
    const rounds = input.rounds[operation];
    if (rounds === undefined) continue;
    const summaries = Object.fromEntries(Object.entries(rounds).map(([name, r]) => [name, summarizeRounds(r)]));
    throughput[operation] = summaries;
    const pairs: Record<string, RatioSummary> = {};
    const cpu: Record<string, number> = {};
    for (const name of Object.keys(rounds)) {
      const anchor = anchorOf(name);
      const bottom = anchor === undefined ? undefined : rounds[anchor];
      if (anchor === undefined || bottom === undefined) continue;
      pairs[`${name}/${anchor}`] = throughputRatios(rounds[name]!, bottom);
      cpu[`${name}/${anchor}`] =
        summaries[name]!.median.serverCpuUsPerRequest / summaries[anchor]!.median.serverCpuUsPerRequest;
    }
    for (const name of ['reference', 'reference-warn'])
      if (rounds[name] && rounds.prism) pairs[`${name}/prism`] = throughputRatios(rounds[name], rounds.prism);
    ratios[operation] = pairs;
    cpuRatios[operation] = cpu;
  }
  const startup = Object.fromEntries(
    Object.entries(input.startupMs).map(([name, runsMs]) => [name, { runsMs, medianMs: median(runsMs) }]),
  );
  const report: BenchReport = {
    version: 2,
    generatedAt: (input.now ?? new Date()).toISOString(),
    command: input.command,
    wallSeconds: input.wallSeconds,
    machine: input.machine ?? {
      cores: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      memoryBytes: totalmem(),
    },
    settings: input.settings,
    requests: input.requests ?? {},
    throughput,
    ratios,
    cpuRatios,
    startup,
    memory: input.memory,
    harness: input.harness,
    failures: input.failures ?? [],
    targets: [],
  };
  report.targets = evaluateTargets(report);
  return report;
}

/**
 * Issue 47's targets against the measured figures; met is null when a
 * figure is missing. Every operation: the reference at `info` and at
 * `warn` against the floor, its CPU per request; the multi-resource
 * document's server (reference-orders) at `info` where it was measured.
 */
export function evaluateTargets(report: BenchReport): Target[] {
  const known = (value: number | undefined): value is number => value !== undefined && !Number.isNaN(value);
  const target = (
    name: string,
    goal: string,
    value: number | undefined,
    text: (v: number) => string,
    met: (v: number) => boolean,
  ): Target => ({
    name,
    goal,
    measured: known(value) ? text(value) : 'n/a',
    met: known(value) ? met(value) : null,
  });
  const times = (v: number) => `${v.toFixed(2)}x`;
  const targets: Target[] = [];
  for (const operation of OPERATIONS) {
    const ratios = report.ratios[operation] ?? {};
    const cpu = report.cpuRatios[operation] ?? {};
    const measured = report.throughput[operation] ?? {};
    targets.push(
      target(
        `${operation}: reference / floor (info)`,
        '>= 0.85x',
        ratios['reference/floor']?.median,
        times,
        (v) => v >= 0.85,
      ),
      target(
        `${operation}: reference-warn / floor`,
        '>= 0.92x',
        ratios['reference-warn/floor']?.median,
        times,
        (v) => v >= 0.92,
      ),
      target(
        `${operation}: server CPU per request, reference / floor`,
        '<= 1.25x',
        cpu['reference/floor'],
        times,
        (v) => v <= 1.25,
      ),
    );
    if (measured['reference-orders'] !== undefined)
      targets.push(
        target(
          `${operation}: reference-orders / floor (info)`,
          '>= 0.85x',
          ratios['reference-orders/floor']?.median,
          times,
          (v) => v >= 0.85,
        ),
        target(
          `${operation}: server CPU per request, reference-orders / floor`,
          '<= 1.25x',
          cpu['reference-orders/floor'],
          times,
          (v) => v <= 1.25,
        ),
      );
  }
  const create = report.ratios.create ?? {};
  const startupRatio =
    (report.startup.reference?.medianMs ?? Number.NaN) / (report.startup.floor?.medianMs ?? Number.NaN);
  const plants = report.memory.reference;
  const millionNote = plants?.plantsStored === 1_000_000 ? '' : ` (${plants?.plantsStored ?? 0} plants)`;
  targets.push(
    target(
      'create: reference / Prism',
      '>= 13x',
      create['reference/prism']?.median,
      (v) => `${v.toFixed(1)}x`,
      (v) => v >= 13,
    ),
    target(
      'create: reference-postgres / floor-postgres',
      '>= 0.6x',
      create['reference-postgres/floor-postgres']?.median,
      times,
      (v) => v >= 0.6,
    ),
    target('start-up vs floor', '<= 2x', startupRatio, times, (v) => v <= 2),
    target(
      'RSS after 1,000,000 plants',
      '<= 200 MB',
      plants?.plantsStored === 1_000_000 ? plants.afterPlantsBytes : undefined,
      (v) => `${(v / MB).toFixed(1)} MB${millionNote}`,
      (v) => v <= 200 * MB,
    ),
  );
  return targets;
}

export function renderReport(report: BenchReport): string {
  const out: string[] = [];
  const { settings, machine } = report;
  out.push(
    `Plant Store benchmark: ${report.command}`,
    `machine: ${machine.cores} cores (${machine.cpuModel}), Node ${machine.node}, ${machine.platform}`,
    `load: each operation in its own servers, ${settings.connections} connections, ${settings.rounds} rounds of ${settings.roundSeconds} s per server (the delete: ${settings.deletesPerRound} deletes a round) after a ${settings.warmupSeconds} s warm-up, servers alternating`,
    '',
  );

  for (const operation of OPERATIONS) {
    const throughput = report.throughput[operation];
    if (throughput === undefined) continue;
    const names = Object.keys(throughput);
    const rounds = Math.max(...names.map((name) => throughput[name]!.rounds.length));
    const roundHeaders = Array.from({ length: rounds }, (_, i) => `r${i + 1} req/s`);
    const cpu = report.cpuRatios[operation] ?? {};
    out.push(
      `${operation}: ${report.requests[operation] ?? ''} (medians over rounds; latency over every response)`,
      formatTable([
        ['server', ...roundHeaders, 'median req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'server CPU µs/req'],
        ...names.map((name) => {
          const s = throughput[name]!;
          return [
            name,
            ...roundHeaders.map((_, i) => fixed(s.rounds[i]?.requestsPerSecond, 0)),
            fixed(s.median.requestsPerSecond, 0),
            fixed(s.median.p50Ms, 2),
            fixed(s.median.p99Ms, 2),
            String(s.errors),
            String(s.non2xx),
            fixed(s.median.serverCpuUsPerRequest, 1),
          ];
        }),
      ]),
      '',
      formatTable([
        ['ratio (req/s per round pair)', ...roundHeaders.map((_, i) => `r${i + 1}`), 'median', 'CPU µs/req ratio'],
        ...Object.entries(report.ratios[operation] ?? {}).map(([pair, r]) => [
          pair,
          ...roundHeaders.map((_, i) => fixed(r.perRound[i], 2)),
          fixed(r.median, 2),
          fixed(cpu[pair], 2),
        ]),
      ]),
      '',
    );
  }
  out.push(
    'Start-up: spawn to the first accepted request (node dist/server/start.bundle.mjs, without npm in front; reference: the starter document, reference-shipped: the shipped one)',
    formatTable([
      ['server', ...Array.from({ length: settings.startupRuns }, (_, i) => `run ${i + 1} ms`), 'median ms'],
      ...Object.entries(report.startup).map(([name, s]) => [
        name,
        ...s.runsMs.map((v) => fixed(v, 0)),
        fixed(s.medianMs, 0),
      ]),
    ]),
    '',
    'Memory: RSS in MB',
    formatTable([
      [
        'server',
        'idle',
        'after load',
        `after ${settings.plantsForMemory.toLocaleString('en-US')} plants`,
        'plants stored',
      ],
      ...Object.entries(report.memory).map(([name, m]) => [
        name,
        megabytes(m.idleBytes),
        megabytes(m.afterLoadBytes),
        megabytes(m.afterPlantsBytes),
        m.plantsStored === undefined ? '-' : String(m.plantsStored),
      ]),
    ]),
    '',
  );

  const h = report.harness;
  out.push(
    h.available
      ? `Harness: ${h.command}\n  wall ${h.wallSecondsRuns.map((s) => s.toFixed(2)).join(' / ')} s (median ${h.wallSeconds.toFixed(2)} s), ` +
          `exit ${h.exitCodes.join(' / ')}, ${h.checks ?? 'n/a'} checks, ` +
          (h.cases === null
            ? 'generated cases unknown (a property check did not pass)'
            : `${h.cases} generated cases, ${h.casesPerSecond!.toFixed(0)} cases/s`) +
          `\n  with --cases ${h.largeRun.casesPerProperty}: ${h.largeRun.wallSeconds.toFixed(2)} s, exit ${h.largeRun.exitCode}, ` +
          (h.marginalCasesPerSecond === null
            ? 'marginal rate unknown'
            : `${h.marginalCasesPerSecond.toFixed(0)} generated cases/s beyond the fixed costs`)
      : h.reason,
    '',
    ...(report.failures.length > 0 ? ['Failures', ...report.failures, ''] : []),
    'Targets',
    formatTable([
      ['target', 'goal', 'measured', 'met'],
      ...report.targets.map((t) => [t.name, t.goal, t.measured, t.met === null ? 'n/a' : t.met ? 'yes' : 'NO']),
    ]),
    '',
    `wall time: ${report.wallSeconds.toFixed(0)} s`,
  );
  return out.join('\n');
}
