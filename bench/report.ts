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

/** The shape of reports/bench.json (documented in the README). */
export interface BenchReport {
  version: 1;
  generatedAt: string;
  command: string;
  wallSeconds: number;
  machine: { cores: number; cpuModel: string; node: string; platform: string; memoryBytes: number };
  settings: Settings;
  throughput: Record<string, RoundsSummary>;
  ratios: Record<string, RatioSummary>;
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
  rounds: Record<string, RoundResult[]>;
  startupMs: Record<string, number[]>;
  memory: Record<string, MemoryFigures>;
  harness: HarnessResult;
  failures?: string[];
  machine?: BenchReport['machine'];
  now?: Date;
}

const MB = 1024 * 1024;

export function buildReport(input: ReportInput): BenchReport {
  const throughput = Object.fromEntries(
    Object.entries(input.rounds).map(([name, rounds]) => [name, summarizeRounds(rounds)]),
  );
  const ratios: Record<string, RatioSummary> = {};
  for (const numerator of ['reference', 'reference-warn', 'reference-postgres', 'fastify-bare']) {
    for (const denominator of ['floor', 'prism']) {
      const top = input.rounds[numerator];
      const bottom = input.rounds[denominator];
      if (top && bottom) ratios[`${numerator}/${denominator}`] = throughputRatios(top, bottom);
    }
  }
  const startup = Object.fromEntries(
    Object.entries(input.startupMs).map(([name, runsMs]) => [name, { runsMs, medianMs: median(runsMs) }]),
  );
  const report: BenchReport = {
    version: 1,
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
    throughput,
    ratios,
    startup,
    memory: input.memory,
    harness: input.harness,
    failures: input.failures ?? [],
    targets: [],
  };
  report.targets = evaluateTargets(report);
  return report;
}

/** The targets against the measured figures; met is null when a figure is missing. */
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
  const floorRatio = report.ratios['reference/floor']?.median;
  const warnRatio = report.ratios['reference-warn/floor']?.median;
  const prismRatio = report.ratios['reference/prism']?.median;
  const cpuRatio =
    (report.throughput.reference?.median.serverCpuUsPerRequest ?? Number.NaN) /
    (report.throughput.floor?.median.serverCpuUsPerRequest ?? Number.NaN);
  const startupRatio =
    (report.startup.reference?.medianMs ?? Number.NaN) / (report.startup.floor?.medianMs ?? Number.NaN);
  const plants = report.memory.reference;
  const millionNote = plants?.plantsStored === 1_000_000 ? '' : ` (${plants?.plantsStored ?? 0} plants)`;
  return [
    target(
      'throughput vs floor (info, a line per request)',
      '>= 0.85x',
      floorRatio,
      (v) => `${v.toFixed(2)}x`,
      (v) => v >= 0.85,
    ),
    target(
      'throughput vs floor (LOG_LEVEL=warn)',
      '>= 0.92x',
      warnRatio,
      (v) => `${v.toFixed(2)}x`,
      (v) => v >= 0.92,
    ),
    target(
      'server CPU per request vs floor',
      '<= 1.25x',
      cpuRatio,
      (v) => `${v.toFixed(2)}x`,
      (v) => v <= 1.25,
    ),
    target(
      'throughput vs Prism',
      '>= 13x',
      prismRatio,
      (v) => `${v.toFixed(1)}x`,
      (v) => v >= 13,
    ),
    target(
      'start-up vs floor',
      '<= 2x',
      startupRatio,
      (v) => `${v.toFixed(2)}x`,
      (v) => v <= 2,
    ),
    target(
      'RSS after 1,000,000 plants',
      '<= 200 MB',
      plants?.plantsStored === 1_000_000 ? plants.afterPlantsBytes : undefined,
      (v) => `${(v / MB).toFixed(1)} MB${millionNote}`,
      (v) => v <= 200 * MB,
    ),
  ];
}

export function renderReport(report: BenchReport): string {
  const out: string[] = [];
  const { settings, machine } = report;
  out.push(
    `Plant Store benchmark: ${report.command}`,
    `machine: ${machine.cores} cores (${machine.cpuModel}), Node ${machine.node}, ${machine.platform}`,
    `load: POST /plants, a new id per request, ${settings.connections} connections, ${settings.rounds} rounds of ${settings.roundSeconds} s per server after a ${settings.warmupSeconds} s warm-up, servers alternating`,
    '',
  );

  const names = Object.keys(report.throughput);
  const roundHeaders = Array.from({ length: settings.rounds }, (_, i) => `r${i + 1} req/s`);
  out.push(
    'Throughput and latency (medians over rounds; latency over every response)',
    formatTable([
      ['server', ...roundHeaders, 'median req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'server CPU µs/req'],
      ...names.map((name) => {
        const s = report.throughput[name]!;
        return [
          name,
          ...s.rounds.map((r) => fixed(r.requestsPerSecond, 0)),
          fixed(s.median.requestsPerSecond, 0),
          fixed(s.median.p50Ms, 2),
          fixed(s.median.p99Ms, 2),
          String(s.errors),
          String(s.non2xx),
          fixed(s.median.serverCpuUsPerRequest, 0),
        ];
      }),
    ]),
    '',
    'Throughput ratios per round pair',
    formatTable([
      ['ratio', ...roundHeaders.map((_, i) => `r${i + 1}`), 'median'],
      ...Object.entries(report.ratios).map(([pair, r]) => [
        pair,
        ...r.perRound.map((v) => fixed(v, 2)),
        fixed(r.median, 2),
      ]),
    ]),
    '',
    'Start-up: spawn to the first accepted request (reference: node dist/server/start.js, without npm in front)',
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
